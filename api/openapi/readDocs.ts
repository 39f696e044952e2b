// OpenAPI entries of the read endpoints: companies (screener, count, names, similar, resolve-names,
// profile), people, graph, change feeds and document download. Query schemas are the ones the routes
// validate with; response shapes follow the presenters.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { KEY_FIGURES, figureJsonKey } from '../../schemas/keyFigures.js';
import { countQuery, namesQuery, resolveNamesBody, screenerQuery, similarQuery } from '../routes/businesses.js';
import { aggregatedQuery, feedQuery } from '../routes/changeFeeds.js';
import { graphQuery } from '../routes/graph.js';
import { peopleNamesQuery, peopleQuery } from '../routes/people.js';
import { accessResponses, jsonContent, pageOf, problemResponses, requestJsonContent } from './common.js';

const codeText = z.object({ code: z.string(), text: z.string().nullable() });
const figures = Object.fromEntries(KEY_FIGURES.map((f) => [figureJsonKey(f), z.number().nullable().meta({ description: f.label })]));
const KeyFigures = z
  .object({ documentDate: z.string().nullable().meta({ description: 'Balance-sheet date of the filing the figures come from.' }), ...figures })
  .meta({ id: 'KeyFigures', description: 'The 47 figures of one filing. null = not reported in that filing (never 0).' });

const ScreenerRow = z
  .object({
    fnr: z.string(), name: z.string(), legalForm: codeText.nullable(), court: codeText.nullable(), city: z.string().nullable(),
    zipCode: z.string().nullable(), isActive: z.boolean(), isScheinunternehmen: z.boolean(), hasEdikt: z.boolean(),
    keyFigures: KeyFigures.nullable().meta({ description: 'Figures of the latest filing by documentDate; null without a filing.' }),
  })
  .meta({ id: 'ScreenerRow' });

const ChangeEntry = z
  .object({
    id: z.int(), type: z.enum(['business', 'document', 'edikt', 'trade']), fnr: z.string().nullable(), recordedAt: z.string(),
    action: z.enum(['created', 'updated', 'deleted']), changedFields: z.array(z.string()),
    vnr: z.string().nullable().optional(), documentKey: z.string().optional(), ediktId: z.string().optional(), gisaZahl: z.string().optional(),
  })
  .meta({ id: 'ChangeEntry', description: 'A change; `id` is the cursor and names the same change in the typed and the global feed.' });

const Profile = z
  .object({
    fnr: z.string(), name: z.string(), legalForm: codeText.nullable(), court: codeText.nullable(), isActive: z.boolean(),
    isScheinunternehmen: z.boolean(), scheinunternehmenKundmachungen: z.array(z.object({ publishedOn: z.string().nullable() }).loose()),
    hasEdikt: z.boolean(), addresses: z.array(z.object({ street: z.string().nullable(), zipCode: z.string().nullable(), city: z.string().nullable() }).loose()),
    oenaces: z.array(z.object({ code: z.string(), kurztitel: z.string().nullable() }).loose()), oenaceNumericCode: z.string().nullable(),
    latestKeyFigures: KeyFigures.nullable(), parsedJahresabschluesse: z.array(z.object({ documentKey: z.string(), documentDate: z.string().nullable() }).loose()),
    functions: z.array(z.object({ type: z.enum(['person', 'company', 'organisation']), functionCode: z.string(), representation: codeText.nullable() }).loose()),
    shareholders: z.array(z.object({ type: z.enum(['person', 'company', 'organisation']), capital: z.number().nullable() }).loose()),
    formerNames: z.array(z.object({ name: z.string() }).loose()), registerEntries: z.array(z.object({ vnr: z.string() }).loose()),
    tradeLicenses: z.array(z.object({ gisaZahl: z.string() }).loose()), openNotices: z.array(z.object({ ediktId: z.string() }).loose()),
    annualAccountDocuments: z.array(z.object({ documentKey: z.string(), contentType: z.string().nullable() }).loose()),
    lastCrawledAt: z.string().nullable(),
  })
  .loose()
  .meta({ id: 'CompanyProfile' });

const PersonFunction = z.object({ fnr: z.string(), companyName: z.string(), functionCode: z.string(), functionText: z.string().nullable(), isCurrent: z.boolean() }).loose();
const Graph = z
  .object({
    nodes: z.array(z.object({ id: z.string(), type: z.enum(['company', 'person', 'organisation']), label: z.string(), fnr: z.string().optional(), personId: z.string().optional(), isActive: z.boolean().optional() })),
    edges: z.array(z.object({ source: z.string(), target: z.string(), type: z.enum(['holding', 'function']) }).loose()),
    truncated: z.boolean().meta({ description: 'true when the graph reached 500 nodes and was cut there.' }),
  })
  .meta({ id: 'Graph' });

const fnrPath = z.object({ fnr: z.string().meta({ description: 'Matched exactly as stored: a leading-zero form is a 404.' }) });

export function registerReadDocs(registry: OpenAPIRegistry): void {
  const get = (path: string, tags: string[], summary: string, query: z.ZodObject | undefined, body: z.ZodType, extra: { params?: z.ZodObject; description?: string; problems?: number[] } = {}) =>
    registry.registerPath({
      method: 'get', path, tags, summary, description: extra.description,
      request: { ...(query ? { query } : {}), ...(extra.params ? { params: extra.params } : {}) },
      responses: { 200: { description: summary, content: jsonContent(body) }, ...problemResponses(...(extra.problems ?? [400])), ...accessResponses() },
    });

  get('/businesses', ['Companies'], 'Screener over every company', screenerQuery, pageOf(ScreenerRow), {
    description: 'All filters combine with AND. A range filter never matches a company whose figure is null. Sorting by a figure puts companies without it last in both directions, ties by fnr; without orderBy: active first, then by name. orderByDescending defaults to false. countOnly answers data: [] with the true totals.',
  });
  get('/businesses/count', ['Companies'], 'Count of screener matches', countQuery, z.object({ count: z.int() }));
  get('/businesses/names', ['Companies'], 'Name autocomplete over current and former names', namesQuery,
    pageOf(z.object({ fnr: z.string(), name: z.string(), city: z.string().nullable(), isActive: z.boolean() })), {
      description: 'Ranking: exact > prefix > word prefix > former name > fuzzy, active before deleted; ä = ae, legal-form suffixes ignored. At most 200 candidates.',
    });
  get('/businesses/{fnr}/similar', ['Companies'], 'Companies similar in industry, size and region', similarQuery,
    pageOf(ScreenerRow.extend({ similarity: z.number().meta({ description: '0.5 industry + 0.3 size + 0.2 region, 0..1' }) })), { params: fnrPath, problems: [400, 404] });
  get('/businesses/{fnr}', ['Companies'], 'Company profile', undefined, Profile, { params: fnrPath, problems: [404] });
  registry.registerPath({
    method: 'post', path: '/businesses/resolve-names', tags: ['Companies'], summary: 'Company names in, company numbers out',
    request: { body: { required: true, content: requestJsonContent(resolveNamesBody) } },
    responses: {
      200: {
        description: 'One answer per name, in input order',
        content: jsonContent(z.array(z.object({
          name: z.string(), fnr: z.string().nullable(), matchedName: z.string().nullable(), score: z.number(),
          match: z.enum(['exact', 'probable', 'review', 'none']), candidates: z.array(z.object({ fnr: z.string(), name: z.string(), score: z.number() })),
        }))),
      },
      ...problemResponses(400, 415), ...accessResponses(),
    },
  });

  get('/people', ['People and graph'], 'Search people', peopleQuery,
    pageOf(z.object({ personId: z.string(), firstName: z.string().nullable(), lastName: z.string().nullable(), birthDate: z.string().nullable(), functions: z.array(PersonFunction) })));
  get('/people/names', ['People and graph'], 'Person name index', peopleNamesQuery, pageOf(z.object({ personId: z.string(), name: z.string(), birthDate: z.string().nullable() })));
  get('/people/{personId}', ['People and graph'], 'Person profile', undefined,
    z.object({ personId: z.string(), functions: z.array(PersonFunction), hasOpenNotices: z.boolean() }).loose(), { params: z.object({ personId: z.string() }), problems: [404] });
  get('/graph', ['People and graph'], 'Holdings and functions around a company or person', graphQuery, Graph, { problems: [400, 404] });

  for (const [path, summary] of [
    ['/businesses/changes', 'Company change feed'], ['/documents/changes', 'Feed of newly filed documents'], ['/edikte/changes', 'Court-notice change feed'],
    ['/trades/changes', 'Trade change feed'], ['/globalchanges', 'Global change feed'],
  ] as const) {
    get(path, ['Change feeds'], summary, feedQuery, pageOf(ChangeEntry), {
      description: 'sinceId exclusive, since inclusive (recordedAt), both combinable. A feed never shows an id while a lower one may still commit, so the highest id seen is a safe cursor. page stops at 1000; totalRecords stops at 1000 x pageSize and totalPages at 1000 (at the cap: at least that many).',
    });
  }
  get('/globalchanges/aggregated', ['Change feeds'], 'Business, document, court-notice and global changes in one answer', aggregatedQuery,
    z.object({ businessChanges: z.array(ChangeEntry), documentChanges: z.array(ChangeEntry), ediktChanges: z.array(ChangeEntry), globalChanges: z.array(ChangeEntry) }));
  get('/edikte/changes/{id}', ['Change feeds'], 'One court notice as a change left it (by change id)', undefined,
    ChangeEntry.extend({ notice: z.unknown() }), { params: z.object({ id: z.string() }), problems: [400, 404] });

  registry.registerPath({
    method: 'get', path: '/documents/download/{documentKey}', tags: ['Documents'], summary: 'Document as PDF or XML',
    description: 'The stored copy when the pipeline holds one, otherwise fetched from the register.',
    request: { params: z.object({ documentKey: z.string() }) },
    responses: {
      200: { description: 'The document in its own type', content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) }, 'application/xml': { schema: z.string() } } },
      503: { description: 'The register document service is unreachable; retry later', content: { 'text/plain': { schema: z.literal('Firmenbuch API aktuell nicht verfügbar') } } },
      ...problemResponses(404), ...accessResponses(),
    },
  });
}
