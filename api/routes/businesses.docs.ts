// OpenAPI entries of the company search endpoints (businesses.ts): screener, count, names, similar
// and resolve-names, with the query schemas the routes validate with and examples shaped as the
// presenters shape them.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  accessResponses, codeText, curlSample, fnrPath, jsonContent, KeyFigures, pageOf, problemResponses, registerExample, registerJsonGet, requestJsonContent,
  TAGS,
} from '../openapi/common.js';
import { GES, HG_WIEN, keyFigures, LG_GRAZ, LG_KORNEUBURG, MUELLER_2024 } from '../openapi/exampleData.js';
import { RESOLVE_THRESHOLDS } from '../../indexer/search/nameSearch.js';
import { countQuery, namesQuery, resolveNamesBody, screenerQuery, similarQuery } from '../operations/companies.js';

const ScreenerRow = z
  .object({
    fnr: z.string(), name: z.string(), legalForm: codeText.nullable(), court: codeText.nullable(), city: z.string().nullable(),
    zipCode: z.string().nullable(), isActive: z.boolean(), isScheinunternehmen: z.boolean(), hasEdikt: z.boolean(),
    keyFigures: KeyFigures.nullable().meta({ description: 'Figures of the latest filing by documentDate; null without a filing.' }),
  })
  .meta({ id: 'ScreenerRow' });

/** A row answered with `fields=`: fnr and the chosen parts; keyFigures keeps documentDate and the chosen figures. */
const SparseScreenerRow = ScreenerRow.partial()
  .extend({
    fnr: z.string(),
    keyFigures: KeyFigures.partial().required({ documentDate: true }).nullable().optional()
      .meta({ description: 'With a figure, documentDate or keyFigures in `fields`: documentDate and the chosen figures; null without a filing.' }),
  })
  .meta({ id: 'SparseScreenerRow', description: 'A row of an answer with `fields`: fnr and only the parts named there.' });

const GRAZ_2024 = keyFigures('2024-12-31', {
  bilanzSumme: 162480.35, anlageVermoegen: 98200, sachanlagen: 98200, umlaufvermoegen: 64280.35, vorraete: 11840, liquideMittel: 38915.6,
  eigenkapital: -12650.8, nennKapital: 35000, bilanzGewinn: -47650.8, verbindlichkeiten: 168931.15, verbindlichkeitenKreditinstitute: 120000,
});

const KORNEUBURG_2024 = keyFigures('2024-12-31', {
  bilanzSumme: 3984120.5, umlaufvermoegen: 2911045.2, eigenkapital: 1402311.9, verbindlichkeiten: 2210408.6, umsatzerloese: 8120455,
  jahresueberschuss: 298340.12, employees: 41,
});

const korneuburgRow = {
  fnr: '402287z', name: 'Korneuburger Werftareal Projektentwicklungs GmbH', legalForm: GES, court: LG_KORNEUBURG, city: 'Korneuburg',
  zipCode: '2100', isActive: true, isScheinunternehmen: false, hasEdikt: false, keyFigures: KORNEUBURG_2024,
};

const screenerPageExample = {
  data: [
    {
      fnr: '30435h', name: 'Müller Bau GmbH', legalForm: GES, court: HG_WIEN, city: 'Wien', zipCode: '1100',
      isActive: true, isScheinunternehmen: false, hasEdikt: false, keyFigures: MUELLER_2024,
    },
    korneuburgRow,
  ],
  pageNumber: 1, pageSize: 2, totalRecords: 1873, totalPages: 937,
};

/** keyFigures cut down to revenue and employees, as fields=guv.Umsatzerloese,employees answers them. */
const revenueAndEmployees = (all: Record<string, unknown>) => ({ documentDate: all.documentDate, umsatzerloese: all.umsatzerloese, employees: all.employees });

const sparsePageExample = {
  data: [
    { fnr: '30435h', name: 'Müller Bau GmbH', city: 'Wien', keyFigures: revenueAndEmployees(MUELLER_2024) },
    { fnr: '402287z', name: korneuburgRow.name, city: korneuburgRow.city, keyFigures: revenueAndEmployees(KORNEUBURG_2024) },
  ],
  pageNumber: 1, pageSize: 2, totalRecords: 1873, totalPages: 937,
};

const namesExample = {
  data: [
    { fnr: '30435h', name: 'Müller Bau GmbH', city: 'Wien', isActive: true, matchedOn: 'name', matchedName: 'Müller Bau GmbH' },
    { fnr: '155021y', name: 'Müller Baustoffe Handels GmbH', city: 'Wiener Neustadt', isActive: true, matchedOn: 'name', matchedName: 'Müller Baustoffe Handels GmbH' },
    { fnr: '98231h', name: 'Mueller Bauträger GmbH in Liqu.', city: 'Linz', isActive: false, matchedOn: 'name', matchedName: 'Mueller Bauträger GmbH in Liqu.' },
    { fnr: '402287z', name: 'Korneuburger Werftareal Projektentwicklungs GmbH', city: 'Korneuburg', isActive: true, matchedOn: 'formerName', matchedName: 'Müller Bau Korneuburg GmbH' },
  ],
  pageNumber: 1, pageSize: 10, totalRecords: 4, totalPages: 1,
};

const namesByNumberExample = {
  data: [
    { fnr: '30435h', name: 'Müller Bau GmbH', city: 'Wien', isActive: true, matchedOn: 'fnr', matchedName: 'Müller Bau GmbH' },
    { fnr: '304350z', name: 'Donautal Logistik AG', city: 'Linz', isActive: true, matchedOn: 'fnr', matchedName: 'Donautal Logistik AG' },
  ],
  pageNumber: 1, pageSize: 10, totalRecords: 2, totalPages: 1,
};

const NameHitRow = z.object({
  fnr: z.string(), name: z.string().meta({ description: 'Current name.' }), city: z.string().nullable(), isActive: z.boolean(),
  matchedOn: z.enum(['name', 'formerName', 'fnr', 'word', 'fuzzy']).meta({
    description: 'Why the company matched: `name` the current name is the term or starts with it (legal form and umlaut spelling aside); ' +
      '`word` a later word of the current name starts with it; `formerName` a former name does; `fnr` the term is the company number or its start; ' +
      '`fuzzy` the current name is one typo (or a misspelt legal form) away.',
  }),
  matchedName: z.string().meta({ description: 'The name that matched: the former name for `formerName`, else the current name.' }),
});

const similarExample = {
  data: [
    { ...korneuburgRow, similarity: 0.914 },
    {
      fnr: '211904z', name: 'Steirische Hochbau GmbH', legalForm: GES, court: LG_GRAZ, city: 'Graz', zipCode: '8010', isActive: true,
      isScheinunternehmen: false, hasEdikt: true, keyFigures: GRAZ_2024, similarity: 0.702,
    },
  ],
  pageNumber: 1, pageSize: 2, totalRecords: 50, totalPages: 25,
};

const resolveNamesRequestExample = {
  names: ['Müller Bau GmbH', 'Mueller Bau Gesellschaft m.b.H.', 'Müller Bau Korneuburg GmbH', 'Korneuburger Werftareal Projektentwickl.', 'Huber & Gruber', 'Beispiel Firma XY'],
};

const resolveNamesResponseExample = [
  {
    name: 'Müller Bau GmbH', fnr: '30435h', matchedName: 'Müller Bau GmbH', score: 1, match: 'exact',
    candidates: [{ fnr: '30435h', name: 'Müller Bau GmbH', score: 1 }, { fnr: '155021y', name: 'Müller Baustoffe Handels GmbH', score: 0.583 }],
  },
  {
    name: 'Mueller Bau Gesellschaft m.b.H.', fnr: '30435h', matchedName: 'Müller Bau GmbH', score: 1, match: 'exact',
    candidates: [{ fnr: '30435h', name: 'Müller Bau GmbH', score: 1 }],
  },
  {
    name: 'Müller Bau Korneuburg GmbH', fnr: '402287z', matchedName: 'Müller Bau Korneuburg GmbH', score: 1, match: 'exact',
    candidates: [{ fnr: '402287z', name: 'Korneuburger Werftareal Projektentwicklungs GmbH', score: 1 }],
  },
  {
    name: 'Korneuburger Werftareal Projektentwickl.', fnr: '402287z', matchedName: 'Korneuburger Werftareal Projektentwicklungs GmbH',
    score: 0.857, match: 'probable', candidates: [{ fnr: '402287z', name: 'Korneuburger Werftareal Projektentwicklungs GmbH', score: 0.857 }],
  },
  {
    name: 'Huber & Gruber', fnr: '45678z', matchedName: 'Huber & Gruber OG', score: 0.625, match: 'review',
    candidates: [{ fnr: '45678z', name: 'Huber & Gruber OG', score: 0.625 }, { fnr: '1001y', name: 'Huber Holz GmbH', score: 0.412 }],
  },
  { name: 'Beispiel Firma XY', fnr: null, matchedName: null, score: 0.214, match: 'none', candidates: [{ fnr: '512309x', name: 'Beispiel Handels GmbH', score: 0.214 }] },
];

const ResolvedName = z.object({
  name: z.string(), fnr: z.string().nullable(), matchedName: z.string().nullable(), score: z.number(),
  match: z.enum(['exact', 'probable', 'review', 'none']), candidates: z.array(z.object({ fnr: z.string(), name: z.string(), score: z.number() })),
});

export function registerBusinessesDocs(registry: OpenAPIRegistry): void {
  const example = (name: string, summary: string, value: unknown) => registerExample(registry, name, summary, value);
  const tags = [TAGS.companies.name];
  registerJsonGet(registry, '/businesses', tags, 'Screener over every company', screenerQuery, pageOf(z.union([ScreenerRow, SparseScreenerRow])), {
    operationId: 'searchCompanies',
    request: '/businesses?legalFormCode=GES&guv.Umsatzerloese_gte=1000000&orderBy=guv.Umsatzerloese&orderByDescending=true&pageSize=2',
    description: 'Filter every company by register data and the 47 figures of its latest filing (GET /keyfigures), sort and page. ' +
      'Figures are stored as filed: expenses are negative, so filter them with `_lte` and a negative bound (`guv.Personalaufwand_lte=-1000000`). ' +
      'All filters combine with AND. A range filter never matches a company whose figure is null. Sorting by a figure puts companies without it last in both directions, ties by fnr; orderBy=name sorts by name alone, active and deleted mixed (names compared as folded for search: lower case, ä = ae, punctuation as a space), ties by fnr in the same direction; without orderBy: active first, then by name. orderByDescending defaults to false. countOnly answers data: [] with the true totals.',
    examples: {
      ...example('ScreenerPage', 'legalFormCode=GES&guv.Umsatzerloese_gte=1000000&orderBy=guv.Umsatzerloese&orderByDescending=true&pageSize=2', screenerPageExample),
      ...example('ScreenerCountOnly', 'The same query with countOnly=true', { data: [], pageNumber: 1, pageSize: 10, totalRecords: 1873, totalPages: 188 }),
      ...example('ScreenerFields', 'The same query with fields=name,city,guv.Umsatzerloese,employees: rows carry only those parts', sparsePageExample),
    },
  });
  registerJsonGet(registry, '/businesses/count', tags, 'Count of screener matches', countQuery, z.object({ count: z.int() }), {
    operationId: 'countCompanies', request: '/businesses/count?legalFormCode=GES&guv.Umsatzerloese_gte=1000000',
    description: 'How many companies the screener\'s filters match, as `{ count }`: the same filter parameters as GET /businesses ' +
      '(orderBy and orderByDescending are accepted and change nothing; there is no paging).',
    examples: example('BusinessCount', 'legalFormCode=GES&guv.Umsatzerloese_gte=1000000', { count: 1873 }),
  });
  registerJsonGet(registry, '/businesses/names', tags, 'Name autocomplete over current and former names', namesQuery, pageOf(NameHitRow), {
    operationId: 'autocompleteCompanyNames', request: '/businesses/names?search=mueller%20bau',
    description: 'From the first letter on: a term of one or two letters already finds names that start with it and names with a later word that does. ' +
      'Ranking: the company whose number the term is > exact name > name prefix > other numbers starting with the term (in fnr order) > word prefix > former name > fuzzy, ' +
      'active before deleted; ä = ae, legal-form suffixes ignored. A company number is recognised as users type it: with or without check letter, ' +
      '`FN` prefix, spaces and leading zeros (`FN 030435 h`, `30435H`, `3043`). Each hit says why it matched (`matchedOn`, `matchedName`). ' +
      'At most 200 candidates: `totalRecords` counts all of them up to 200 (not just those on the page), so `totalPages` tells how far paging goes.',
    examples: {
      ...example('BusinessNames', 'search=mueller bau: umlaut spellings match, active companies first, a former name last', namesExample),
      ...example('BusinessNamesByNumber', 'search=FN 30435: the company with that number, then those whose number continues it', namesByNumberExample),
    },
  });
  registerJsonGet(registry, '/businesses/{fnr}/similar', tags, 'Companies similar in industry, size and region', similarQuery,
    pageOf(ScreenerRow.extend({ similarity: z.number().meta({ description: '0.5 industry + 0.3 size + 0.2 region, 0..1' }) })), {
      operationId: 'findSimilarCompanies', request: '/businesses/30435h/similar?pageSize=2',
      description: 'Companies most like this one, most similar first (the company itself is not listed): similarity = 0.5 industry ' +
        '(deepest shared ÖNACE level of the derived codes, subclass 1.0 down to section 0.2) + 0.3 size (revenue, balance-sheet total and ' +
        'employees, where both report them) + 0.2 region (same municipality 1, same state 0.5). Companies without an industry code are ' +
        'compared with companies of the same legal form in the same state. An unknown fnr is a 404.',
      params: fnrPath, problems: [400, 404], examples: example('SimilarCompanies', 'Companies similar to 30435h (pageSize=2)', similarExample),
    });
  const { probable, review } = RESOLVE_THRESHOLDS;
  registry.registerPath({
    method: 'post', path: '/businesses/resolve-names', tags, summary: 'Company names in, company numbers out', operationId: 'resolveCompanyNames',
    ...curlSample('POST', '/businesses/resolve-names', { body: { names: resolveNamesRequestExample.names.slice(0, 2) } }),
    description: 'Each name gets its best candidate and a label from it, on the `score` as answered (0..1, three decimals): ' +
      '`exact` when the name without its legal form (umlauts spelled either way, case and punctuation ignored) equals the candidate\'s current name ' +
      'or one of its former names (`matchedName` then is that former name), or the score is 1 (a misspelt legal form over an exact name); ' +
      `\`probable\` when ${probable} <= score < 1; \`review\` when ${review} <= score < ${probable}; \`none\` below ${review} or without a candidate (\`fnr\` and \`matchedName\` null). ` +
      'So a score of 1 is always `exact`. Other scores are the trigram similarity of the names (a typo: of the names without legal form). ' +
      'Candidates: up to 5, best first, with their scores.',
    request: {
      body: {
        required: true,
        content: requestJsonContent(resolveNamesBody, example('ResolveNamesRequest', 'Names as they appear in a customer list', resolveNamesRequestExample)),
      },
    },
    responses: {
      200: {
        description: 'One answer per name, in input order',
        content: jsonContent(z.array(ResolvedName), example('ResolveNamesResponse', 'Every match band: exact (also across umlaut and legal-form spellings, and on a former name), probable, review, none', resolveNamesResponseExample)),
      },
      ...problemResponses(400, 415), ...accessResponses(),
    },
  });
}
