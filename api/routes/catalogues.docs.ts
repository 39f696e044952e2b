// OpenAPI entries of the catalogue endpoints (catalogues.ts), with the query schemas the routes
// validate with. The response rows are the fields the handlers' SQL produces; each catalogue's
// example is the first page of a typical search.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { accessResponses, curlSample, jsonContent, nullableString, pageOf, problemResponses, registerExample, TAGS } from '../openapi/common.js';
import { GF, PR } from '../openapi/exampleData.js';
import { FIGURE_BY_PARAM } from '../../schemas/keyFigures.js';
import { catalogueQuery, oenaceQuery } from '../operations/catalogues.js';
import { keyFigureEntry, keyFigureQuery } from '../operations/keyFigures.js';

const CatalogueEntry = (id: string, shape: z.ZodRawShape) => z.object(shape).meta({ id });

const page = (data: object[], totalRecords: number, pageSize = 10) => ({
  data, pageNumber: 1, pageSize, totalRecords, totalPages: Math.ceil(totalRecords / pageSize),
});

interface CatalogueDoc {
  path: string; operationId: string; query: z.ZodObject;
  /** The query string of the curl example (the example answers it). */
  request: string; summary: string; description?: string; row: z.ZodType;
  /** components/examples name, the query it answers, the answer. */
  example: [name: string, summary: string, value: object];
}

const catalogueDocs: CatalogueDoc[] = [
  {
    path: '/oenace', operationId: 'listOenaceClasses', request: 'search=41.20&level=5', query: oenaceQuery, summary: 'Industry classes (ÖNACE), by level', description: 'Searchable by code, EDV code and German or English title; `level` 1 (section) to 5 (subclass); `version` 2008 (default) or 2025.',
    row: CatalogueEntry('OenaceClass', { code: z.string(), level: z.int(), numericCode: z.string(), title: z.string(), kurztitel: nullableString, titleEn: nullableString, parentCode: nullableString, section: z.string() }),
    example: ['OenacePage', 'search=41.20&level=5', page([
      {
        code: 'F 41.20-1', level: 5, numericCode: '41201', title: 'Wohnungs- und Siedlungsbau', kurztitel: 'Wohnungs- und Siedlungsbau',
        titleEn: 'Construction of residential buildings', parentCode: 'F 41.20', section: 'F',
      },
      {
        code: 'F 41.20-2', level: 5, numericCode: '41202', title: 'Adaptierungsarbeiten im Hochbau', kurztitel: 'Adaptierungsarbeiten im Hochbau',
        titleEn: 'Renovation work of buildings', parentCode: 'F 41.20', section: 'F',
      },
      {
        code: 'F 41.20-9', level: 5, numericCode: '41209', title: 'Sonstiger Hochbau', kurztitel: 'Sonst. Hochbau',
        titleEn: 'Construction of other non-residential buildings', parentCode: 'F 41.20', section: 'F',
      },
    ], 3)],
  },
  {
    path: '/legalforms', operationId: 'listLegalForms', request: 'search=GmbH', query: catalogueQuery, summary: 'Legal forms',
    row: CatalogueEntry('LegalForm', { code: z.string(), text: z.string(), abbreviation: nullableString, elfCode: nullableString }),
    example: ['LegalFormsPage', 'search=GmbH', page([{ code: 'GES', text: 'Gesellschaft mit beschränkter Haftung', abbreviation: 'GmbH', elfCode: 'AXSB' }], 1)],
  },
  {
    path: '/courts', operationId: 'listCourts', request: 'pageSize=3', query: catalogueQuery, summary: 'Register courts', row: CatalogueEntry('Court', { code: z.string(), text: z.string(), state: z.string() }),
    example: ['CourtsPage', 'The first page of all 16 register courts (pageSize=3)', page([
      { code: '007', text: 'Handelsgericht Wien', state: 'Wien' },
      { code: '119', text: 'Landesgericht Korneuburg', state: 'Niederösterreich' },
      { code: '129', text: 'Landesgericht Krems an der Donau', state: 'Niederösterreich' },
    ], 16, 3)],
  },
  {
    path: '/assignmentfunctions', operationId: 'listAssignmentFunctions', request: '', query: catalogueQuery, summary: 'Function codes (managing director, procurator, board member, ...)',
    row: CatalogueEntry('AssignmentFunction', { code: z.string(), text: z.string(), category: z.string() }),
    example: ['AssignmentFunctionsPage', 'The function codes', page([
      { code: 'GF', text: GF, category: 'representation' },
      { code: 'GS', text: 'GESELLSCHAFTER/IN', category: 'holding' },
      { code: 'PR', text: PR, category: 'representation' },
      { code: 'VM', text: 'VORSTANDSMITGLIED', category: 'representation' },
    ], 4)],
  },
  {
    path: '/keyfigures', operationId: 'listKeyFigures', request: 'search=personalaufwand', query: keyFigureQuery, summary: 'The 47 key figures: parameter names, meanings, units and signs',
    description: 'Every figure the screener filters and sorts by (`<parameter>_gte`, `<parameter>_lte`, `orderBy=<parameter>`) and the profile, '
      + 'exports and saved queries carry, in the spec\'s order (balance sheet, profit and loss, employees). Amounts are stored with the sign '
      + 'they are filed with: **expenses are negative** (`sign: negative`), so `guv.Personalaufwand_gte=1000000` finds nothing and '
      + '`guv.Personalaufwand_lte=-1000000` finds a personnel expense of at least 1,000,000 EUR; each entry\'s `filterExample` shows how its sign reads. '
      + '`sources` names the filed positions the figure is read from: legacy FinanzOnline/JAb 3.x codes and JAb 4.0 elements, first present wins.',
    row: CatalogueEntry('KeyFigure', {
      parameter: z.string().meta({ description: 'Screener parameter base: add `_gte` / `_lte`, or give it to `orderBy`.' }),
      jsonKey: z.string().meta({ description: 'The key in `latestKeyFigures`, `parsedJahresabschluesse[]` and screener rows.' }),
      group: z.enum(['bilanz', 'guv', 'employees']), name: z.string(),
      meaningDe: z.string().meta({ description: 'The position as the UGB and the filings word it.' }),
      meaningEn: z.string(),
      unit: z.enum(['EUR', 'persons']).meta({ description: '`EUR` after the filing\'s unit (thousands and the like) is applied; `persons` the average headcount, may be fractional.' }),
      sign: z.enum(['positive', 'negative', 'signed']).meta({ description: '`negative`: an expense, stored negative as filed; `signed`: either sign (results, equity); `positive`: 0 or more.' }),
      signConvention: z.string(), filterExample: z.string().meta({ description: 'A filter that shows how the sign reads.' }),
      position: z.string().meta({ description: 'Where the position sits in the UGB layout (Bilanz § 224, GuV § 231: Z = line, GKV/UKV = cost method).' }),
      sources: z.object({ legacy: z.array(z.string()), jab4: z.array(z.string()) }),
    }),
    example: ['KeyFiguresPage', 'search=personalaufwand', page([keyFigureEntry(FIGURE_BY_PARAM.get('guv.Personalaufwand')!)], 1)],
  },
  {
    path: '/addresses/cities', operationId: 'listCities', request: 'search=60101', query: catalogueQuery, summary: 'Cities (municipalities) with their zip codes',
    row: CatalogueEntry('City', { name: z.string(), municipalityCode: z.string(), district: nullableString, state: z.string(), zipCodes: z.array(z.string()) }),
    example: ['CitiesPage', 'search=60101 (a municipality code)', page([
      {
        name: 'Graz', municipalityCode: '60101', district: 'Graz Stadt', state: 'Steiermark',
        zipCodes: ['8010', '8020', '8036', '8041', '8042', '8043', '8044', '8045', '8046', '8047', '8051', '8052', '8053', '8054', '8055', '8073', '8074'],
      },
    ], 1)],
  },
  {
    path: '/addresses/zipcodes', operationId: 'listZipCodes', request: 'search=8010', query: catalogueQuery, summary: 'Zip codes with their cities',
    row: CatalogueEntry('ZipCode', { zipCode: z.string(), cities: z.array(z.string()), state: z.string() }),
    example: ['ZipCodesPage', 'search=8010', page([{ zipCode: '8010', cities: ['Eggersdorf bei Graz', 'Graz', 'Kainbach bei Graz'], state: 'Steiermark' }], 1)],
  },
  {
    path: '/addresses/locations', operationId: 'listLocations', request: 'search=1100', query: catalogueQuery, summary: 'Locations (places per zip code) with coordinates',
    row: CatalogueEntry('Location', {
      zipCode: z.string(), place: z.string(), municipality: nullableString, municipalityCode: nullableString, district: nullableString, state: z.string(),
      latitude: z.number().nullable(), longitude: z.number().nullable(),
    }),
    example: ['LocationsPage', 'search=1100', page([
      {
        zipCode: '1100', place: 'Wien, Favoriten', municipality: 'Gemeindebezirk Favoriten', municipalityCode: '910',
        district: 'Politischer Bezirk Wien (Stadt)', state: 'Wien', latitude: 48.1521, longitude: 16.3878,
      },
    ], 1)],
  },
];

export function registerCatalogueDocs(registry: OpenAPIRegistry): void {
  for (const doc of catalogueDocs) {
    const [name, summary, value] = doc.example;
    registry.registerPath({
      method: 'get', path: doc.path, tags: [TAGS.catalogues.name], summary: doc.summary, operationId: doc.operationId,
      ...curlSample('GET', doc.request ? `${doc.path}?${doc.request}` : doc.path),
      description: doc.description ?? 'Searchable (`search`, case-insensitive, contained in code or name) and paged.',
      request: { query: doc.query },
      responses: {
        200: { description: 'A page', content: jsonContent(pageOf(doc.row), registerExample(registry, name, summary, value)) },
        ...problemResponses(400), ...accessResponses(),
      },
    });
  }
}
