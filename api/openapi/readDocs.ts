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
import { REGISTER_UNAVAILABLE } from '../routes/documents.js';
import { accessResponses, jsonContent, pageOf, problemResponses, registerExample, requestJsonContent, type Examples } from './common.js';
import {
  aggregatedChangesExample, changeFeedExamples, companyProfileExample, countExample, documentPdfExample, documentXmlExample, ediktChangeExample,
  graphExample, namesExample, peopleNamesExample, peoplePageExample, personExample, resolveNamesRequestExample, resolveNamesResponseExample,
  screenerCountOnlyExample, screenerPageExample, similarExample,
} from './readExamples.js';

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

const CourtNotice = z
  .object({
    ediktId: z.string(), aktenzeichen: z.string().nullable(), court: codeText.nullable(), proceeding: codeText.nullable(),
    debtor: z.object({
      type: z.string().nullable().meta({ description: "'J' legal person, 'N' natural person." }), name: z.string().nullable(),
      fnr: z.string().nullable().meta({ description: 'The company the notice is linked to, if any.' }),
      address: z.object({ street: z.string().nullable(), zipCode: z.string().nullable(), city: z.string().nullable() }).nullable(),
    }),
    openedOn: z.string().nullable(), firstPublishedOn: z.string().nullable(), lastPublishedOn: z.string().nullable(),
    isOpen: z.boolean().nullable(), deletedAt: z.string().nullable().meta({ description: 'When the register deleted the notice, if it has.' }),
    blocks: z.array(z.object({ publishedOn: z.string().nullable(), name: z.string().nullable(), text: z.string().nullable(), decidedOn: z.string().nullable() }))
      .meta({ description: 'The publications (Bausteine) of the notice, oldest first as the register lists them.' }),
    link: z.object({ evidence: z.string().nullable(), confidence: z.number().nullable() }).meta({ description: 'Why the notice is linked to debtor.fnr, with a confidence 0..1.' }),
  })
  .meta({ id: 'CourtNotice' });

const ChangeEntry = z
  .object({
    id: z.int(), type: z.enum(['business', 'document', 'edikt', 'trade']), fnr: z.string().nullable(), recordedAt: z.string(),
    action: z.enum(['created', 'updated', 'deleted']), changedFields: z.array(z.string()),
    vnr: z.string().nullable().optional(), documentKey: z.string().optional(), ediktId: z.string().optional(), gisaZahl: z.string().optional(),
  })
  .meta({ id: 'ChangeEntry', description: 'A change; `id` is the cursor and names the same change in the typed and the global feed.' });

const partyType = z.enum(['person', 'company', 'organisation']).meta({
  description: 'Who holds the function or share; with `personId` (person), `fnr` (company) or `organisationId` (organisation).',
});
const party = {
  type: partyType, personId: z.string().nullable().optional(), fnr: z.string().nullable().optional(), organisationId: z.string().nullable().optional(),
  name: z.string().nullable(), since: z.string().nullable(), until: z.string().nullable(), isCurrent: z.boolean(),
};
const nullableString = z.string().nullable();

const Profile = z
  .object({
    fnr: z.string(), name: z.string(), legalForm: codeText.nullable(), court: codeText.nullable(), isActive: z.boolean(),
    isScheinunternehmen: z.boolean(),
    scheinunternehmenKundmachungen: z.array(z.object({
      name: z.string(), publishedOn: nullableString, decisionFinalOn: nullableString, deemedSince: nullableString,
    }).loose()).meta({ description: 'Publications of the finance ministry behind an isScheinunternehmen listing.' }),
    hasEdikt: z.boolean().meta({ description: 'At least one court notice (open or closed) on file.' }),
    euid: nullableString, seat: nullableString, municipality: codeText.nullable(),
    capital: z.object({ amount: z.number(), currency: nullableString }).nullable().meta({ description: 'Registered share capital (Stammkapital / Grundkapital).' }),
    businessPurpose: nullableString,
    formerNames: z.array(z.object({ name: z.string(), vnr: z.string() }).loose()),
    addresses: z.array(z.object({
      street: nullableString, houseNumber: nullableString, staircase: nullableString, door: nullableString, zipCode: nullableString,
      city: nullableString, country: nullableString, isCurrent: z.boolean(),
    }).loose()).meta({ description: 'Current address first, then former ones.' }),
    oenaces: z.array(z.object({
      code: z.string(), kurztitel: nullableString, title: nullableString, level: z.int().nullable(), isPrimary: z.boolean(),
    }).loose()).meta({ description: 'ÖNACE 2008 classes, the primary one first.' }),
    oenaceNumericCode: nullableString,
    latestKeyFigures: KeyFigures.nullable(),
    parsedJahresabschluesse: z.array(z.object({
      documentKey: z.string(), documentDate: nullableString, fiscalYearStart: nullableString, fiscalYearEnd: nullableString,
      currency: nullableString, sizeClass: nullableString, format: z.string(), pnlMethod: nullableString, kind: nullableString,
      filedOn: nullableString, ...figures,
    }).loose()).meta({ description: 'Every parsed annual account, newest documentDate first, each with its 47 figures.' }),
    functions: z.array(z.object({
      ...party, functionCode: z.string(), functionText: nullableString,
      representation: codeText.nullable().meta({ description: 'Kind of representation power (Einzelvertretung, Gemeinsame Vertretung, ...).' }),
    }).loose()).meta({ description: 'Registered functions, current first.' }),
    shareholders: z.array(z.object({ ...party, capital: z.number().nullable(), paidIn: z.number().nullable(), currency: nullableString }).loose()),
    registerEntries: z.array(z.object({
      vnr: z.string(), executedOn: nullableString, court: codeText.nullable(), az: nullableString, applicationTexts: z.array(z.string()),
    }).loose()),
    tradeLicenses: z.array(z.object({
      gisaZahl: z.string(), tradeKey: nullableString, wording: nullableString, effectiveFrom: nullableString, endedOn: nullableString, isDormant: z.boolean(),
    }).loose()),
    openNotices: z.array(z.object({
      ediktId: z.string(), aktenzeichen: nullableString, court: codeText.nullable(), proceeding: codeText.nullable(),
      firstPublishedOn: nullableString, lastPublishedOn: nullableString,
      link: z.object({ evidence: nullableString, confidence: z.number().nullable() }).meta({ description: 'Why the notice is linked to this company, with a confidence 0..1.' }),
    }).loose()),
    annualAccountDocuments: z.array(z.object({
      documentKey: z.string(), documentDate: nullableString, balanceSheetDate: nullableString, contentType: nullableString, filedOn: nullableString,
      sizeClass: nullableString, sizeBytes: z.int().nullable(),
    }).loose()).meta({ description: 'Filed annual accounts (PDF or XML), downloadable by documentKey.' }),
    lastCrawledAt: nullableString,
  })
  .loose()
  .meta({ id: 'CompanyProfile' });

const PersonFunction = z.object({
  fnr: z.string(), companyName: z.string(), companyIsActive: z.boolean(), functionCode: z.string(), functionText: nullableString,
  representation: codeText.nullable(), since: nullableString, until: nullableString, isCurrent: z.boolean(),
}).loose();
const Graph = z
  .object({
    nodes: z.array(z.object({
      id: z.string().meta({ description: '`company:<fnr>`, `person:<personId>` or `organisation:<id>`.' }),
      type: z.enum(['company', 'person', 'organisation']), label: z.string(), fnr: z.string().optional(), personId: z.string().optional(),
      isActive: z.boolean().optional(),
    })),
    edges: z.array(z.object({
      source: z.string(), target: z.string().meta({ description: 'Always a company: the one the function is held in or the share is held of.' }),
      type: z.enum(['holding', 'function']),
      functionCode: z.string().optional(), functionText: nullableString.optional(), representation: codeText.nullable().optional(),
      capital: z.number().nullable().optional(), paidIn: z.number().nullable().optional(), currency: nullableString.optional(), since: nullableString.optional(),
    }).loose()),
    truncated: z.boolean().meta({ description: 'true when the graph reached 500 nodes and was cut there.' }),
  })
  .meta({ id: 'Graph' });

const fnrPath = z.object({ fnr: z.string().meta({ description: 'Matched exactly as stored: a leading-zero form is a 404.', example: '30435h' }) });

export function registerReadDocs(registry: OpenAPIRegistry): void {
  const example = (name: string, summary: string, value: unknown) => registerExample(registry, name, summary, value);
  const get = (
    path: string, tags: string[], summary: string, query: z.ZodObject | undefined, body: z.ZodType,
    extra: { params?: z.ZodObject; description?: string; problems?: number[]; examples: Examples },
  ) =>
    registry.registerPath({
      method: 'get', path, tags, summary, description: extra.description,
      request: { ...(query ? { query } : {}), ...(extra.params ? { params: extra.params } : {}) },
      responses: {
        200: { description: summary, content: jsonContent(body, extra.examples) },
        ...problemResponses(...(extra.problems ?? [400])), ...accessResponses(),
      },
    });

  get('/businesses', ['Companies'], 'Screener over every company', screenerQuery, pageOf(ScreenerRow), {
    description: 'All filters combine with AND. A range filter never matches a company whose figure is null. Sorting by a figure puts companies without it last in both directions, ties by fnr; without orderBy: active first, then by name. orderByDescending defaults to false. countOnly answers data: [] with the true totals.',
    examples: {
      ...example('ScreenerPage', 'legalFormCode=GES&guv.Umsatzerloese_gte=1000000&orderBy=guv.Umsatzerloese&orderByDescending=true&pageSize=2', screenerPageExample),
      ...example('ScreenerCountOnly', 'The same query with countOnly=true', screenerCountOnlyExample),
    },
  });
  get('/businesses/count', ['Companies'], 'Count of screener matches', countQuery, z.object({ count: z.int() }), {
    examples: example('BusinessCount', 'legalFormCode=GES&guv.Umsatzerloese_gte=1000000', countExample),
  });
  get('/businesses/names', ['Companies'], 'Name autocomplete over current and former names', namesQuery,
    pageOf(z.object({ fnr: z.string(), name: z.string(), city: z.string().nullable(), isActive: z.boolean() })), {
      description: 'Ranking: exact > prefix > word prefix > former name > fuzzy, active before deleted; ä = ae, legal-form suffixes ignored. At most 200 candidates: `totalRecords` counts all of them up to 200 (not just those on the page), so `totalPages` tells how far paging goes.',
      examples: example('BusinessNames', 'search=mueller bau: umlaut spellings match, active companies first', namesExample),
    });
  get('/businesses/{fnr}/similar', ['Companies'], 'Companies similar in industry, size and region', similarQuery,
    pageOf(ScreenerRow.extend({ similarity: z.number().meta({ description: '0.5 industry + 0.3 size + 0.2 region, 0..1' }) })), {
      params: fnrPath, problems: [400, 404], examples: example('SimilarCompanies', 'Companies similar to 30435h (pageSize=2)', similarExample),
    });
  get('/businesses/{fnr}', ['Companies'], 'Company profile', undefined, Profile, {
    params: fnrPath, problems: [404], examples: example('CompanyProfile', 'A GmbH with two filings, functions, shareholders and an open court notice', companyProfileExample),
  });
  registry.registerPath({
    method: 'post', path: '/businesses/resolve-names', tags: ['Companies'], summary: 'Company names in, company numbers out',
    request: {
      body: {
        required: true,
        content: requestJsonContent(resolveNamesBody, example('ResolveNamesRequest', 'Names as they appear in a customer list', resolveNamesRequestExample)),
      },
    },
    responses: {
      200: {
        description: 'One answer per name, in input order',
        content: jsonContent(z.array(z.object({
          name: z.string(), fnr: z.string().nullable(), matchedName: z.string().nullable(), score: z.number(),
          match: z.enum(['exact', 'probable', 'review', 'none']), candidates: z.array(z.object({ fnr: z.string(), name: z.string(), score: z.number() })),
        })), example('ResolveNamesResponse', 'Every match band: exact (also across umlaut and legal-form spellings), probable, review, none', resolveNamesResponseExample)),
      },
      ...problemResponses(400, 415), ...accessResponses(),
    },
  });

  get('/people', ['People and graph'], 'Search people', peopleQuery,
    pageOf(z.object({ personId: z.string(), firstName: nullableString, lastName: nullableString, birthDate: nullableString, functions: z.array(PersonFunction) })), {
      examples: example('PeoplePage', 'lastName=Müller&fnr=30435h: current and former managing directors', peoplePageExample),
    });
  get('/people/names', ['People and graph'], 'Person name index', peopleNamesQuery, pageOf(z.object({ personId: z.string(), name: z.string(), birthDate: nullableString })), {
    examples: example('PeopleNames', 'search=müller (a person without a registered birth date has an id ending in -x)', peopleNamesExample),
  });
  get('/people/{personId}', ['People and graph'], 'Person profile', undefined,
    z.object({
      personId: z.string(), firstName: nullableString, lastName: nullableString,
      titles: z.object({ before: nullableString, after: nullableString }), birthDate: nullableString, functions: z.array(PersonFunction),
      hasOpenNotices: z.boolean().meta({ description: 'An open court notice concerns a company the person holds a function in.' }),
    }).loose(), {
      params: z.object({ personId: z.string().meta({ example: 'andrea-müller-1972-04-18' }) }), problems: [404],
      examples: example('PersonProfile', 'A managing director of two companies', personExample),
    });
  get('/graph', ['People and graph'], 'Holdings and functions around a company or person', graphQuery, Graph, {
    problems: [400, 404], examples: example('Graph', 'fnr=30435h&depth=2: functions, a person and a corporate shareholder, and its foreign owner', graphExample),
  });

  for (const [path, summary, name] of [
    ['/businesses/changes', 'Company change feed', 'BusinessChanges'], ['/documents/changes', 'Feed of newly filed documents', 'DocumentChanges'],
    ['/edikte/changes', 'Court-notice change feed', 'EdiktChanges'], ['/trades/changes', 'Trade change feed', 'TradeChanges'],
    ['/globalchanges', 'Global change feed', 'GlobalChanges'],
  ] as const) {
    get(path, ['Change feeds'], summary, feedQuery, pageOf(ChangeEntry), {
      description: 'sinceId exclusive, since inclusive (recordedAt), both combinable. A feed never shows an id while a lower one may still commit, so the highest id seen is a safe cursor. page stops at 1000; totalRecords stops at 1000 x pageSize and totalPages at 1000 (at the cap: at least that many).',
      examples: example(name, 'sinceId=4711800: the first page of a poll; the same id names the same change in every feed', changeFeedExamples[path]),
    });
  }
  get('/globalchanges/aggregated', ['Change feeds'], 'Business, document, court-notice and global changes in one answer', aggregatedQuery,
    z.object({ businessChanges: z.array(ChangeEntry), documentChanges: z.array(ChangeEntry), ediktChanges: z.array(ChangeEntry), globalChanges: z.array(ChangeEntry) }), {
      examples: example('AggregatedChanges', 'since=2025-11-04T06:00:00Z&maxResultsPerType=100', aggregatedChangesExample),
    });
  get('/edikte/changes/{id}', ['Change feeds'], 'One court notice as a change left it (by change id)', undefined,
    ChangeEntry.extend({ notice: CourtNotice.nullable().meta({ description: 'The court notice as this change left it; null if the change recorded none or one the service cannot read (logged as a fault of the writer).' }) }), {
      params: z.object({ id: z.string().meta({ description: 'The change id (as in /edikte/changes).', example: '4711811' }) }), problems: [400, 404],
      examples: example('EdiktChange', 'The opening of a restructuring proceeding', ediktChangeExample),
    });

  registry.registerPath({
    method: 'get', path: '/documents/download/{documentKey}', tags: ['Documents'], summary: 'Document as PDF or XML',
    description: 'The stored copy when the pipeline holds one, otherwise fetched from the register.',
    request: { params: z.object({ documentKey: z.string().meta({ example: '030435_0070202507812_000___000_30_41873215_XML' }) }) },
    responses: {
      200: {
        description: 'The document in its own type (Content-Disposition: attachment with the key as file name)',
        content: {
          'application/pdf': { schema: z.string().meta({ format: 'binary' }), examples: example('DocumentPdf', 'An annual account as PDF (its first bytes)', documentPdfExample) },
          'application/xml': { schema: z.string(), examples: example('DocumentXml', 'An annual account as filed XML (abridged)', documentXmlExample) },
        },
      },
      503: {
        description: 'The register document service is unreachable; retry later',
        headers: { 'Retry-After': { description: 'Seconds to wait before retrying (60).', schema: { type: 'integer' } } },
        content: {
          'text/plain': {
            schema: z.literal(REGISTER_UNAVAILABLE),
            examples: example('RegisterUnavailable', 'Always exactly this sentence, not JSON', REGISTER_UNAVAILABLE),
          },
        },
      },
      ...problemResponses(404), ...accessResponses(),
    },
  });
}
