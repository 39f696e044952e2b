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

async function writeParties(tx: TransactionSql, fnr: string, parties: Party[]): Promise<void> {
  for (const party of parties) {
    if (party.kind === 'person') {
      const nameNorm = [party.firstName, party.lastName].filter(Boolean).join(' ').toLowerCase();
      await tx`
        INSERT INTO person (person_id, first_name, last_name, title_before, title_after, birth_date, name_norm)
        VALUES (${party.personId}, ${party.firstName}, ${party.lastName}, ${party.titles.before}, ${party.titles.after},
                ${party.birthDate}, ${nameNorm})
        ON CONFLICT (person_id) DO UPDATE SET
          first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, title_before = EXCLUDED.title_before,
          title_after = EXCLUDED.title_after, name_norm = EXCLUDED.name_norm, updated_at = now()
        WHERE (person.first_name, person.last_name, person.title_before, person.title_after)
              IS DISTINCT FROM (EXCLUDED.first_name, EXCLUDED.last_name, EXCLUDED.title_before, EXCLUDED.title_after)`;
      await tx`INSERT INTO company_party (fnr, pnr, kind, person_id) VALUES (${fnr}, ${party.pnr}, 'person', ${party.personId})`;
    } else if (party.kind === 'company') {
      await tx`
        INSERT INTO company_party (fnr, pnr, kind, related_fnr, address)
        VALUES (${fnr}, ${party.pnr}, 'company', ${party.relatedFnr}, ${party.address ? tx.json(party.address as never) : null})`;
    } else {
      const id = organisationId(party.name, party.foreignRegistration?.registerNumber ?? null);
      await tx`
        INSERT INTO organisation (organisation_id, name, foreign_register, foreign_number, country)
        VALUES (${id}, ${party.name}, ${party.foreignRegistration?.court ?? null}, ${party.foreignRegistration?.registerNumber ?? null},
                ${party.address?.country ?? null})
        ON CONFLICT (organisation_id) DO NOTHING`;
      await tx`
        INSERT INTO company_party (fnr, pnr, kind, organisation_id, address)
        VALUES (${fnr}, ${party.pnr}, 'organisation', ${id}, ${party.address ? tx.json(party.address as never) : null})`;
    }
  }
}

/** Replaces the company's child rows with the extract's (the extract is the register's full picture). */
async function writeChildren(tx: TransactionSql, extract: CompanyExtract): Promise<void> {
  const { fnr } = extract;
  await tx`DELETE FROM company_name WHERE fnr = ${fnr}`;
  await tx`DELETE FROM company_address WHERE fnr = ${fnr}`;
  await tx`DELETE FROM register_entry WHERE fnr = ${fnr}`;
  await tx`DELETE FROM company_party WHERE fnr = ${fnr}`; // cascades to functions and holdings

  const names = [
    ...(extract.name ? [{ fnr, vnr: currentNameVnr(extract), name: extract.name, is_current: true }] : []),
    ...extract.formerNames.map((n) => ({ fnr, vnr: n.vnr ?? '', name: n.name, is_current: false })),
  ];
  const uniqueNames = [...new Map(names.map((n) => [`${n.vnr}|${n.name}`, n])).values()];
  if (uniqueNames.length > 0) await tx`INSERT INTO company_name ${tx(uniqueNames)}`;

  const addresses = extract.addresses.map((a, i) => ({
    fnr, vnr: a.vnr ?? '', position: i, is_current: a.isCurrent, line: a.form === 'line' ? a.streetLine : null,
    street: a.street, house_number: a.houseNumber, staircase: a.staircase, door: a.door, delivery_note: a.deliveryNote,
    zip_code: a.zipCode, city: a.city, country: a.country, deliverable: a.deliverable,
  }));
  if (addresses.length > 0) await tx`INSERT INTO company_address ${tx(addresses)}`;

  const entries = [...new Map(extract.registerEntries.map((e) => [e.vnr, e])).values()].map((e) => ({
    fnr, vnr: e.vnr, executed_on: e.executedOn, court_code: e.court?.code ?? null, court_text: e.court?.text ?? null,
    az: e.az, application_texts: e.applicationTexts, received_on: e.receivedOn,
  }));
  if (entries.length > 0) await tx`INSERT INTO register_entry ${tx(entries)}`;

  await writeParties(tx, fnr, extract.parties);
  const partyPnrs = new Set(extract.parties.map((p) => p.pnr));

  for (const f of extract.functions) {
    // A function whose PER block is missing still belongs to the company: record an organisation
    // placeholder would invent data, so such functions are skipped and reported by the parser's warnings.
    if (!partyPnrs.has(f.pnr)) continue;
    await tx`
      INSERT INTO company_function (fnr, pnr, function_code, vnr, function_text, representation_code, representation_text,
                                    since, until, is_current, texts)
      VALUES (${fnr}, ${f.pnr}, ${f.functionCode}, ${f.vnr ?? ''}, ${f.functionText}, ${f.representation?.code ?? null},
              ${f.representation?.text ?? null}, ${f.since}, ${f.until}, ${f.isCurrent}, ${f.texts})
      ON CONFLICT (fnr, pnr, function_code, vnr) DO NOTHING`;
    if (f.functionText) {
      // Function codes first seen in an extract join the catalogue (source 'register').
      await tx`
        INSERT INTO function_code (code, text, source) VALUES (${f.functionCode}, ${f.functionText}, 'register')
        ON CONFLICT (code) DO NOTHING`;
    }
    if (f.representation?.text) {
      await tx`
        INSERT INTO representation_kind (code, text, source) VALUES (${f.representation.code}, ${f.representation.text}, 'register')
        ON CONFLICT (code) DO NOTHING`;
    }
  }
  for (const h of extract.holdings) {
    if (!partyPnrs.has(h.holderPnr)) continue;
    await tx`
      INSERT INTO holding (fnr, pnr, vnr, capital, paid_in, currency, since, until, is_current)
      VALUES (${fnr}, ${h.holderPnr}, ${h.vnr ?? ''}, ${h.capital}, ${h.paidIn}, ${h.currency}, ${h.since}, ${h.until}, ${h.isCurrent})
      ON CONFLICT (fnr, pnr, vnr) DO NOTHING`;
  }
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
    await tx`
      INSERT INTO company ${tx(row)}
      ON CONFLICT (fnr) DO UPDATE SET
        fnr_check_letter_ok = EXCLUDED.fnr_check_letter_ok, name = EXCLUDED.name, legal_form_code = EXCLUDED.legal_form_code,
        legal_form_text = EXCLUDED.legal_form_text, court_code = EXCLUDED.court_code, status = EXCLUDED.status,
        euid = EXCLUDED.euid, kur = EXCLUDED.kur, seat = EXCLUDED.seat, municipality_code = EXCLUDED.municipality_code,
        municipality_text = EXCLUDED.municipality_text, capital_amount = EXCLUDED.capital_amount,
        capital_currency = EXCLUDED.capital_currency, business_purpose = EXCLUDED.business_purpose,
        register_checksum = EXCLUDED.register_checksum, extract_queried_at = EXCLUDED.extract_queried_at,
        extract = EXCLUDED.extract, updated_at = EXCLUDED.updated_at, last_crawled_at = EXCLUDED.last_crawled_at`;
    await writeChildren(tx, extract);
    const action: ChangeAction = !existing
      ? 'created'
      : extract.status === 'deleted' && existing.status !== 'deleted'
        ? 'deleted'
        : 'updated';
    const changeIds = await recordChanges(tx, [
      { type: 'business', fnr: extract.fnr, action, changedFields: fields, vnr: options.vnr ?? causingVnr(previous, next) },
    ]);
    return { fnr: extract.fnr, action, changedFields: fields, changeIds };
  });
}
