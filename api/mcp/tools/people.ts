// People tools: search, name autocomplete and the person profile (api/operations/people.ts).
import { autocompletePersonNames, getPersonProfile, peopleNamesQuery, peopleQuery, searchPeople } from '../../operations/people.js';
import { defineTool, pageSummary, READ_ONLY, type ToolDefinition } from '../toolDefinition.js';
import { toolInput } from '../toolInput.js';

const PAGING = 'Paged like every list: `page` from 1, `pageSize` default 10 (at most 1000); `{ data, pageNumber, pageSize, totalRecords, totalPages }`.';

const searchPeopleTool = defineTool({
  name: 'search_people',
  title: 'Search people',
  description: 'People in the company register (officers, partners, shareholders who are natural persons) by first and last name ' +
    '(starts with, case-insensitive), function code (GF managing director, PR procurator, ...; list_catalogue "functions"), company ' +
    'name or company number. Each: personId (for get_person and get_company_network), names, birth date and their functions with the ' +
    'companies. Registers hold no address or contact data of people. ' + PAGING,
  operations: ['searchPeople'],
  annotations: READ_ONLY,
  input: toolInput({ query: peopleQuery }),
  run: (ctx, { query }) => searchPeople(ctx.sql, query),
  summary: pageSummary('people match'),
});

const autocompletePeopleTool = defineTool({
  name: 'autocomplete_person_names',
  title: 'Person name autocomplete',
  description: 'People whose full name (`andrea mü`) or last name starts with the term, ordered by name, with personId and birth date. ' + PAGING,
  operations: ['autocompletePersonNames'],
  annotations: READ_ONLY,
  input: toolInput({ query: peopleNamesQuery }),
  run: (ctx, { query }) => autocompletePersonNames(ctx.sql, query),
  summary: pageSummary('people match'),
});

const getPersonTool = defineTool({
  name: 'get_person',
  title: 'Person profile',
  description: 'One person by personId: names, titles, birth date, every registered function (company, function, since, until, ' +
    'current or not), open court notices (`openNotices`: their own insolvency proceedings, relation "debtor", and those of companies ' +
    'they hold a current function in, relation "company") and the trade licences they hold as a sole trader. An id spelled in ASCII ' +
    '(`andrea-mueller-...`) finds the person it spells; the answer\'s personId is the canonical one.',
  operations: ['getPersonProfile'],
  annotations: READ_ONLY,
  input: toolInput({ path: { personId: { description: 'The personId from search_people, get_company or a graph (name and birth date, e.g. `andrea-müller-1972-04-18`).', example: 'andrea-müller-1972-04-18' } } }),
  run: (ctx, { path }) => getPersonProfile(ctx.sql, path.personId!),
  summary: (data) => `${[data.firstName, data.lastName].filter(Boolean).join(' ')}: ${data.functions.length} functions, ${data.openNotices.length} open court notices.`,
});

export const PEOPLE_TOOLS: ToolDefinition[] = [searchPeopleTool, autocompletePeopleTool, getPersonTool];
