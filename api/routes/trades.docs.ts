// OpenAPI entries of the trade register (trades.ts): the catalogue, the licences of a trade and of a
// company, and the signed extract; the licence record is shared with the profiles.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { accessResponses, curlSample, fnrPath, nullableString, pageOf, problemResponses, registerExample, registerJsonGet, TAGS } from '../openapi/common.js';
import { companyLicensesQuery, tradeLicensesQuery, tradesQuery } from '../operations/trades.js';
import { EXTRACT_PENDING, extractQuery, GISA_UNAVAILABLE } from './trades.js';

export const TradeLicense = z
  .object({
    gisaZahl: z.string().meta({ description: 'Number of the licence in the trade register (GISA-Zahl).' }),
    fnr: nullableString.meta({ description: 'The company holding it: a legal person, or the registered firm of a sole trader.' }),
    tradeKey: nullableString, wording: nullableString.meta({ description: 'The scope as granted (Gewerbewortlaut).' }),
    kind: nullableString.meta({ description: 'Kind of trade from the catalogue: `reglementiert`, `frei`.' }),
    authority: z.object({ code: nullableString, text: nullableString }).meta({ description: 'The trade authority (Gewerbebehörde).' }),
    effectiveFrom: nullableString, endedOn: nullableString,
    isActive: z.boolean().meta({ description: 'Not ended. Dormant licences are still held, so they are active.' }),
    isDormant: z.boolean(), dormantFrom: nullableString, dormantUntil: nullableString,
    holder: z.object({ type: z.enum(['legal', 'natural']), name: nullableString, fnr: nullableString }),
    location: z.object({ street: nullableString, zipCode: nullableString, city: nullableString }),
    manager: z.object({
      name: z.string(),
      personId: nullableString.meta({ description: 'Set where the company register names a person of this name and birth date.' }),
    }).nullable().meta({ description: 'The managing director under trade law (gewerberechtlicher Geschäftsführer).' }),
  })
  .meta({ id: 'TradeLicense' });

export const tradeLicenseExample = {
  gisaZahl: '100000054', fnr: '33918f', tradeKey: '290500', wording: 'Baumeister', kind: 'reglementiert',
  authority: { code: '324', text: 'Bezirkshauptmannschaft St. Pölten' }, effectiveFrom: '1995-09-01', endedOn: null, isActive: true,
  isDormant: false, dormantFrom: null, dormantUntil: null,
  holder: { type: 'legal', name: 'Wienerwald Bau- und Handelsgesellschaft m.b.H.', fnr: '33918f' },
  location: { street: 'Wiener Straße 12', zipCode: '3002', city: 'Purkersdorf' },
  manager: { name: 'Gerhard Leitner', personId: 'gerhard-leitner-1966-02-21' },
};
const endedExample = {
  ...tradeLicenseExample, gisaZahl: '100000078', tradeKey: '820100', wording: 'Holzbau-Meister', effectiveFrom: '2012-02-01', endedOn: '2024-03-31',
  isActive: false, manager: null,
};

export function registerTradeDocs(registry: OpenAPIRegistry): void {
  const example = (name: string, summary: string, value: unknown) => registerExample(registry, name, summary, value);
  const tags = [TAGS.trades.name];
  registerJsonGet(registry, '/trades', tags, 'Trade catalogue', tradesQuery,
    pageOf(z.object({ tradeKey: z.string(), name: z.string(), kind: nullableString, licenseCount: z.int().meta({ description: 'Licences with this key the service holds (ended ones included).' }) })), {
      operationId: 'listTrades', request: '/trades?search=baumeister',
      description: 'The trade catalogue: GISA trade keys merged with the regulated trades of GewO 1994 § 94. With `search`: the key or the exact name first, then names starting with it, then names with a word starting with it, then near spellings; umlaut spellings fold (ä = ae).',
      examples: example('TradesPage', 'search=baumeister', {
        data: [{ tradeKey: '290500', name: 'Baumeister, Brunnenmeister', kind: 'reglementiert', licenseCount: 2 }],
        pageNumber: 1, pageSize: 10, totalRecords: 1, totalPages: 1,
      }),
    });
  registerJsonGet(registry, '/trades/{tradeKey}/licenses', tags, 'Licences of one trade', tradeLicensesQuery, pageOf(TradeLicense), {
    operationId: 'listTradeLicenses', request: '/trades/290500/licenses?active=true',
    params: z.object({ tradeKey: z.string().meta({ description: 'The trade key (digits), as GET /trades lists it.', example: '290500' }) }), problems: [400, 404],
    description: 'The licences the service holds for this trade, in GISA-Zahl order: those of companies in the company register and those the '
      + 'persons it names hold themselves. GISA forbids bulk listing, so licences of people the company register never names cannot be found '
      + 'and are not here. `active=true` keeps licences not ended (dormant ones included). An unknown trade key is a 404.',
    examples: example('TradeLicensesPage', 'tradeKey=290500', { data: [tradeLicenseExample], pageNumber: 1, pageSize: 10, totalRecords: 1, totalPages: 1 }),
  });
  registerJsonGet(registry, '/trades/company/{fnr}', tags, 'Licences of one company', companyLicensesQuery, pageOf(TradeLicense), {
    operationId: 'listCompanyLicenses', request: '/trades/company/33918f',
    params: fnrPath, problems: [400, 404],
    description: 'The trade licences the company holds (GISA). Current licences first, then ended ones, each group most recently effective first.',
    examples: example('CompanyLicensesPage', 'fnr=33918f', { data: [tradeLicenseExample, endedExample], pageNumber: 1, pageSize: 10, totalRecords: 2, totalPages: 1 }),
  });
  registry.registerPath({
    method: 'get', path: '/trades/documents/{gisaZahl}', tags, summary: 'Signed trade extract (PDF)', operationId: 'getTradeExtract',
    ...curlSample('GET', '/trades/documents/100000054?language=en', { output: 'GISA-100000054-en.pdf' }),
    description: 'The officially signed extract (Gewerbeauszug) of one licence, of today: a stored one, or fetched from GISA by an extract '
      + 'job (GISA allows 10 a minute). Identical requests share one job. A request waits up to 25 s; after that it answers 503 with '
      + 'Retry-After while the job goes on, and a later request gets the stored extract.',
    request: {
      params: z.object({ gisaZahl: z.string().meta({ description: 'The licence\'s number in the trade register (GISA-Zahl), as licences carry it.', example: '100000054' }) }),
      query: extractQuery,
    },
    responses: {
      200: { description: 'The extract', content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } } },
      503: {
        description: 'GISA cannot be reached, or the extract is still being made; retry after Retry-After seconds',
        headers: { 'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'integer' } } },
        content: { 'text/plain': { schema: z.enum([GISA_UNAVAILABLE, EXTRACT_PENDING]) } },
      },
      ...problemResponses(400, 404), ...accessResponses(),
    },
  });
}
