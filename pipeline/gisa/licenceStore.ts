// Stores the licences one lookup found (a company's or a register person's) with their change rows in
// one transaction: a `trade` change per licence that is new, changed, ended or gone; a `business`
// change per company whose set of current trade keys changed (the read model follows it); the
// per-key counts; and where the re-check stands. Licences are compared field by field with the record
// stored last time, so storing the same answer twice writes nothing.
import { isDeepStrictEqual } from 'node:util';
import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../../runtime/db.js';
import type { TradeLicence } from '../../schemas/tradeRecords.js';
import { rederiveOenaces } from '../oenace/derive.js';
import { recordChanges, type NewChange } from '../store/changeLog.js';

export type LookupScope = { fnr: string } | { personId: string };

export interface LicenceLookup {
  /** The company or person whose lookup this completes (marked checked), if any. */
  scope?: LookupScope;
  /** Licences read in full this time. */
  licences: TradeLicence[];
  /** Stored licences GISA no longer knows (code 1000): removed. */
  gone: string[];
}

export interface LicenceStoreResult {
  created: number;
  updated: number;
  deleted: number;
  /** Companies whose set of current trade keys changed. */
  businessChanges: string[];
}

/** Record fields as the API names them; `endedOn` also changes `isActive`. */
const FIELDS: Array<[keyof TradeLicence, string[]]> = [
  ['tradeKey', ['tradeKey']], ['wording', ['wording']], ['authority', ['authority']], ['effectiveFrom', ['effectiveFrom']],
  ['endedOn', ['endedOn', 'isActive']], ['isIndustrial', ['isIndustrial']], ['isDormant', ['isDormant']], ['dormantFrom', ['dormantFrom']],
  ['dormantUntil', ['dormantUntil']], ['holder', ['holder']], ['location', ['location']], ['locationHistory', ['location']],
  ['history', ['history']], ['manager', ['manager']],
];

export function licenceChangedFields(before: Partial<TradeLicence> | null, after: TradeLicence): string[] {
  const changed = new Set<string>();
  for (const [field, names] of FIELDS) {
    if (!before || !isDeepStrictEqual(before[field] ?? null, after[field] ?? null)) names.forEach((n) => changed.add(n));
  }
  if (before && before.holder?.fnr !== after.holder.fnr) changed.add('fnr');
  return [...changed];
}

interface StoredRow {
  gisaZahl: string;
  fnr: string | null;
  tradeKey: string | null;
  endedOn: string | null;
  record: Partial<TradeLicence>;
}

function row(l: TradeLicence) {
  return {
    gisa_zahl: l.gisaZahl, fnr: l.holder.fnr, trade_key: l.tradeKey, wording: l.wording, authority_code: l.authority.code, authority_name: l.authority.text,
    effective_from: l.effectiveFrom, ended_on: l.endedOn, is_dormant: l.isDormant, dormant_from: l.dormantFrom, dormant_until: l.dormantUntil,
    is_industrial: l.isIndustrial, holder_kind: l.holder.type, holder_name: l.holder.name, holder_person_id: l.holder.type === 'natural' ? l.holder.personId : null,
    manager_name: l.manager?.name ?? null, manager_person_id: l.manager?.personId ?? null,
    street: l.location?.street ?? null, zip_code: l.location?.zipCode ?? null, city: l.location?.city ?? null,
    location: l.location as unknown as postgres.JSONValue, history: l.history as unknown as postgres.JSONValue, record: l as unknown as postgres.JSONValue,
  };
}

const UPDATE_COLUMNS = Object.keys(row({ holder: {}, authority: {} } as TradeLicence)).filter((c) => c !== 'gisa_zahl').map((c) => `${c} = EXCLUDED.${c}`).join(', ');

/** Current trade keys per company, as the read model's `trade_keys` and `gisaLicenseKey` see them. */
async function currentKeys(tx: TransactionSql, fnrs: string[]): Promise<Map<string, string>> {
  const rows = await tx<{ fnr: string; keys: string }[]>`
    SELECT fnr, coalesce(string_agg(DISTINCT trade_key, ',' ORDER BY trade_key), '') AS keys
      FROM trade_license WHERE fnr = ANY(${fnrs}) AND ended_on IS NULL AND trade_key IS NOT NULL GROUP BY fnr`;
  return new Map(rows.map((r) => [r.fnr, r.keys]));
}

type Counts = Map<string, { total: number; active: number }>;
function count(counts: Counts, key: string | null, active: boolean, sign: 1 | -1): void {
  if (key === null) return;
  const c = counts.get(key) ?? { total: 0, active: 0 };
  c.total += sign;
  if (active) c.active += sign;
  counts.set(key, c);
}

export async function storeLicenceLookup(sql: Sql, lookup: LicenceLookup): Promise<LicenceStoreResult> {
  return sql.begin(async (tx) => {
    const zahlen = [...lookup.licences.map((l) => l.gisaZahl), ...lookup.gone];
    // Per GISA-Zahl, in key order, before the read: FOR UPDATE locks no row of a new licence (and a sole
    // trader's has no fnr to lock), so two stores of it would each see none and both write it.
    await tx`
      SELECT count(*) FROM (SELECT pg_advisory_xact_lock(k) FROM (
        SELECT DISTINCT hashtextextended('gisa-licence:' || z, 0) AS k FROM unnest(${zahlen}::text[]) AS z ORDER BY k) AS keys) AS locked`;
    const before = await tx<StoredRow[]>`
      SELECT gisa_zahl, fnr, trade_key, to_char(ended_on, 'YYYY-MM-DD') AS ended_on, record
        FROM trade_license WHERE gisa_zahl = ANY(${zahlen}) ORDER BY gisa_zahl FOR UPDATE`;
    const stored = new Map(before.map((r) => [r.gisaZahl, r]));
    const fnrs = [...new Set([...before.map((r) => r.fnr), ...lookup.licences.map((l) => l.holder.fnr), lookup.scope && 'fnr' in lookup.scope ? lookup.scope.fnr : null])]
      .filter((f): f is string => f !== null).sort();
    // One company's stores one after the other: the key-set comparison must see the other's result.
    for (const fnr of fnrs) await tx`SELECT pg_advisory_xact_lock(hashtext(${'gisa:' + fnr}))`;
    const keysBefore = await currentKeys(tx, fnrs);

    const changes: NewChange[] = [];
    const counts: Counts = new Map();
    const result: LicenceStoreResult = { created: 0, updated: 0, deleted: 0, businessChanges: [] };
    const upserts: ReturnType<typeof row>[] = [];
    for (const licence of lookup.licences) {
      const old = stored.get(licence.gisaZahl) ?? null;
      const fields = licenceChangedFields(old?.record ?? null, licence);
      if (old && fields.length === 0) continue;
      upserts.push(row(licence));
      if (old) count(counts, old.tradeKey, old.endedOn === null, -1);
      count(counts, licence.tradeKey, licence.endedOn === null, 1);
      changes.push({ type: 'trade', fnr: licence.holder.fnr ?? old?.fnr ?? null, action: old ? 'updated' : 'created', changedFields: fields, gisaZahl: licence.gisaZahl });
      if (old) result.updated++;
      else result.created++;
    }
    if (upserts.length > 0) {
      await tx`
        INSERT INTO trade_license ${tx(upserts)}
        ON CONFLICT (gisa_zahl) DO UPDATE SET ${tx.unsafe(UPDATE_COLUMNS)}, updated_at = now()`;
      // Trade keys the catalogue does not know yet get a row named by the licence, so /trades lists them.
      await tx`
        INSERT INTO trade (trade_key, name, source)
        SELECT DISTINCT ON (trade_key) trade_key, coalesce(wording, trade_key), 'licence' FROM trade_license
         WHERE gisa_zahl = ANY(${upserts.map((u) => u.gisa_zahl)}) AND trade_key IS NOT NULL
        ON CONFLICT (trade_key) DO NOTHING`;
    }
    // Looked up now, changed or not: the re-check of sole traders' licences goes by this (recheck.ts).
    if (lookup.licences.length > 0) {
      await tx`UPDATE trade_license SET last_crawled_at = now() WHERE gisa_zahl = ANY(${lookup.licences.map((l) => l.gisaZahl)})`;
    }
    const gone = lookup.gone.filter((z) => stored.has(z));
    if (gone.length > 0) {
      await tx`DELETE FROM trade_license WHERE gisa_zahl = ANY(${gone})`;
      for (const z of gone) {
        const old = stored.get(z)!;
        count(counts, old.tradeKey, old.endedOn === null, -1);
        changes.push({ type: 'trade', fnr: old.fnr, action: 'deleted', changedFields: [], gisaZahl: z });
        result.deleted++;
      }
    }
    for (const [tradeKey, c] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (c.total === 0 && c.active === 0) continue;
      await tx`
        INSERT INTO trade_license_count (trade_key, total, active) VALUES (${tradeKey}, ${c.total}, ${c.active})
        ON CONFLICT (trade_key) DO UPDATE SET total = trade_license_count.total + EXCLUDED.total, active = trade_license_count.active + EXCLUDED.active`;
    }

    if (changes.length > 0) {
      const keysAfter = await currentKeys(tx, fnrs);
      const known = new Set((await tx<{ fnr: string }[]>`SELECT fnr FROM company WHERE fnr = ANY(${fnrs})`).map((r) => r.fnr));
      const keysChanged = fnrs.filter((fnr) => known.has(fnr) && (keysBefore.get(fnr) ?? '') !== (keysAfter.get(fnr) ?? ''));
      // Trade keys are an input of the derived industry codes: derive them again in this transaction.
      const oenaces = new Set(await rederiveOenaces(tx, keysChanged));
      for (const fnr of keysChanged) {
        changes.push({ type: 'business', fnr, action: 'updated', changedFields: oenaces.has(fnr) ? ['tradeLicenses', 'oenaces'] : ['tradeLicenses'] });
        result.businessChanges.push(fnr);
      }
      await recordChanges(tx, changes);
    }
    if (lookup.scope) await markChecked(tx, lookup.scope);
    return result;
  });
}

/** Where the re-check stands: this company (or person) was looked up now. */
export async function markChecked(tx: Sql | TransactionSql, scope: LookupScope): Promise<void> {
  if ('fnr' in scope) {
    await tx`
      INSERT INTO gisa_company_check (fnr, is_active, checked_at, licences)
      SELECT ${scope.fnr}, coalesce((SELECT status = 'active' FROM company WHERE fnr = ${scope.fnr}), false), now(),
             (SELECT count(*)::int FROM trade_license WHERE fnr = ${scope.fnr})
      ON CONFLICT (fnr) DO UPDATE SET is_active = EXCLUDED.is_active, checked_at = EXCLUDED.checked_at, licences = EXCLUDED.licences`;
  } else {
    await tx`
      INSERT INTO gisa_person_check (person_id, checked_at, licences)
      VALUES (${scope.personId}, now(), (SELECT count(*)::int FROM trade_license WHERE holder_person_id = ${scope.personId}))
      ON CONFLICT (person_id) DO UPDATE SET checked_at = now(), licences = EXCLUDED.licences`;
  }
}
