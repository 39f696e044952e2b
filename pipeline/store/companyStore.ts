// Stores one company extract: the company row, its names, addresses, register entries, parties,
// functions and holdings, and the business change row, all in one transaction. The last stored
// extract is compared field by field with the new one: an unchanged extract writes no data and no
// change row, only lastCrawledAt.
import { createHash } from 'node:crypto';
import type { CompanyExtract, CompanyStoreItem, Party } from '../../schemas/firmenbuchRecords.js';
import type { ChangeAction } from '../../runtime/changeLog.js';
import type { Sql, TransactionSql } from '../../runtime/db.js';
import { recordChanges, type NewChange } from './changeLog.js';
import { derivedRows, oenaceClassifier, readDerivationState, sameRows, writeDerivedRows, type DerivedRow } from '../oenace/derive.js';

/** Extract fields that describe the register's state; the rest (query time, checksum) is volatile. */
const TRACKED_FIELDS = [
  'name', 'formerNames', 'addresses', 'seat', 'municipalityCode', 'municipality', 'legalForm', 'capital',
  'businessPurpose', 'status', 'court', 'euid', 'kur', 'registerEntries', 'functions', 'parties', 'holdings',
] as const satisfies ReadonlyArray<keyof CompanyExtract>;

/** How a tracked extract field is named in the API (changedFields speak the contract's language). */
const CHANGED_FIELD_NAME: Partial<Record<(typeof TRACKED_FIELDS)[number], string>> = {
  status: 'isActive',
  municipalityCode: 'municipality',
  parties: 'functions',
};

/** The changedFields this store writes: a business change naming one of them came from the company register. */
export const COMPANY_REGISTER_FIELDS: ReadonlySet<string> = new Set(TRACKED_FIELDS.map((f) => CHANGED_FIELD_NAME[f] ?? f));

export interface StoreResult {
  fnr: string;
  action: ChangeAction | 'unchanged';
  changedFields: string[];
  changeIds: number[];
}

type TrackedSnapshot = Pick<CompanyExtract, (typeof TRACKED_FIELDS)[number]>;

function trackedSnapshot(extract: CompanyExtract): TrackedSnapshot {
  return Object.fromEntries(TRACKED_FIELDS.map((f) => [f, extract[f] ?? null])) as TrackedSnapshot;
}

/** JSON with object keys sorted at every level: jsonb hands objects back with its own key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Contract names of the fields whose content differs; order follows TRACKED_FIELDS. */
export function changedFields(previous: Partial<TrackedSnapshot> | null, next: TrackedSnapshot): string[] {
  const names = new Set<string>();
  for (const field of TRACKED_FIELDS) {
    if (canonicalJson(previous?.[field] ?? null) !== canonicalJson(next[field] ?? null)) {
      names.add(CHANGED_FIELD_NAME[field] ?? field);
    }
  }
  return [...names];
}

export function organisationId(name: string, foreignNumber: string | null): string {
  const norm = `${name.trim().toLowerCase().replace(/\s+/g, ' ')}|${foreignNumber ?? ''}`;
  return createHash('sha256').update(norm).digest('hex').slice(0, 16);
}

/** Highest vnr among register entries that the previous extract did not have: the entry that caused the change. */
function causingVnr(previous: Partial<TrackedSnapshot> | null, next: TrackedSnapshot): string | null {
  const known = new Set((previous?.registerEntries ?? []).map((e) => e.vnr));
  const added = next.registerEntries.map((e) => e.vnr).filter((v) => !known.has(v)).sort();
  return added.at(-1) ?? null;
}

/** A statement sent but not yet awaited: a transaction's statements are pipelined in this order. */
type Pending = PromiseLike<unknown>;

/** First occurrence per key (what a sequence of `ON CONFLICT DO NOTHING` inserts keeps). */
function firstByKey<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

/** Rows sorted by their key, so concurrent transactions lock shared rows (persons, catalogues) in one order. */
function sortedBy<T>(items: T[], key: (item: T) => string): T[] {
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** JSON text of a row set for `jsonb_to_recordset`: one parameter and one statement text whatever the row count. */
function rowsJson(rows: unknown[]): string {
  return JSON.stringify(rows);
}

type PersonRow = { person_id: string; first_name: string | null; last_name: string | null; title_before: string | null; title_after: string | null; birth_date: string | null; name_norm: string };
type OrganisationRow = { organisation_id: string; name: string; foreign_register: string | null; foreign_number: string | null; country: string | null };
type PartyRow = { fnr: string; pnr: string; kind: Party['kind']; person_id: string | null; related_fnr: string | null; organisation_id: string | null; address: unknown };

/** The rows of every table a batch of extracts writes, gathered across its companies. */
interface ChildRows {
  names: Array<{ fnr: string; vnr: string; name: string; is_current: boolean }>;
  addresses: unknown[];
  entries: unknown[];
  /** Person rows by person_id in first-seen order: the first birth date, the last names. */
  persons: Map<string, PersonRow>;
  organisations: OrganisationRow[];
  parties: PartyRow[];
  functions: unknown[];
  codes: Array<{ code: string; text: string; source: string }>;
  kinds: Array<{ code: string; text: string; source: string }>;
  holdings: unknown[];
}

function emptyChildRows(): ChildRows {
  return { names: [], addresses: [], entries: [], persons: new Map(), organisations: [], parties: [], functions: [], codes: [], kinds: [], holdings: [] };
}

/**
 * Persons, organisations and the company's parties. Gathered across a batch this equals the
 * per-party upserts in order: a person named twice ends with the first insert's birth date and the
 * last occurrence's names (the upsert does not touch birth_date), an organisation keeps its first row.
 */
function gatherParties(fnr: string, parties: Party[], out: ChildRows): void {
  for (const party of parties) {
    if (party.kind === 'person') {
      const nameNorm = [party.firstName, party.lastName].filter(Boolean).join(' ').toLowerCase();
      const first = out.persons.get(party.personId);
      out.persons.set(party.personId, {
        person_id: party.personId, first_name: party.firstName, last_name: party.lastName, title_before: party.titles.before,
        title_after: party.titles.after, birth_date: first ? first.birth_date : party.birthDate, name_norm: nameNorm,
      });
      out.parties.push({ fnr, pnr: party.pnr, kind: 'person', person_id: party.personId, related_fnr: null, organisation_id: null, address: null });
    } else if (party.kind === 'company') {
      out.parties.push({
        fnr, pnr: party.pnr, kind: 'company', person_id: null, related_fnr: party.relatedFnr, organisation_id: null, address: party.address ?? null,
      });
    } else {
      const id = organisationId(party.name, party.foreignRegistration?.registerNumber ?? null);
      out.organisations.push({
        organisation_id: id, name: party.name, foreign_register: party.foreignRegistration?.court ?? null,
        foreign_number: party.foreignRegistration?.registerNumber ?? null, country: party.address?.country ?? null,
      });
      out.parties.push({ fnr, pnr: party.pnr, kind: 'organisation', person_id: null, related_fnr: null, organisation_id: id, address: party.address ?? null });
    }
  }
}

/** The company's child rows (the extract is the register's full picture: they replace the stored ones). */
function gatherChildren(extract: CompanyExtract, out: ChildRows): void {
  const { fnr } = extract;
  const names = [
    ...(extract.name ? [{ fnr, vnr: currentNameVnr(extract), name: extract.name, is_current: true }] : []),
    ...extract.formerNames.map((n) => ({ fnr, vnr: n.vnr ?? '', name: n.name, is_current: false })),
  ];
  out.names.push(...new Map(names.map((n) => [`${n.vnr}|${n.name}`, n])).values());

  extract.addresses.forEach((a, i) => out.addresses.push({
    fnr, vnr: a.vnr ?? '', position: i, is_current: a.isCurrent, line: a.form === 'line' ? a.streetLine : null,
    street: a.street, house_number: a.houseNumber, staircase: a.staircase, door: a.door, delivery_note: a.deliveryNote,
    zip_code: a.zipCode, city: a.city, country: a.country, deliverable: a.deliverable,
  }));

  for (const e of new Map(extract.registerEntries.map((e) => [e.vnr, e])).values()) {
    out.entries.push({
      fnr, vnr: e.vnr, executed_on: e.executedOn, court_code: e.court?.code ?? null, court_text: e.court?.text ?? null,
      az: e.az, application_texts: e.applicationTexts, received_on: e.receivedOn,
    });
  }

  gatherParties(fnr, extract.parties, out);
  const partyPnrs = new Set(extract.parties.map((p) => p.pnr));

  // A function whose PER block is missing still belongs to the company: record an organisation
  // placeholder would invent data, so such functions are skipped and reported by the parser's warnings.
  const functions = extract.functions.filter((f) => partyPnrs.has(f.pnr));
  for (const f of firstByKey(functions, (f) => JSON.stringify([f.pnr, f.functionCode, f.vnr ?? '']))) {
    out.functions.push({
      fnr, pnr: f.pnr, function_code: f.functionCode, vnr: f.vnr ?? '', function_text: f.functionText,
      representation_code: f.representation?.code ?? null, representation_text: f.representation?.text ?? null,
      since: f.since, until: f.until, is_current: f.isCurrent, texts: f.texts,
    });
  }
  // Function codes and representation kinds first seen in an extract join the catalogues (source 'register').
  for (const f of functions) {
    if (f.functionText) out.codes.push({ code: f.functionCode, text: f.functionText, source: 'register' });
    if (f.representation?.text) out.kinds.push({ code: String(f.representation.code), text: f.representation.text, source: 'register' });
  }

  for (const h of firstByKey(extract.holdings.filter((h) => partyPnrs.has(h.holderPnr)), (h) => JSON.stringify([h.holderPnr, h.vnr ?? '']))) {
    out.holdings.push({
      fnr, pnr: h.holderPnr, vnr: h.vnr ?? '', capital: h.capital, paid_in: h.paidIn, currency: h.currency,
      since: h.since, until: h.until, is_current: h.isCurrent,
    });
  }
}

/**
 * Queues the child rows' statements on `out` in dependency order. `replaced` are the companies that
 * had rows already: theirs are deleted first (a new company has none; the foreign keys cascade).
 * Every statement has one text whatever the number of rows (jsonb_to_recordset), so Postgres plans
 * each once per connection.
 */
function writeChildren(tx: TransactionSql, rows: ChildRows, replaced: string[], out: Pending[]): void {
  if (replaced.length > 0) {
    out.push(tx`DELETE FROM company_name WHERE fnr = ANY(${replaced}::text[])`);
    out.push(tx`DELETE FROM company_address WHERE fnr = ANY(${replaced}::text[])`);
    out.push(tx`DELETE FROM register_entry WHERE fnr = ANY(${replaced}::text[])`);
    out.push(tx`DELETE FROM company_party WHERE fnr = ANY(${replaced}::text[])`); // cascades to functions and holdings
  }
  if (rows.names.length > 0) {
    out.push(tx`
      INSERT INTO company_name (fnr, vnr, name, is_current)
      SELECT fnr, vnr, name, is_current FROM jsonb_to_recordset(${rowsJson(rows.names)}::text::jsonb)
        AS r (fnr text, vnr text, name text, is_current boolean)`);
  }
  if (rows.addresses.length > 0) {
    out.push(tx`
      INSERT INTO company_address (fnr, vnr, position, is_current, line, street, house_number, staircase, door, delivery_note, zip_code, city, country, deliverable)
      SELECT fnr, vnr, position, is_current, line, street, house_number, staircase, door, delivery_note, zip_code, city, country, deliverable
        FROM jsonb_to_recordset(${rowsJson(rows.addresses)}::text::jsonb)
          AS r (fnr text, vnr text, position smallint, is_current boolean, line text, street text, house_number text, staircase text,
                door text, delivery_note text, zip_code text, city text, country text, deliverable boolean)`);
  }
  if (rows.entries.length > 0) {
    out.push(tx`
      INSERT INTO register_entry (fnr, vnr, executed_on, court_code, court_text, az, application_texts, received_on)
      SELECT fnr, vnr, executed_on, court_code, court_text, az, application_texts, received_on
        FROM jsonb_to_recordset(${rowsJson(rows.entries)}::text::jsonb)
          AS r (fnr text, vnr text, executed_on date, court_code text, court_text text, az text, application_texts text[], received_on date)`);
  }
  if (rows.persons.size > 0) {
    out.push(tx`
      INSERT INTO person (person_id, first_name, last_name, title_before, title_after, birth_date, name_norm)
      SELECT person_id, first_name, last_name, title_before, title_after, birth_date, name_norm
        FROM jsonb_to_recordset(${rowsJson(sortedBy([...rows.persons.values()], (p) => p.person_id))}::text::jsonb)
          AS r (person_id text, first_name text, last_name text, title_before text, title_after text, birth_date date, name_norm text)
      ON CONFLICT (person_id) DO UPDATE SET
        first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, title_before = EXCLUDED.title_before,
        title_after = EXCLUDED.title_after, name_norm = EXCLUDED.name_norm, updated_at = now()
      WHERE (person.first_name, person.last_name, person.title_before, person.title_after)
            IS DISTINCT FROM (EXCLUDED.first_name, EXCLUDED.last_name, EXCLUDED.title_before, EXCLUDED.title_after)`);
  }
  if (rows.organisations.length > 0) {
    const unique = sortedBy(firstByKey(rows.organisations, (o) => o.organisation_id), (o) => o.organisation_id);
    out.push(tx`
      INSERT INTO organisation (organisation_id, name, foreign_register, foreign_number, country)
      SELECT organisation_id, name, foreign_register, foreign_number, country
        FROM jsonb_to_recordset(${rowsJson(unique)}::text::jsonb)
          AS r (organisation_id text, name text, foreign_register text, foreign_number text, country text)
      ON CONFLICT (organisation_id) DO NOTHING`);
  }
  if (rows.parties.length > 0) {
    out.push(tx`
      INSERT INTO company_party (fnr, pnr, kind, person_id, related_fnr, organisation_id, address)
      SELECT fnr, pnr, kind, person_id, related_fnr, organisation_id, address
        FROM jsonb_to_recordset(${rowsJson(rows.parties)}::text::jsonb)
          AS r (fnr text, pnr text, kind text, person_id text, related_fnr text, organisation_id text, address jsonb)`);
  }
  if (rows.functions.length > 0) {
    out.push(tx`
      INSERT INTO company_function (fnr, pnr, function_code, vnr, function_text, representation_code, representation_text, since, until, is_current, texts)
      SELECT fnr, pnr, function_code, vnr, function_text, representation_code, representation_text, since, until, is_current, texts
        FROM jsonb_to_recordset(${rowsJson(rows.functions)}::text::jsonb)
          AS r (fnr text, pnr text, function_code text, vnr text, function_text text, representation_code text, representation_text text,
                since date, until date, is_current boolean, texts text[])
      ON CONFLICT (fnr, pnr, function_code, vnr) DO NOTHING`);
  }
  const codes = sortedBy(firstByKey(rows.codes, (c) => c.code), (c) => c.code);
  if (codes.length > 0) {
    out.push(tx`
      INSERT INTO function_code (code, text, source)
      SELECT code, text, source FROM jsonb_to_recordset(${rowsJson(codes)}::text::jsonb) AS r (code text, text text, source text)
      ON CONFLICT (code) DO NOTHING`);
  }
  const kinds = sortedBy(firstByKey(rows.kinds, (k) => k.code), (k) => k.code);
  if (kinds.length > 0) {
    out.push(tx`
      INSERT INTO representation_kind (code, text, source)
      SELECT code, text, source FROM jsonb_to_recordset(${rowsJson(kinds)}::text::jsonb) AS r (code text, text text, source text)
      ON CONFLICT (code) DO NOTHING`);
  }
  if (rows.holdings.length > 0) {
    out.push(tx`
      INSERT INTO holding (fnr, pnr, vnr, capital, paid_in, currency, since, until, is_current)
      SELECT fnr, pnr, vnr, capital, paid_in, currency, since, until, is_current
        FROM jsonb_to_recordset(${rowsJson(rows.holdings)}::text::jsonb)
          AS r (fnr text, pnr text, vnr text, capital numeric, paid_in numeric, currency text, since date, until date, is_current boolean)
      ON CONFLICT (fnr, pnr, vnr) DO NOTHING`);
  }
}

function currentNameVnr(extract: CompanyExtract): string {
  // The current name's data group vnr is not carried separately; the latest register entry stands in.
  return extract.registerEntries.map((e) => e.vnr).sort().at(-1) ?? '';
}

export interface CompanyStoreResult extends StoreResult {
  /** Whether a listing stored or updated documents of this company within the last day (read in the same transaction). */
  listedLately: boolean;
}

/** One transaction for extracts of distinct companies, each compared with its stored snapshot. */
async function storeBatch(sql: Sql, items: CompanyStoreItem[]): Promise<CompanyStoreResult[]> {
  const fnrs = items.map((i) => i.extract.fnr);
  return sql.begin(async (tx) => {
    // Locked in fnr order, so two batches that share companies cannot deadlock on them.
    const [existingRows, documented, derivation] = await Promise.all([
      tx<{ fnr: string; extract: Partial<TrackedSnapshot> | null; status: string }[]>`
        SELECT fnr, extract, status FROM company WHERE fnr = ANY(${fnrs}::text[]) ORDER BY fnr FOR UPDATE`,
      tx<{ fnr: string }[]>`
        SELECT fnr FROM document WHERE fnr = ANY(${fnrs}::text[]) GROUP BY fnr HAVING max(updated_at) > now() - interval '1 day'`,
      readDerivationState(tx, fnrs),
    ]);
    const existing = new Map(existingRows.map((r) => [r.fnr, r]));
    const listed = new Set(documented.map((r) => r.fnr));
    const results: CompanyStoreResult[] = [];
    const unchanged: Array<{ fnr: string; register_checksum: string | null; last_crawled_at: Date }> = [];
    const companyRows: unknown[] = [];
    const replaced: string[] = [];
    const children = emptyChildRows();
    const changes: NewChange[] = [];
    const changedAt: number[] = [];
    // Industry codes derived from the purpose and trade keys, written where they change (pipeline/oenace).
    const derivedFor: string[] = [];
    const derived: Array<DerivedRow & { fnr: string }> = [];
    for (const item of items) {
      const { extract } = item;
      const crawledAt = item.crawledAt ?? new Date();
      const next = trackedSnapshot(extract);
      const before = existing.get(extract.fnr);
      const previous = before?.extract ?? null;
      const fields = changedFields(previous, next);
      const listedLately = listed.has(extract.fnr);
      if (before && fields.length === 0) {
        unchanged.push({ fnr: extract.fnr, register_checksum: extract.checksum, last_crawled_at: crawledAt });
        results.push({ fnr: extract.fnr, action: 'unchanged', changedFields: [], changeIds: [], listedLately });
        continue;
      }
      companyRows.push({
        fnr: extract.fnr,
        fnr_check_letter_ok: extract.fnrCheckLetterValid,
        name: extract.name ?? extract.fnr,
        legal_form_code: extract.legalForm?.code ?? null,
        legal_form_text: extract.legalForm?.text ?? null,
        court_code: extract.court?.code ?? null,
        status: extract.status,
        euid: extract.euid,
        kur: extract.kur,
        seat: extract.seat,
        municipality_code: extract.municipalityCode,
        municipality_text: extract.municipality,
        capital_amount: extract.capital?.amount ?? null,
        capital_currency: extract.capital?.currency ?? null,
        business_purpose: extract.businessPurpose,
        register_checksum: extract.checksum,
        extract_queried_at: extract.queriedAt,
        extract: next,
        updated_at: crawledAt,
        last_crawled_at: crawledAt,
      });
      if (before) replaced.push(extract.fnr);
      gatherChildren(extract, children);
      const state = derivation.get(extract.fnr)!;
      const oenaces = derivedRows(oenaceClassifier(), extract.businessPurpose, state);
      if (!sameRows(state.stored, oenaces)) {
        derivedFor.push(extract.fnr);
        derived.push(...oenaces.map((r) => ({ ...r, fnr: extract.fnr })));
        fields.push('oenaces');
      }
      const action: ChangeAction = !before
        ? 'created'
        : extract.status === 'deleted' && before.status !== 'deleted'
          ? 'deleted'
          : 'updated';
      changedAt.push(results.length);
      changes.push({ type: 'business', fnr: extract.fnr, action, changedFields: fields, vnr: item.vnr ?? causingVnr(previous, next) });
      results.push({ fnr: extract.fnr, action, changedFields: fields, changeIds: [], listedLately });
    }

    // One round trip for the rest: the company rows, their children and the change rows are pipelined
    // (sent in this order, awaited together); any failure rolls the whole transaction back.
    const out: Pending[] = [];
    if (unchanged.length > 0) {
      out.push(tx`
        UPDATE company c SET last_crawled_at = r.last_crawled_at, register_checksum = r.register_checksum
          FROM jsonb_to_recordset(${rowsJson(unchanged)}::text::jsonb) AS r (fnr text, register_checksum text, last_crawled_at timestamptz)
         WHERE c.fnr = r.fnr`);
    }
    if (companyRows.length > 0) {
      out.push(tx`
        INSERT INTO company (fnr, fnr_check_letter_ok, name, legal_form_code, legal_form_text, court_code, status, euid, kur, seat,
                             municipality_code, municipality_text, capital_amount, capital_currency, business_purpose,
                             register_checksum, extract_queried_at, extract, updated_at, last_crawled_at)
        SELECT fnr, fnr_check_letter_ok, name, legal_form_code, legal_form_text, court_code, status, euid, kur, seat,
               municipality_code, municipality_text, capital_amount, capital_currency, business_purpose,
               register_checksum, extract_queried_at, extract, updated_at, last_crawled_at
          FROM jsonb_to_recordset(${rowsJson(companyRows)}::text::jsonb)
            AS r (fnr text, fnr_check_letter_ok boolean, name text, legal_form_code text, legal_form_text text, court_code text,
                  status text, euid text, kur text, seat text, municipality_code text, municipality_text text, capital_amount numeric,
                  capital_currency text, business_purpose text, register_checksum text, extract_queried_at timestamptz, extract jsonb,
                  updated_at timestamptz, last_crawled_at timestamptz)
        ON CONFLICT (fnr) DO UPDATE SET
          fnr_check_letter_ok = EXCLUDED.fnr_check_letter_ok, name = EXCLUDED.name, legal_form_code = EXCLUDED.legal_form_code,
          legal_form_text = EXCLUDED.legal_form_text, court_code = EXCLUDED.court_code, status = EXCLUDED.status,
          euid = EXCLUDED.euid, kur = EXCLUDED.kur, seat = EXCLUDED.seat, municipality_code = EXCLUDED.municipality_code,
          municipality_text = EXCLUDED.municipality_text, capital_amount = EXCLUDED.capital_amount,
          capital_currency = EXCLUDED.capital_currency, business_purpose = EXCLUDED.business_purpose,
          register_checksum = EXCLUDED.register_checksum, extract_queried_at = EXCLUDED.extract_queried_at,
          extract = EXCLUDED.extract, updated_at = EXCLUDED.updated_at, last_crawled_at = EXCLUDED.last_crawled_at`);
      writeChildren(tx, children, replaced, out);
      out.push(...writeDerivedRows(tx, derivedFor, derived));
    }
    // Promise.all sends the queued statements in order; recordChanges sends its INSERT after them.
    const written = Promise.all(out);
    const recorded = recordChanges(tx, changes);
    const [, changeIds] = await Promise.all([written, recorded]);
    // recordChanges returns the ids in insertion order: one change row per changed company.
    changedAt.forEach((at, i) => {
      results[at]!.changeIds = [changeIds[i]!];
    });
    return results;
  });
}

/**
 * Stores extracts of several companies: in one transaction when that succeeds, else each in its own,
 * so one failing extract fails alone. Returns a result or the Error per item, in order. Items of the
 * same company are stored one after the other.
 */
export async function storeCompanyExtracts(sql: Sql, items: CompanyStoreItem[]): Promise<Array<CompanyStoreResult | Error>> {
  const seen = new Set<string>();
  if (items.some((i) => seen.size === seen.add(i.extract.fnr).size)) {
    const results: Array<CompanyStoreResult | Error> = [];
    for (const item of items) results.push(...(await storeCompanyExtracts(sql, [item])));
    return results;
  }
  try {
    return await storeBatch(sql, items);
  } catch (err) {
    if (items.length === 1) return [err instanceof Error ? err : new Error(String(err))];
  }
  const results: Array<CompanyStoreResult | Error> = [];
  for (const item of items) {
    try {
      results.push(...(await storeBatch(sql, [item])));
    } catch (err) {
      results.push(err instanceof Error ? err : new Error(String(err)));
    }
  }
  return results;
}

/**
 * Stores a company extract with its change row in one transaction. `vnr` names the register entry
 * that triggered the crawl (from the change feed), when known.
 */
export async function storeCompanyExtract(
  sql: Sql,
  extract: CompanyExtract,
  options: { crawledAt?: Date; vnr?: string | null } = {},
): Promise<StoreResult> {
  const [result] = await storeBatch(sql, [{ extract, crawledAt: options.crawledAt, vnr: options.vnr }]);
  const { listedLately: _, ...stored } = result!;
  return stored;
}
