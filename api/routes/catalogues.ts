// Catalogue endpoints: codes the other endpoints use, resolved to names. All searchable and paged.
// Route pipeline: validate -> query -> presenter.
import Router from '@koa/router';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { countedPage, type CountedRow } from '../../runtime/countedPage.js';
import type { Sql } from '../../runtime/db.js';
import { accessResponses, jsonContent, pageOf, problemResponses, registerExample } from '../openapi/common.js';
import { catalogueExamples } from '../openapi/readExamples.js';
import { presentPage } from '../presenters/envelope.js';
import { pagingShape, parseQuery } from '../validation.js';

const search = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional();
const catalogueQuery = z.object({ search, ...pagingShape() });
const oenaceQuery = z.object({
  search,
  level: z.coerce.number({ error: 'must be an integer from 1 to 5' }).int('must be an integer from 1 to 5').min(1, 'must be an integer from 1 to 5').max(5, 'must be an integer from 1 to 5').optional(),
  version: z.enum(['2008', '2025'], { error: 'must be 2008 or 2025' }).default('2008'),
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

export function catalogueRouter(sql: Sql): Router {
  const router = new Router();

  router.get('/oenace', async (ctx) => {
    const q = parseQuery(oenaceQuery, ctx.query);
    const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ code: string; level: number; numericCode: string; title: string; kurztitel: string | null; titleEn: string | null; parentCode: string | null; section: string }>[]>`
      SELECT code, level, regexp_replace(edv_code, '^[A-Z]', '') AS numeric_code, title_de AS title,
             short_title_de AS kurztitel, title_en, parent_code, section, count(*) OVER () AS total_records
        FROM oenace_class
       WHERE version = ${q.version}
         ${q.level ? sql`AND level = ${q.level}` : sql``}
         ${q.search ? sql`AND (code ILIKE ${containsPattern(q.search)} OR edv_code ILIKE ${containsPattern(q.search)} OR title_de ILIKE ${containsPattern(q.search)} OR title_en ILIKE ${containsPattern(q.search)})` : sql``}
       ORDER BY edv_code
       LIMIT ${limit} OFFSET ${offset}`, q);
    ctx.body = presentPage(rows, q.page, q.pageSize, total);
  });

  router.get('/legalforms', async (ctx) => {
    const q = parseQuery(catalogueQuery, ctx.query);
    const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ code: string; text: string; abbreviation: string | null; elfCode: string | null }>[]>`
      SELECT code, name AS text, abbreviation, elf_code, count(*) OVER () AS total_records
        FROM legal_form
       ${q.search ? sql`WHERE code ILIKE ${containsPattern(q.search)} OR name ILIKE ${containsPattern(q.search)} OR abbreviation ILIKE ${containsPattern(q.search)}` : sql``}
       ORDER BY ${exactCodeFirst(sql, q.search)} code
       LIMIT ${limit} OFFSET ${offset}`, q);
    ctx.body = presentPage(rows, q.page, q.pageSize, total);
  });

  router.get('/courts', async (ctx) => {
    const q = parseQuery(catalogueQuery, ctx.query);
    const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ code: string; text: string; state: string }>[]>`
      SELECT code, name AS text, state, count(*) OVER () AS total_records
        FROM court
       ${q.search ? sql`WHERE code ILIKE ${containsPattern(q.search)} OR name ILIKE ${containsPattern(q.search)} OR state ILIKE ${containsPattern(q.search)}` : sql``}
       ORDER BY ${exactCodeFirst(sql, q.search)} code
       LIMIT ${limit} OFFSET ${offset}`, q);
    ctx.body = presentPage(rows, q.page, q.pageSize, total);
  });

  router.get('/assignmentfunctions', async (ctx) => {
    const q = parseQuery(catalogueQuery, ctx.query);
    const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ code: string; text: string; category: string }>[]>`
      SELECT code, text, category, count(*) OVER () AS total_records
        FROM function_code
       ${q.search ? sql`WHERE code ILIKE ${containsPattern(q.search)} OR text ILIKE ${containsPattern(q.search)}` : sql``}
       ORDER BY ${exactCodeFirst(sql, q.search)} code
       LIMIT ${limit} OFFSET ${offset}`, q);
    ctx.body = presentPage(rows, q.page, q.pageSize, total);
  });

  // Cities are municipalities (Gemeinden) with the zip codes that serve them.
  router.get('/addresses/cities', async (ctx) => {
    const q = parseQuery(catalogueQuery, ctx.query);
    const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ name: string; municipalityCode: string; district: string | null; state: string; zipCodes: string[] }>[]>`
      SELECT municipality AS name, municipality_code, min(district) AS district, min(state) AS state,
             array_agg(DISTINCT zip_code ORDER BY zip_code) AS zip_codes, count(*) OVER () AS total_records
        FROM postal_locality
       WHERE municipality_code IS NOT NULL
         ${q.search ? sql`AND (municipality ILIKE ${containsPattern(q.search)} OR place ILIKE ${containsPattern(q.search)} OR municipality_code = ${q.search})` : sql``}
       GROUP BY municipality, municipality_code
       ORDER BY municipality, municipality_code
       LIMIT ${limit} OFFSET ${offset}`, q);
    ctx.body = presentPage(rows, q.page, q.pageSize, total);
  });

  router.get('/addresses/zipcodes', async (ctx) => {
    const q = parseQuery(catalogueQuery, ctx.query);
    const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ zipCode: string; cities: string[]; state: string }>[]>`
      SELECT zip_code, array_agg(DISTINCT municipality ORDER BY municipality) AS cities, min(state) AS state,
             count(*) OVER () AS total_records
        FROM postal_locality
       ${q.search ? sql`WHERE zip_code LIKE ${q.search.replace(/[\\%_]/g, '') + '%'} OR municipality ILIKE ${containsPattern(q.search)} OR place ILIKE ${containsPattern(q.search)}` : sql``}
       GROUP BY zip_code
       ORDER BY zip_code
       LIMIT ${limit} OFFSET ${offset}`, q);
    ctx.body = presentPage(rows, q.page, q.pageSize, total);
  });

  router.get('/addresses/locations', async (ctx) => {
    const q = parseQuery(catalogueQuery, ctx.query);
    const { rows, total } = await countedPage((limit, offset) => sql<Counted<{ zipCode: string; place: string; municipality: string | null; municipalityCode: string | null; district: string | null; state: string; latitude: string | null; longitude: string | null }>[]>`
      SELECT zip_code, place, municipality, municipality_code, district, state, latitude, longitude,
             count(*) OVER () AS total_records
        FROM postal_locality
       ${q.search ? sql`WHERE zip_code LIKE ${q.search.replace(/[\\%_]/g, '') + '%'} OR place ILIKE ${containsPattern(q.search)} OR municipality ILIKE ${containsPattern(q.search)}` : sql``}
       ORDER BY zip_code, place, id
       LIMIT ${limit} OFFSET ${offset}`, q);
    ctx.body = presentPage(
      rows.map((r) => ({ ...r, latitude: r.latitude == null ? null : Number(r.latitude), longitude: r.longitude == null ? null : Number(r.longitude) })),
      q.page,
      q.pageSize,
      total,
    );
  });

  return router;
}

// Response rows, for the OpenAPI document (the handlers' SQL produces exactly these fields).
const CatalogueEntry = (id: string, shape: z.ZodRawShape) => z.object(shape).meta({ id });
const nullableText = z.string().nullable();

const catalogueDocs = [
  {
    path: '/oenace', query: oenaceQuery, summary: 'Industry classes (ÖNACE), by level', description: 'Searchable by code, EDV code and German or English title; `level` 1 (section) to 5 (subclass); `version` 2008 (default) or 2025.',
    row: CatalogueEntry('OenaceClass', { code: z.string(), level: z.int(), numericCode: z.string(), title: z.string(), kurztitel: nullableText, titleEn: nullableText, parentCode: nullableText, section: z.string() }),
  },
  { path: '/legalforms', query: catalogueQuery, summary: 'Legal forms', row: CatalogueEntry('LegalForm', { code: z.string(), text: z.string(), abbreviation: nullableText, elfCode: nullableText }) },
  { path: '/courts', query: catalogueQuery, summary: 'Register courts', row: CatalogueEntry('Court', { code: z.string(), text: z.string(), state: z.string() }) },
  { path: '/assignmentfunctions', query: catalogueQuery, summary: 'Function codes (managing director, procurator, board member, ...)', row: CatalogueEntry('AssignmentFunction', { code: z.string(), text: z.string(), category: z.string() }) },
  {
    path: '/addresses/cities', query: catalogueQuery, summary: 'Cities (municipalities) with their zip codes',
    row: CatalogueEntry('City', { name: z.string(), municipalityCode: z.string(), district: nullableText, state: z.string(), zipCodes: z.array(z.string()) }),
  },
  { path: '/addresses/zipcodes', query: catalogueQuery, summary: 'Zip codes with their cities', row: CatalogueEntry('ZipCode', { zipCode: z.string(), cities: z.array(z.string()), state: z.string() }) },
  {
    path: '/addresses/locations', query: catalogueQuery, summary: 'Locations (places per zip code) with coordinates',
    row: CatalogueEntry('Location', {
      zipCode: z.string(), place: z.string(), municipality: nullableText, municipalityCode: nullableText, district: nullableText, state: z.string(),
      latitude: z.number().nullable(), longitude: z.number().nullable(),
    }),
  },
];

/** The query each catalogue's example answers (components/examples name and summary). */
const CATALOGUE_EXAMPLES: Record<string, [name: string, summary: string]> = {
  '/oenace': ['OenacePage', 'search=41.20&level=5'],
  '/legalforms': ['LegalFormsPage', 'search=GmbH'],
  '/courts': ['CourtsPage', 'The first page of all 16 register courts (pageSize=3)'],
  '/assignmentfunctions': ['AssignmentFunctionsPage', 'The function codes'],
  '/addresses/cities': ['CitiesPage', 'search=60101 (a municipality code)'],
  '/addresses/zipcodes': ['ZipCodesPage', 'search=8010'],
  '/addresses/locations': ['LocationsPage', 'search=1100'],
};

export function registerCatalogueDocs(registry: OpenAPIRegistry): void {
  for (const doc of catalogueDocs) {
    const [name, summary] = CATALOGUE_EXAMPLES[doc.path]!;
    registry.registerPath({
      method: 'get', path: doc.path, tags: ['Catalogues'], summary: doc.summary,
      description: doc.description ?? 'Searchable (`search`, case-insensitive, contained in code or name) and paged.',
      request: { query: doc.query },
      responses: {
        200: { description: 'A page', content: jsonContent(pageOf(doc.row), registerExample(registry, name, summary, catalogueExamples[doc.path])) },
        ...problemResponses(400), ...accessResponses(),
      },
    });
  }
}
