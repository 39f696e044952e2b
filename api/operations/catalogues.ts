// Catalogue operations: codes the other endpoints use, resolved to names. All searchable and paged.
// The key figures' catalogue is served from memory (keyFigures.ts).
import { z } from 'zod';
import { countedPage, type CountedRow } from '../../runtime/countedPage.js';
import type { Sql } from '../../runtime/db.js';
import { presentPage } from '../presenters/envelope.js';
import { pagingShape } from '../validation.js';

const search = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional()
  .meta({ description: 'Case-insensitive text contained in the code or the name (see each catalogue for what it searches).' });
export const catalogueQuery = z.object({ search, ...pagingShape() });
export const oenaceQuery = z.object({
  search,
  level: z.coerce.number({ error: 'must be an integer from 1 to 5' }).int('must be an integer from 1 to 5').min(1, 'must be an integer from 1 to 5').max(5, 'must be an integer from 1 to 5').optional()
    .meta({ description: '1 section (`F`), 2 division, 3 group, 4 class, 5 subclass (`F 41.20-1`). Without it: every level.' }),
  version: z.enum(['2008', '2025'], { error: 'must be 2008 or 2025' }).default('2008').meta({ description: 'ÖNACE 2008 (default; the codes companies carry) or ÖNACE 2025.' }),
  ...pagingShape(),
});

/** `%term%` for ILIKE, with the pattern characters of the term escaped. */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Ordering prefix that puts an exact code match ahead of name matches. */
function exactCodeFirst(sql: Sql, term: string | undefined) {
  return term ? sql`(lower(code) = lower(${term})) DESC,` : sql``;
}

type Counted<T> = T & CountedRow;

export type CatalogueInput = z.infer<typeof catalogueQuery>;
export type OenaceInput = z.infer<typeof oenaceQuery>;

/** GET /oenace. */
export async function listOenaceClasses(sql: Sql, q: OenaceInput) {
  const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ code: string; level: number; numericCode: string; title: string; kurztitel: string | null; titleEn: string | null; parentCode: string | null; section: string }>[]>`
    SELECT code, level, regexp_replace(edv_code, '^[A-Z]', '') AS numeric_code, title_de AS title,
           short_title_de AS kurztitel, title_en, parent_code, section, count(*) OVER () AS total_records
      FROM oenace_class
     WHERE version = ${q.version}
       ${q.level ? sql`AND level = ${q.level}` : sql``}
       ${q.search ? sql`AND (code ILIKE ${containsPattern(q.search)} OR edv_code ILIKE ${containsPattern(q.search)} OR title_de ILIKE ${containsPattern(q.search)} OR title_en ILIKE ${containsPattern(q.search)})` : sql``}
     ORDER BY edv_code
     LIMIT ${limit} OFFSET ${offset}`, q);
  return presentPage(rows, q.page, q.pageSize, total);
}

/** GET /legalforms. */
export async function listLegalForms(sql: Sql, q: CatalogueInput) {
  const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ code: string; text: string; abbreviation: string | null; elfCode: string | null }>[]>`
    SELECT code, name AS text, abbreviation, elf_code, count(*) OVER () AS total_records
      FROM legal_form
     ${q.search ? sql`WHERE code ILIKE ${containsPattern(q.search)} OR name ILIKE ${containsPattern(q.search)} OR abbreviation ILIKE ${containsPattern(q.search)}` : sql``}
     ORDER BY ${exactCodeFirst(sql, q.search)} code
     LIMIT ${limit} OFFSET ${offset}`, q);
  return presentPage(rows, q.page, q.pageSize, total);
}

/** GET /courts. */
export async function listCourts(sql: Sql, q: CatalogueInput) {
  const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ code: string; text: string; state: string }>[]>`
    SELECT code, name AS text, state, count(*) OVER () AS total_records
      FROM court
     ${q.search ? sql`WHERE code ILIKE ${containsPattern(q.search)} OR name ILIKE ${containsPattern(q.search)} OR state ILIKE ${containsPattern(q.search)}` : sql``}
     ORDER BY ${exactCodeFirst(sql, q.search)} code
     LIMIT ${limit} OFFSET ${offset}`, q);
  return presentPage(rows, q.page, q.pageSize, total);
}

/** GET /assignmentfunctions. */
export async function listAssignmentFunctions(sql: Sql, q: CatalogueInput) {
  const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ code: string; text: string; category: string }>[]>`
    SELECT code, text, category, count(*) OVER () AS total_records
      FROM function_code
     ${q.search ? sql`WHERE code ILIKE ${containsPattern(q.search)} OR text ILIKE ${containsPattern(q.search)}` : sql``}
     ORDER BY ${exactCodeFirst(sql, q.search)} code
     LIMIT ${limit} OFFSET ${offset}`, q);
  return presentPage(rows, q.page, q.pageSize, total);
}

/** GET /addresses/cities. */
export async function listCities(sql: Sql, q: CatalogueInput) {
  const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ name: string; municipalityCode: string; district: string | null; state: string; zipCodes: string[] }>[]>`
    SELECT municipality AS name, municipality_code, min(district) AS district, min(state) AS state,
           array_agg(DISTINCT zip_code ORDER BY zip_code) AS zip_codes, count(*) OVER () AS total_records
      FROM postal_locality
     WHERE municipality_code IS NOT NULL
       ${q.search ? sql`AND (municipality ILIKE ${containsPattern(q.search)} OR place ILIKE ${containsPattern(q.search)} OR municipality_code = ${q.search})` : sql``}
     GROUP BY municipality, municipality_code
     ORDER BY municipality, municipality_code
     LIMIT ${limit} OFFSET ${offset}`, q);
  return presentPage(rows, q.page, q.pageSize, total);
}

/** GET /addresses/zipcodes. */
export async function listZipCodes(sql: Sql, q: CatalogueInput) {
  const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ zipCode: string; cities: string[]; state: string }>[]>`
    SELECT zip_code, array_agg(DISTINCT municipality ORDER BY municipality) AS cities, min(state) AS state,
           count(*) OVER () AS total_records
      FROM postal_locality
     ${q.search ? sql`WHERE zip_code LIKE ${q.search.replace(/[\\%_]/g, '') + '%'} OR municipality ILIKE ${containsPattern(q.search)} OR place ILIKE ${containsPattern(q.search)}` : sql``}
     GROUP BY zip_code
     ORDER BY zip_code
     LIMIT ${limit} OFFSET ${offset}`, q);
  return presentPage(rows, q.page, q.pageSize, total);
}

/** GET /addresses/locations. */
export async function listLocations(sql: Sql, q: CatalogueInput) {
  const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ zipCode: string; place: string; municipality: string | null; municipalityCode: string | null; district: string | null; state: string; latitude: string | null; longitude: string | null }>[]>`
    SELECT zip_code, place, municipality, municipality_code, district, state, latitude, longitude,
           count(*) OVER () AS total_records
      FROM postal_locality
     ${q.search ? sql`WHERE zip_code LIKE ${q.search.replace(/[\\%_]/g, '') + '%'} OR place ILIKE ${containsPattern(q.search)} OR municipality ILIKE ${containsPattern(q.search)}` : sql``}
     ORDER BY zip_code, place, id
     LIMIT ${limit} OFFSET ${offset}`, q);
  return presentPage(
    rows.map((r) => ({ ...r, latitude: r.latitude == null ? null : Number(r.latitude), longitude: r.longitude == null ? null : Number(r.longitude) })),
    q.page,
    q.pageSize,
    total,
  );
}
