// Company tools: the screener, its count, the profile, similar companies, name resolution and
// autocomplete (api/operations/companies.ts, companyProfile.ts).
import { KEY_FIGURES, figureParam, figureUnit, type KeyFigureDefinition } from '../../../schemas/keyFigures.js';
import { getCompanyProfile } from '../../operations/companyProfile.js';
import {
  autocompleteCompanyNames, countCompanies, countQuery, findSimilarCompanies, namesQuery, parseResolveNames, resolveCompanyNames,
  resolveNamesBody, screenerPage, screenerQuery, searchCompanies, similarQuery,
} from '../../operations/companies.js';
import { withJson } from '../toolCalls.js';
import { defineTool, pageSummary, READ_ONLY, type ToolDefinition } from '../toolDefinition.js';
import { toolInput } from '../toolInput.js';

const FNR = { description: 'Company number (Firmenbuchnummer) as the other tools return it, e.g. `30435h`.', example: '30435h' };

/** What the figures are and how to read them; said once here rather than on each of the 94 range parameters. */
const FIGURES_GUIDE =
  'Key figures come from the latest annual accounts filed with the register: `bilanz.*` balance sheet, `guv.*` profit and loss ' +
  '(EUR), `employees` average headcount (persons). Filter any of the 47 with `<figure>_gte` / `<figure>_lte` (plain numbers, EUR or ' +
  'persons); list_key_figures explains each. Amounts keep the sign they were filed with: expenses (guv.Materialaufwand, ' +
  'guv.Personalaufwand, guv.Abschreibungen, ...) are NEGATIVE, so "personnel expense above 1 million" is `guv.Personalaufwand_lte: -1000000`; ' +
  'results and equity can be either sign. In the answer a figure of null means "not reported": small companies file a short balance sheet ' +
  'without a profit and loss account, so revenue is often null; a company without the figure never matches its filter. ' +
  '`keyFigures.documentDate` is the balance-sheet date the figures are for: they can be years old, so say which year you quote.';

const PAGING_GUIDE = 'Paged: `page` from 1, `pageSize` default 10 (at most 1000; keep it small and pick columns with `fields`). ' +
  'The answer is `{ data, pageNumber, pageSize, totalRecords, totalPages }`; totalRecords counts every match.';

function rangeDescription(f: KeyFigureDefinition, bound: 'gte' | 'lte'): string {
  const sign = f.sign === 'negative' ? ' Negative as filed: large ones are _lte a negative bound.' : f.sign === 'signed' ? ' Can be negative.' : '';
  const unit = figureUnit(f) === 'EUR' ? 'EUR' : 'persons';
  return bound === 'gte' ? `Minimum: ${f.label} (${f.labelDe}), ${unit}.${sign}` : `Maximum: ${f.label}, ${unit}.${sign}`;
}

const SCREENER_DESCRIPTIONS: Record<string, string> = {
  ...Object.fromEntries(KEY_FIGURES.flatMap((f) => [[`${figureParam(f)}_gte`, rangeDescription(f, 'gte')], [`${figureParam(f)}_lte`, rangeDescription(f, 'lte')]])),
  orderBy: '`name`, or a figure parameter (`guv.Umsatzerloese`, `bilanz.BilanzSumme`, `employees`, ...) to sort by that figure. ' +
    'Without it: active companies first, then by name. Expenses are negative as filed: sort them ascending for the largest first.',
  fields: 'Comma-separated columns to return (fnr always comes): name, legalForm, court, city, zipCode, isActive, isScheinunternehmen, ' +
    'hasEdikt, keyFigures (all 47), documentDate, or figure parameters such as `guv.Umsatzerloese,employees`. Without it: whole rows.',
};

/** count_companies takes the same filters: described once, at search_companies, which a model sees beside it. */
const COUNT_DESCRIPTIONS: Record<string, string> = {
  ...Object.fromEntries(KEY_FIGURES.flatMap((f) => [[`${figureParam(f)}_gte`, `Minimum of ${figureParam(f)}.`], [`${figureParam(f)}_lte`, `Maximum of ${figureParam(f)}.`]])),
  orderBy: 'As in search_companies (it does not change the count).',
};

const searchCompaniesTool = defineTool({
  name: 'search_companies',
  title: 'Search companies (screener)',
  description:
    'Find Austrian companies in the company register (Firmenbuch) by name, place, legal form, register court, industry (ÖNACE), ' +
    'trade licence, status and key financial figures; sort by name or by a figure. Each row: fnr (company number; get_company gives ' +
    'the full profile), name, legalForm, court, city, zipCode, isActive, isScheinunternehmen (on the finance ministry\'s list of bogus ' +
    'companies), hasEdikt (an open insolvency or other court notice) and keyFigures. ' + FIGURES_GUIDE + ' ' + PAGING_GUIDE +
    ' Use count_companies when only the number matters, resolve_company_names to turn names into company numbers. No match: drop one filter at a time.',
  operations: ['searchCompanies'],
  annotations: READ_ONLY,
  input: toolInput({ query: screenerQuery, descriptions: SCREENER_DESCRIPTIONS }),
  async run(ctx, { query }) {
    // The backend's JSON of the page (the REST body) as the answer's text: it is not written again,
    // nor parsed back unless the SDK serializes the structured content (screenerPage).
    const result = await searchCompanies(ctx, query);
    return withJson(screenerPage(result, query), result.json().toString('utf8'));
  },
  summary: pageSummary('companies match'),
});

const countCompaniesTool = defineTool({
  name: 'count_companies',
  title: 'Count companies',
  description: 'How many companies match the filters of search_companies (the same parameters, described there, without paging): ' +
    '`{ count }`. Figure bounds are in EUR (employees: persons), expenses negative as filed.',
  operations: ['countCompanies'],
  annotations: READ_ONLY,
  input: toolInput({ query: countQuery, descriptions: COUNT_DESCRIPTIONS }),
  run: (ctx, { query }) => countCompanies(ctx, query),
  summary: (data) => `${data.count} companies match.`,
});

const getCompanyTool = defineTool({
  name: 'get_company',
  title: 'Company profile',
  description:
    'The full register profile of one company by its company number (fnr): names (current and former), legal form, court, status, ' +
    'addresses, capital, business purpose, industry codes (ÖNACE; derived ones carry a confidence), register entries, officers and their ' +
    'functions (managing directors, procurators, board members, with personId for get_person), shareholders with capital and share, ' +
    'annual accounts with their figures (documentDate = the balance-sheet date; figures null = not reported), filed documents, court ' +
    'notices, bogus-company listings and trade licences. Large: ask for one company at a time.',
  operations: ['getCompanyProfile'],
  annotations: READ_ONLY,
  input: toolInput({ path: { fnr: FNR } }),
  run: (ctx, { path }) => getCompanyProfile(ctx.sql, path.fnr!),
  summary: (data) => `${String(data.name)} (FN ${String(data.fnr)}).`,
});

const similarCompaniesTool = defineTool({
  name: 'find_similar_companies',
  title: 'Similar companies',
  description: 'Companies most like the given one, best first: similarity 0 to 1 = 0.5 x shared industry code (ÖNACE depth) + ' +
    '0.3 x size (revenue, balance-sheet total, employees) + 0.2 x region. Each row is a screener row (see search_companies) plus `similarity`. ' + PAGING_GUIDE,
  operations: ['findSimilarCompanies'],
  annotations: READ_ONLY,
  input: toolInput({ path: { fnr: FNR }, query: similarQuery }),
  run: (ctx, { path, query }) => findSimilarCompanies(ctx.sql, path.fnr!, query),
  summary: pageSummary('similar companies'),
});

const resolveNamesTool = defineTool({
  name: 'resolve_company_names',
  title: 'Company names to company numbers',
  description: 'Match company names as written anywhere (a spreadsheet, an invoice, a sentence) to register companies, up to 1000 ' +
    'names in one call. For each name in order: `fnr` of the best match (null when none is good enough), `matchedName`, `score` ' +
    '(0 to 1), `match` (exact, probable, review = check it yourself, none) and up to 5 `candidates`. Answer `{ data: [...] }`, one entry per name.',
  operations: ['resolveCompanyNames'],
  annotations: READ_ONLY,
  input: toolInput({ body: { schema: resolveNamesBody, parse: parseResolveNames }, descriptions: { names: 'Company names, 1 to 1000, each at most 500 characters.' } }),
  run: async (ctx, { body }) => ({ data: await resolveCompanyNames(ctx.sql, body) }),
  summary: (data) => `${data.data.length} names resolved.`,
});

const autocompleteTool = defineTool({
  name: 'autocomplete_company_names',
  title: 'Company name autocomplete',
  description: 'Companies whose current or former name (any word of it) or company number starts with what was typed, best ' +
    'match first (exact, prefix, word start). For a free-text name use resolve_company_names; for filters, search_companies. ' + PAGING_GUIDE,
  operations: ['autocompleteCompanyNames'],
  annotations: READ_ONLY,
  input: toolInput({ query: namesQuery }),
  run: (ctx, { query }) => autocompleteCompanyNames(ctx, query),
  summary: pageSummary('names match'),
});

export const COMPANY_TOOLS: ToolDefinition[] = [searchCompaniesTool, countCompaniesTool, getCompanyTool, similarCompaniesTool, resolveNamesTool, autocompleteTool];
