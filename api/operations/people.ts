// People operations: search (GET /people), the name index (GET /people/names) and the person profile
// with every registered function, open court notices and own trade licences (GET /people/{personId}).
import { z } from 'zod';
import { startsWith } from '../../indexer/search/nameSearch.js';
import { countedPage } from '../../runtime/countedPage.js';
import type { Sql } from '../../runtime/db.js';
import { fnrFilterValue, personIdSpellings } from '../../schemas/identifiers.js';
import { codeAndText } from '../../schemas/screenerRecords.js';
import { notFound } from '../errors.js';
import { presentPage } from '../presenters/envelope.js';
import { LICENCE_CATALOGUE_JOIN, licenceJson, LICENCE_ORDER, presentLicence, type LicenceRow } from '../presenters/licences.js';
import { pagingShape } from '../validation.js';

const name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
export const peopleQuery = z.object({
  firstName: name.optional().meta({ description: 'First name starts with this (case-insensitive).', example: 'Andrea' }),
  lastName: name.optional().meta({ description: 'Last name starts with this (case-insensitive).', example: 'Müller' }),
  functionCode: z.string().trim().regex(/^[A-Z]{1,4}$/, 'must be a function code such as GF').optional()
    .meta({ description: 'People holding a function of this code (GET /assignmentfunctions): `GF` managing director, `PR` procurator, ...', example: 'GF' }),
  companyName: name.optional().meta({ description: 'People with a function in a company whose name contains this (umlaut spelling ignored).' }),
  fnr: z.string().trim().min(1).max(20).transform(fnrFilterValue).optional()
    .meta({ description: 'People with a function in this company (company number).', example: '30435h' }),
  ...pagingShape(),
});
export const peopleNamesQuery = z.object({
  search: name.meta({ description: 'Start of the full name (`andrea mü`) or of the last name (case-insensitive).', example: 'müller' }),
  ...pagingShape(),
});

const isoDate = (v: Date | string | null) => (v instanceof Date ? v.toISOString().slice(0, 10) : v);

interface FunctionRow {
  personId: string;
  fnr: string;
  companyName: string;
  companyIsActive: boolean;
  functionCode: string;
  functionText: string | null;
  representationCode: string | null;
  representationText: string | null;
  since: Date | null;
  until: Date | null;
  isCurrent: boolean;
}

async function functionsOf(sql: Sql, personIds: string[]): Promise<Map<string, FunctionRow[]>> {
  const rows = await sql<FunctionRow[]>`
    SELECT p.person_id, f.fnr, c.name AS company_name, c.status = 'active' AS company_is_active, f.function_code,
           coalesce(f.function_text, fc.text) AS function_text, f.representation_code, f.representation_text, f.since, f.until, f.is_current
      FROM company_party p
      JOIN company_function f USING (fnr, pnr)
      JOIN company c ON c.fnr = f.fnr
      LEFT JOIN function_code fc ON fc.code = f.function_code
     WHERE p.person_id = ANY(${personIds})
     ORDER BY f.is_current DESC, c.name, f.function_code, f.vnr`;
  const byPerson = new Map<string, FunctionRow[]>();
  for (const r of rows) byPerson.set(r.personId, [...(byPerson.get(r.personId) ?? []), r]);
  return byPerson;
}

const presentFunction = (f: FunctionRow) => ({
  fnr: f.fnr, companyName: f.companyName, companyIsActive: f.companyIsActive, functionCode: f.functionCode, functionText: f.functionText,
  representation: codeAndText(f.representationCode, f.representationText),
  since: isoDate(f.since), until: isoDate(f.until), isCurrent: f.isCurrent,
});

type PersonRow = { personId: string; firstName: string | null; lastName: string | null; titleBefore: string | null; titleAfter: string | null; birthDate: Date | null };

/**
 * The person with this id; else the one whose id it is in ASCII (`zoe-fuerst-...` or `zoe-furst-...`
 * for `zoë-fürst-...`: person_id_fold(), migration 0026); else the ids that spelling could mean
 * (none, or several that fold alike).
 */
async function personByIdOrSpelling(sql: Sql, id: string): Promise<PersonRow | string[]> {
  const [exact] = await sql<PersonRow[]>`
    SELECT person_id, first_name, last_name, title_before, title_after, birth_date FROM person WHERE person_id = ${id}`;
  if (exact) return exact;
  const folded = await sql<PersonRow[]>`
    SELECT person_id, first_name, last_name, title_before, title_after, birth_date FROM person
     WHERE person_id_fold(person_id) = person_id_fold(${id.normalize('NFC')}) ORDER BY person_id LIMIT 5`;
  return folded.length === 1 ? folded[0]! : folded.map((p) => p.personId);
}

interface OpenNoticeRow {
  ediktId: string;
  aktenzeichen: string | null;
  proceedingCode: string | null;
  proceedingText: string | null;
  firstPublishedOn: string | null;
  relation: 'debtor' | 'company';
  fnr: string | null;
}

/**
 * Open court notices of a person: their own proceedings (a natural-person debtor is the person whose
 * personId the register's rule gives for their name and birth date, both ids folded alike by
 * person_id_fold(), so `MUELLER` in a notice is the register's `Müller`), and the asserted notices of
 * the companies they hold a current function in. Ended functions do not count. The notice's id is
 * looked up by the spellings that fold alike (court_notice_person index), then the fold is compared.
 */
async function openNoticesOf(sql: Sql, personId: string, functions: FunctionRow[]) {
  const fnrs = [...new Set(functions.filter((f) => f.isCurrent).map((f) => f.fnr))];
  const rows = await sql<OpenNoticeRow[]>`
    SELECT edikt_id, aktenzeichen, proceeding_code, proceeding_text, to_char(first_published_on, 'YYYY-MM-DD') AS first_published_on, relation, fnr
      FROM (SELECT n.*, 'debtor' AS relation FROM court_notice n
             WHERE n.debtor_person_id = ANY(${personIdSpellings(personId)}::text[]) AND person_id_fold(n.debtor_person_id) = person_id_fold(${personId})
               AND n.is_open AND n.deleted_at IS NULL
            UNION ALL
            SELECT n.*, 'company' AS relation FROM court_notice n WHERE n.fnr = ANY(${fnrs}::text[]) AND n.is_open) n
     ORDER BY first_published_on DESC NULLS LAST, edikt_id`;
  return rows.map((r) => ({
    ediktId: r.ediktId, aktenzeichen: r.aktenzeichen, proceeding: codeAndText(r.proceedingCode, r.proceedingText),
    firstPublishedOn: r.firstPublishedOn, relation: r.relation, ...(r.relation === 'company' ? { fnr: r.fnr } : {}),
  }));
}

export type PeopleInput = z.infer<typeof peopleQuery>;
export type PeopleNamesInput = z.infer<typeof peopleNamesQuery>;

/** GET /people. */
export async function searchPeople(sql: Sql, q: PeopleInput) {
  const { rows, total } = await countedPage((limit, offset) => sql<{ personId: string; firstName: string | null; lastName: string | null; birthDate: Date | null; totalRecords: number }[]>`
    SELECT p.person_id, p.first_name, p.last_name, p.birth_date, count(*) OVER () AS total_records
      FROM person p
     WHERE true
       ${q.firstName ? sql`AND ${startsWith(sql, sql`lower(p.first_name)`, q.firstName.toLowerCase())}` : sql``}
       ${q.lastName ? sql`AND ${startsWith(sql, sql`lower(p.last_name)`, q.lastName.toLowerCase())}` : sql``}
       ${q.functionCode || q.companyName || q.fnr ? sql`AND EXISTS (
            SELECT 1 FROM company_party cp JOIN company_function f USING (fnr, pnr) JOIN company c ON c.fnr = cp.fnr
             WHERE cp.person_id = p.person_id
               ${q.functionCode ? sql`AND f.function_code = ${q.functionCode}` : sql``}
               ${q.fnr ? sql`AND cp.fnr = ${q.fnr}` : sql``}
               ${q.companyName ? sql`AND search_norm(c.name) LIKE '%' || search_norm(${q.companyName}) || '%'` : sql``})` : sql``}
     ORDER BY p.last_name, p.first_name, p.person_id
     LIMIT ${limit} OFFSET ${offset}`, q);
  const functions = await functionsOf(sql, rows.map((r) => r.personId));
  return presentPage(
    rows.map((r) => ({
      personId: r.personId, firstName: r.firstName, lastName: r.lastName, birthDate: isoDate(r.birthDate),
      functions: (functions.get(r.personId) ?? []).map(presentFunction),
    })),
    q.page, q.pageSize, total,
  );
}

/** GET /people/names. */
export async function autocompletePersonNames(sql: Sql, q: PeopleNamesInput) {
  const term = q.search.toLowerCase();
  const { rows, total } = await countedPage((limit, offset) => sql<{ personId: string; name: string; birthDate: Date | null; totalRecords: number }[]>`
    SELECT person_id, concat_ws(' ', first_name, last_name) AS name, birth_date, count(*) OVER () AS total_records
      FROM person
     WHERE ${startsWith(sql, sql`name_norm`, term)} OR ${startsWith(sql, sql`lower(last_name)`, term)}
     ORDER BY name_norm, person_id
     LIMIT ${limit} OFFSET ${offset}`, q);
  return presentPage(rows.map((r) => ({ personId: r.personId, name: r.name, birthDate: isoDate(r.birthDate) })), q.page, q.pageSize, total);
}

/**
 * GET /people/{personId}: the profile of the person with this id or, spelled in ASCII, the one it
 * folds to (its `personId` says which; the route names it in Content-Location). 404 otherwise.
 */
export async function getPersonProfile(sql: Sql, personId: string) {
  const person = await personByIdOrSpelling(sql, personId);
  if (Array.isArray(person)) {
    throw notFound(person.length === 0
      ? `No person has the id ${personId}.`
      : `No person has the id ${personId}; spelled with their letters it could be ${person.join(' or ')}.`);
  }
  const functions = (await functionsOf(sql, [person.personId])).get(person.personId) ?? [];
  const openNotices = await openNoticesOf(sql, person.personId, functions);
  // Licences the person holds themselves (sole trader), found in GISA by their name and birth date.
  const licences = await sql<{ licence: LicenceRow }[]>`
    SELECT ${licenceJson(sql)} AS licence FROM trade_license t ${sql.unsafe(LICENCE_CATALOGUE_JOIN)}
     WHERE t.holder_person_id = ${person.personId} ORDER BY ${sql.unsafe(LICENCE_ORDER)}`;
  return {
    personId: person.personId, firstName: person.firstName, lastName: person.lastName,
    titles: { before: person.titleBefore, after: person.titleAfter }, birthDate: isoDate(person.birthDate),
    functions: functions.map(presentFunction),
    openNotices,
    hasOpenNotices: openNotices.length > 0,
    tradeLicenses: licences.map((l) => presentLicence(l.licence)),
  };
}
