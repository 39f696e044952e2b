// Synthetic trade licences for the read benchmark (bench/readBench.ts): about 1.6 per company (1M at
// 640k companies), deterministic per company, over 400 trade keys with a Zipf-like popularity (the
// most common key, like GISA's Handelsgewerbe, holds ~15 % of all licences: the long pages of
// /trades/{tradeKey}/licenses), a fifth ended, some dormant, at the company's own address.
import type { Sql } from '../runtime/db.js';
import { rng, type Rand } from './syntheticCompanies.js';

const KEYS = 400;
/** Trade keys by popularity rank: rank 0 is the most common. */
export const SYNTHETIC_TRADE_KEYS = Array.from({ length: KEYS }, (_, rank) => String(100000 + rank * 1373));
const CUMULATIVE = (() => {
  const weights = SYNTHETIC_TRADE_KEYS.map((_, rank) => 1 / (rank + 1));
  const total = weights.reduce((s, w) => s + w, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
})();

/** A trade key drawn by popularity. */
export function popularTradeKey(r: Rand): string {
  const x = r();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return SYNTHETIC_TRADE_KEYS[lo]!;
}

/** Licences per company: 0 (22 %), 1 (30 %), 2 (25 %), 3 (13 %), 4 (6 %), 5 (4 %): 1.63 on average. */
const COUNT_EDGES = [0.22, 0.52, 0.77, 0.9, 0.96, 1];

/** The EAN-style check digit GISA-Zahlen carry (weights 3 and 1 from the right). */
function gisaZahl(n: number): string {
  const base = String(n).padStart(8, '0');
  let sum = 0;
  for (let i = 0; i < base.length; i++) sum += Number(base[base.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return base + String((10 - (sum % 10)) % 10);
}

const date = (r: Rand, from: number, to: number) => {
  const d = new Date(Date.UTC(from, 0, 1) + Math.floor(r() * (to - from) * 365) * 86_400_000);
  return d.toISOString().slice(0, 10);
};

interface CompanyRow { fnr: string; name: string; street: string | null; zipCode: string | null; city: string | null }

function licencesOf(c: CompanyRow, index: number, seed: number) {
  const r = rng((seed * 0x2545f491) ^ Math.imul(index + 1, 0x9e3779b1));
  const x = r();
  const count = COUNT_EDGES.findIndex((edge) => x < edge);
  return Array.from({ length: count }, (_, k) => {
    const tradeKey = popularTradeKey(r);
    const from = date(r, 1980, 2025);
    const ended = r() < 0.2 ? date(r, Number(from.slice(0, 4)) + 1, 2026) : null;
    const dormant = !ended && r() < 0.05;
    return {
      gisa_zahl: gisaZahl(index * 8 + k + 1), fnr: c.fnr, trade_key: tradeKey, wording: `Gewerbe ${tradeKey}`, authority_code: '900',
      authority_name: 'Magistrat der Stadt Wien', effective_from: from, ended_on: ended, is_dormant: dormant, dormant_from: dormant ? date(r, 2020, 2025) : null,
      holder_kind: 'legal', holder_name: c.name, street: c.street, zip_code: c.zipCode, city: c.city, record: '{}',
    };
  });
}

/** Loads the licences of every company (unless some are there), their per-key counts and the catalogue; returns how many. */
export async function ensureLicences(sql: Sql, say: (line: string) => void, seed = 1): Promise<number> {
  const [have] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM trade_license`;
  if (have!.n > 0) return have!.n;
  const started = performance.now();
  await sql`INSERT INTO trade ${sql(SYNTHETIC_TRADE_KEYS.map((k, rank) => ({ trade_key: k, name: `Gewerbe ${k} (Rang ${rank + 1})`, kind: rank % 3 === 0 ? 'frei' : 'reglementiert' })))}
            ON CONFLICT (trade_key) DO NOTHING`;
  let after = '';
  let index = 0;
  let total = 0;
  for (;;) {
    // Companies in fnr order, each with its current address: the index is its place in that order.
    const batch = await sql<CompanyRow[]>`
      SELECT c.fnr, c.name, a.street, a.zip_code, a.city FROM company c
        LEFT JOIN LATERAL (SELECT street, zip_code, city FROM company_address a WHERE a.fnr = c.fnr AND a.is_current ORDER BY position LIMIT 1) a ON true
       WHERE c.fnr > ${after} ORDER BY c.fnr LIMIT 10000`;
    if (batch.length === 0) break;
    const rows = batch.flatMap((c) => licencesOf(c, index++, seed));
    for (let i = 0; i < rows.length; i += 4000) await sql`INSERT INTO trade_license ${sql(rows.slice(i, i + 4000))}`;
    total += rows.length;
    after = batch[batch.length - 1]!.fnr;
    if (index % 100_000 < 10_000) say(`  licences: ${total} for ${index} companies`);
  }
  await sql`
    INSERT INTO trade_license_count (trade_key, total, active)
    SELECT trade_key, count(*), count(*) FILTER (WHERE ended_on IS NULL) FROM trade_license GROUP BY trade_key
    ON CONFLICT (trade_key) DO UPDATE SET total = EXCLUDED.total, active = EXCLUDED.active`;
  await sql`VACUUM ANALYZE trade_license`;
  say(`loaded ${total} licences in ${Math.round((performance.now() - started) / 1000)} s`);
  return total;
}
