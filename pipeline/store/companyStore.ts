// Stores one company extract: the company row, its names, addresses, register entries, parties,
// functions and holdings, and the business change row, all in one transaction. The last stored
// extract is compared field by field with the new one: an unchanged extract writes no data and no
// change row, only lastCrawledAt.
import { createHash } from 'node:crypto';
import type { CompanyExtract, Party } from '../firmenbuch/extractParser.js';
import type { Sql, TransactionSql } from '../../runtime/db.js';
import { recordChanges, type ChangeAction } from './changeLog.js';

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

/**
 * Persons, organisations and the company's parties: one multi-row statement per table. Equivalent to
 * the per-party upserts: a person named twice ends with the first insert's birth date and the last
 * occurrence's names (the upsert does not touch birth_date), an organisation keeps its first row.
 */
function writeParties(tx: TransactionSql, fnr: string, parties: Party[], out: Pending[]): void {
  const persons = new Map<string, { person_id: string; first_name: string | null; last_name: string | null; title_before: string | null; title_after: string | null; birth_date: string | null; name_norm: string }>();
  const organisations: Array<{ organisation_id: string; name: string; foreign_register: string | null; foreign_number: string | null; country: string | null }> = [];
  const rows: Array<{ fnr: string; pnr: string; kind: Party['kind']; person_id: string | null; related_fnr: string | null; organisation_id: string | null; address: unknown }> = [];
  for (const party of parties) {
    if (party.kind === 'person') {
      const nameNorm = [party.firstName, party.lastName].filter(Boolean).join(' ').toLowerCase();
      const first = persons.get(party.personId);
      persons.set(party.personId, {
        person_id: party.personId, first_name: party.firstName, last_name: party.lastName, title_before: party.titles.before,
        title_after: party.titles.after, birth_date: first ? first.birth_date : party.birthDate, name_norm: nameNorm,
      });
      rows.push({ fnr, pnr: party.pnr, kind: 'person', person_id: party.personId, related_fnr: null, organisation_id: null, address: null });
    } else if (party.kind === 'company') {
      rows.push({
        fnr, pnr: party.pnr, kind: 'company', person_id: null, related_fnr: party.relatedFnr, organisation_id: null,
        address: party.address ? tx.json(party.address as never) : null,
      });
    } else {
      const id = organisationId(party.name, party.foreignRegistration?.registerNumber ?? null);
      organisations.push({
        organisation_id: id, name: party.name, foreign_register: party.foreignRegistration?.court ?? null,
        foreign_number: party.foreignRegistration?.registerNumber ?? null, country: party.address?.country ?? null,
      });
      rows.push({
        fnr, pnr: party.pnr, kind: 'organisation', person_id: null, related_fnr: null, organisation_id: id,
        address: party.address ? tx.json(party.address as never) : null,
      });
    }
  }
  if (persons.size > 0) {
    out.push(tx`
      INSERT INTO person ${tx(sortedBy([...persons.values()], (p) => p.person_id))}
      ON CONFLICT (person_id) DO UPDATE SET
        first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, title_before = EXCLUDED.title_before,
        title_after = EXCLUDED.title_after, name_norm = EXCLUDED.name_norm, updated_at = now()
      WHERE (person.first_name, person.last_name, person.title_before, person.title_after)
            IS DISTINCT FROM (EXCLUDED.first_name, EXCLUDED.last_name, EXCLUDED.title_before, EXCLUDED.title_after)`);
  }
  if (organisations.length > 0) {
    const unique = sortedBy(firstByKey(organisations, (o) => o.organisation_id), (o) => o.organisation_id);
    out.push(tx`INSERT INTO organisation ${tx(unique)} ON CONFLICT (organisation_id) DO NOTHING`);
  }
  if (rows.length > 0) out.push(tx`INSERT INTO company_party ${tx(rows as never)}`);
}

/**
 * Replaces the company's child rows with the extract's (the extract is the register's full picture).
 * The statements are queued on `out` in dependency order and sent as one pipeline.
 */
function writeChildren(tx: TransactionSql, extract: CompanyExtract, out: Pending[]): void {
  const { fnr } = extract;
  out.push(tx`DELETE FROM company_name WHERE fnr = ${fnr}`);
  out.push(tx`DELETE FROM company_address WHERE fnr = ${fnr}`);
  out.push(tx`DELETE FROM register_entry WHERE fnr = ${fnr}`);
  out.push(tx`DELETE FROM company_party WHERE fnr = ${fnr}`); // cascades to functions and holdings

  const names = [
    ...(extract.name ? [{ fnr, vnr: currentNameVnr(extract), name: extract.name, is_current: true }] : []),
    ...extract.formerNames.map((n) => ({ fnr, vnr: n.vnr ?? '', name: n.name, is_current: false })),
  ];
  const uniqueNames = [...new Map(names.map((n) => [`${n.vnr}|${n.name}`, n])).values()];
  if (uniqueNames.length > 0) out.push(tx`INSERT INTO company_name ${tx(uniqueNames)}`);

  const addresses = extract.addresses.map((a, i) => ({
    fnr, vnr: a.vnr ?? '', position: i, is_current: a.isCurrent, line: a.form === 'line' ? a.streetLine : null,
    street: a.street, house_number: a.houseNumber, staircase: a.staircase, door: a.door, delivery_note: a.deliveryNote,
    zip_code: a.zipCode, city: a.city, country: a.country, deliverable: a.deliverable,
  }));
  if (addresses.length > 0) out.push(tx`INSERT INTO company_address ${tx(addresses)}`);

  const entries = [...new Map(extract.registerEntries.map((e) => [e.vnr, e])).values()].map((e) => ({
    fnr, vnr: e.vnr, executed_on: e.executedOn, court_code: e.court?.code ?? null, court_text: e.court?.text ?? null,
    az: e.az, application_texts: e.applicationTexts, received_on: e.receivedOn,
  }));
  if (entries.length > 0) out.push(tx`INSERT INTO register_entry ${tx(entries)}`);

  writeParties(tx, fnr, extract.parties, out);
  const partyPnrs = new Set(extract.parties.map((p) => p.pnr));

  // A function whose PER block is missing still belongs to the company: record an organisation
  // placeholder would invent data, so such functions are skipped and reported by the parser's warnings.
  const functions = extract.functions.filter((f) => partyPnrs.has(f.pnr));
  const functionRows = firstByKey(functions, (f) => JSON.stringify([f.pnr, f.functionCode, f.vnr ?? ''])).map((f) => ({
    fnr, pnr: f.pnr, function_code: f.functionCode, vnr: f.vnr ?? '', function_text: f.functionText,
    representation_code: f.representation?.code ?? null, representation_text: f.representation?.text ?? null,
    since: f.since, until: f.until, is_current: f.isCurrent, texts: f.texts,
  }));
  if (functionRows.length > 0) {
    out.push(tx`INSERT INTO company_function ${tx(functionRows)} ON CONFLICT (fnr, pnr, function_code, vnr) DO NOTHING`);
  }
  // Function codes and representation kinds first seen in an extract join the catalogues (source 'register').
  const codes = sortedBy(
    firstByKey(functions.filter((f) => f.functionText), (f) => f.functionCode).map((f) => ({ code: f.functionCode, text: f.functionText!, source: 'register' })),
    (c) => c.code,
  );
  if (codes.length > 0) out.push(tx`INSERT INTO function_code ${tx(codes)} ON CONFLICT (code) DO NOTHING`);
  const kinds = sortedBy(
    firstByKey(functions.filter((f) => f.representation?.text), (f) => String(f.representation!.code)).map((f) => ({
      code: f.representation!.code, text: f.representation!.text!, source: 'register',
    })),
    (k) => String(k.code),
  );
  if (kinds.length > 0) out.push(tx`INSERT INTO representation_kind ${tx(kinds as never)} ON CONFLICT (code) DO NOTHING`);

  const holdings = firstByKey(
    extract.holdings.filter((h) => partyPnrs.has(h.holderPnr)),
    (h) => JSON.stringify([h.holderPnr, h.vnr ?? '']),
  ).map((h) => ({
    fnr, pnr: h.holderPnr, vnr: h.vnr ?? '', capital: h.capital, paid_in: h.paidIn, currency: h.currency,
    since: h.since, until: h.until, is_current: h.isCurrent,
  }));
  if (holdings.length > 0) out.push(tx`INSERT INTO holding ${tx(holdings)} ON CONFLICT (fnr, pnr, vnr) DO NOTHING`);
}

function currentNameVnr(extract: CompanyExtract): string {
  // The current name's data group vnr is not carried separately; the latest register entry stands in.
  return extract.registerEntries.map((e) => e.vnr).sort().at(-1) ?? '';
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
  const crawledAt = options.crawledAt ?? new Date();
  const next = trackedSnapshot(extract);
  return sql.begin(async (tx) => {
    const [existing] = await tx<{ extract: Partial<TrackedSnapshot> | null; status: string }[]>`
      SELECT extract, status FROM company WHERE fnr = ${extract.fnr} FOR UPDATE`;
    const previous = existing?.extract ?? null;
    const fields = changedFields(previous, next);
    if (existing && fields.length === 0) {
      await tx`UPDATE company SET last_crawled_at = ${crawledAt}, register_checksum = ${extract.checksum} WHERE fnr = ${extract.fnr}`;
      return { fnr: extract.fnr, action: 'unchanged', changedFields: [], changeIds: [] };
    }
    const row = {
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
      extract: tx.json(next as never),
      updated_at: crawledAt,
      last_crawled_at: crawledAt,
    };
    // One round trip for the rest: the company row, its children and the change row are pipelined
    // (sent in this order, awaited together); any failure rolls the whole transaction back.
    const out: Pending[] = [];
    out.push(tx`
      INSERT INTO company ${tx(row)}
      ON CONFLICT (fnr) DO UPDATE SET
        fnr_check_letter_ok = EXCLUDED.fnr_check_letter_ok, name = EXCLUDED.name, legal_form_code = EXCLUDED.legal_form_code,
        legal_form_text = EXCLUDED.legal_form_text, court_code = EXCLUDED.court_code, status = EXCLUDED.status,
        euid = EXCLUDED.euid, kur = EXCLUDED.kur, seat = EXCLUDED.seat, municipality_code = EXCLUDED.municipality_code,
        municipality_text = EXCLUDED.municipality_text, capital_amount = EXCLUDED.capital_amount,
        capital_currency = EXCLUDED.capital_currency, business_purpose = EXCLUDED.business_purpose,
        register_checksum = EXCLUDED.register_checksum, extract_queried_at = EXCLUDED.extract_queried_at,
        extract = EXCLUDED.extract, updated_at = EXCLUDED.updated_at, last_crawled_at = EXCLUDED.last_crawled_at`);
    writeChildren(tx, extract, out);
    const action: ChangeAction = !existing
      ? 'created'
      : extract.status === 'deleted' && existing.status !== 'deleted'
        ? 'deleted'
        : 'updated';
    // Promise.all sends the queued statements in order; recordChanges sends its INSERT after them.
    const written = Promise.all(out);
    const recorded = recordChanges(tx, [
      { type: 'business', fnr: extract.fnr, action, changedFields: fields, vnr: options.vnr ?? causingVnr(previous, next) },
    ]);
    const [, changeIds] = await Promise.all([written, recorded]);
    return { fnr: extract.fnr, action, changedFields: fields, changeIds };
  });
}
