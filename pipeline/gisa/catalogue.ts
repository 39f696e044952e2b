// The trade catalogue: GISA's trade keys (GetKatalogGewerbeschluessel) with their kind
// (GetKatalogGewerbeart), merged with the bundled list of regulated trades (GewO 1994 § 94, loaded into
// regulated_trade by the catalogue loader): a key whose name is a § 94 trade carries its Ziffer, and is
// `reglementiert` where GISA names no kind.
import type { Sql } from '../../runtime/db.js';
import type { TradeCatalogueEntry, TradeKind } from '../../schemas/tradeRecords.js';

/** Lower case, without parenthesised notes ("(Handwerk)") and the "verbundenes Handwerk:" lead. */
export function tradeNameForMatching(name: string): string {
  return name.toLowerCase().replace(/\([^)]*\)/g, ' ').replace(/verbundenes handwerk:/g, ' ').replace(/\s+/g, ' ').replace(/\s+([;,])/g, '$1').trim();
}

/** The § 94 Ziffer a catalogue name names: the whole entry, or one of its `;`-separated trades. */
export function regulatedZiffer(name: string, regulated: ReadonlyArray<{ ziffer: number; name: string | null }>): number | null {
  const wanted = tradeNameForMatching(name);
  for (const r of regulated) {
    if (!r.name) continue;
    const entry = tradeNameForMatching(r.name);
    if (entry === wanted || entry.split(';').map((s) => s.trim()).includes(wanted)) return r.ziffer;
  }
  return null;
}

export async function storeCatalogue(sql: Sql, keys: TradeCatalogueEntry[], kinds: TradeKind[]): Promise<{ trades: number; regulated: number }> {
  const regulated = await sql<{ ziffer: number; name: string | null }[]>`SELECT ziffer, name FROM regulated_trade WHERE in_force ORDER BY ziffer`;
  const kindName = new Map(kinds.map((k) => [k.code, k.name]));
  const rows = keys.map((k) => {
    const ziffer = regulatedZiffer(k.name, regulated);
    const kind = (k.kindCode && kindName.get(k.kindCode)) || (ziffer !== null ? 'reglementiert' : null);
    return { trade_key: k.tradeKey, name: k.name, kind, is_historical: k.isHistorical, regulated_ziffer: ziffer, source: 'gisa' };
  });
  for (let i = 0; i < rows.length; i += 1000) {
    await sql`
      INSERT INTO trade ${sql(rows.slice(i, i + 1000))}
      ON CONFLICT (trade_key) DO UPDATE SET name = EXCLUDED.name, kind = EXCLUDED.kind, is_historical = EXCLUDED.is_historical,
             regulated_ziffer = EXCLUDED.regulated_ziffer, source = 'gisa', updated_at = now()
       WHERE (trade.name, trade.kind, trade.is_historical, trade.regulated_ziffer, trade.source)
             IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.kind, EXCLUDED.is_historical, EXCLUDED.regulated_ziffer, EXCLUDED.source)`;
  }
  return { trades: rows.length, regulated: rows.filter((r) => r.regulated_ziffer !== null).length };
}
