// Catalogue tools: the codes the other tools take and answer, with their names
// (api/operations/catalogues.ts, keyFigures.ts).
import {
  catalogueQuery, listAssignmentFunctions, listCities, listCourts, listLegalForms, listLocations, listOenaceClasses, listZipCodes, oenaceQuery,
} from '../../operations/catalogues.js';
import { keyFigurePage, keyFigureQuery } from '../../operations/keyFigures.js';
import { defineTool, pageSummary, READ_ONLY, type ToolDefinition } from '../toolDefinition.js';
import { toolInput } from '../toolInput.js';

const PAGING = 'Paged: `page` from 1, `pageSize` default 10 (at most 1000).';

/** The catalogues by the name a model passes, with the REST operation each runs. */
const CATALOGUES = {
  legalforms: { operationId: 'listLegalForms', list: listLegalForms, noun: 'legal forms' },
  courts: { operationId: 'listCourts', list: listCourts, noun: 'courts' },
  functions: { operationId: 'listAssignmentFunctions', list: listAssignmentFunctions, noun: 'function codes' },
  cities: { operationId: 'listCities', list: listCities, noun: 'cities' },
  zipcodes: { operationId: 'listZipCodes', list: listZipCodes, noun: 'zip codes' },
  locations: { operationId: 'listLocations', list: listLocations, noun: 'locations' },
} as const;
type CatalogueName = keyof typeof CATALOGUES;
const CATALOGUE_NAMES = Object.keys(CATALOGUES) as CatalogueName[];

const catalogueTool = defineTool({
  name: 'list_catalogue',
  title: 'Code catalogues',
  description: 'Look up codes the other tools use: `legalforms` (legalFormCode: GES = GmbH, AG, KG, ...), `courts` (courtCode, ' +
    'the register courts), `functions` (functionCode: GF managing director, PR procurator, ...), `cities` (municipalities with their ' +
    'zip codes), `zipcodes`, `locations` (places with coordinates). `search` matches code or name. ' + PAGING,
  operations: Object.values(CATALOGUES).map((c) => c.operationId),
  annotations: READ_ONLY,
  input: toolInput({ path: { catalogue: { description: 'Which catalogue.', enum: CATALOGUE_NAMES } }, query: catalogueQuery }),
  run: (ctx, { path, query }) => CATALOGUES[path.catalogue as CatalogueName].list(ctx.sql, query),
  summary: pageSummary('entries'),
});

const oenaceTool = defineTool({
  name: 'list_oenace_classes',
  title: 'Industry classes (ÖNACE)',
  description: 'The Austrian industry classification ÖNACE (2008 by default, the codes companies carry; 2025 on request), ' +
    'searchable by code or German or English title; `level` 1 section (F) to 5 subclass (F 41.20-1). Use a code as `oenaceCode` ' +
    'in search_companies (it matches the code and everything below it). ' + PAGING,
  operations: ['listOenaceClasses'],
  annotations: READ_ONLY,
  input: toolInput({ query: oenaceQuery }),
  run: (ctx, { query }) => listOenaceClasses(ctx.sql, query),
  summary: pageSummary('classes'),
});

const keyFiguresTool = defineTool({
  name: 'list_key_figures',
  title: 'Key figures explained',
  description: 'The 47 financial key figures of search_companies and get_company: parameter name (for `_gte`/`_lte` filters and ' +
    '`orderBy`), JSON key in answers, meaning in German and English, unit (EUR or persons), sign as filed (expenses are negative: ' +
    '`signConvention` says how to filter them), a filter example and the position in the UGB layout. Filter by `group` (bilanz, guv, ' +
    'employees), `sign` or `search`. ' + PAGING,
  operations: ['listKeyFigures'],
  annotations: READ_ONLY,
  input: toolInput({ query: keyFigureQuery }),
  run: (_ctx, { query }) => Promise.resolve(keyFigurePage(query)),
  summary: pageSummary('figures'),
});

export const CATALOGUE_TOOLS: ToolDefinition[] = [catalogueTool, oenaceTool, keyFiguresTool];
