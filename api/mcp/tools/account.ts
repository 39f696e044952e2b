// Tools over the signed-in account's own records: saved queries and company lists
// (api/operations/savedQueries.ts, lists.ts). The account is the OAuth grant's.
import { changeListMembers, CreateList, createAccountList, deleteAccountList, getAccountList, listAccountLists, ListMembers } from '../../operations/lists.js';
import { deleteAccountQuery, getAccountQuery, listAccountQueries, parseSaveQuery, saveAccountQuery, SaveQuery } from '../../operations/savedQueries.js';
import { idParams, parseBody, parseParams } from '../../validation.js';
import { defineTool, type ToolDefinition } from '../toolDefinition.js';
import { toolInput } from '../toolInput.js';

const READ = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const DELETE = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
const queryId = { id: { description: 'The saved query\'s id (a UUID) from list_saved_queries.' } };
const listId = { id: { description: 'The list\'s id (a UUID) from list_company_lists.' } };

const listQueriesTool = defineTool({
  name: 'list_saved_queries',
  title: 'Your saved queries',
  description: 'The screener queries saved in your account (on the dashboard or with save_query), newest first: id, name and ' +
    '`filters` (search_companies parameters; pass them to search_companies to run the query). Answer `{ data: [...] }`.',
  operations: ['listSavedQueries'],
  annotations: READ,
  input: toolInput({}),
  run: async (ctx) => ({ data: await listAccountQueries(ctx.sql, ctx.accountId) }),
  summary: (data) => `${data.data.length} saved queries.`,
});

const getQueryTool = defineTool({
  name: 'get_saved_query',
  title: 'One saved query',
  description: 'One of your saved queries by id, with its filters (run them with search_companies).',
  operations: ['getSavedQuery'],
  annotations: READ,
  input: toolInput({ path: queryId }),
  run: (ctx, { path }) => getAccountQuery(ctx.sql, ctx.accountId, parseParams(idParams, path).id),
  summary: (data) => `Saved query ${data.name ?? data.id}.`,
});

const saveQueryTool = defineTool({
  name: 'save_query',
  title: 'Save a query',
  description: 'Save screener filters to your account (they show on the dashboard). `filters` holds search_companies parameters ' +
    'by their exact names, without page, pageSize, countOnly and fields. Saving filters you already saved updates that record; ' +
    '`updateId` edits a given record instead.',
  operations: ['saveQuery'],
  annotations: WRITE,
  input: toolInput({ body: { schema: SaveQuery, parse: parseSaveQuery } }),
  run: (ctx, { body }) => saveAccountQuery(ctx.sql, ctx.accountId, body),
  summary: (data) => `Saved query ${data.id}.`,
});

const deleteQueryTool = defineTool({
  name: 'delete_saved_query',
  title: 'Delete a saved query',
  description: 'Delete one of your saved queries by id. Cannot be undone.',
  operations: ['deleteSavedQuery'],
  annotations: DELETE,
  input: toolInput({ path: queryId }),
  run: async (ctx, { path }) => {
    const { id } = parseParams(idParams, path);
    await deleteAccountQuery(ctx.sql, ctx.accountId, id);
    return { deleted: true, id };
  },
  summary: (data) => `Deleted saved query ${data.id}.`,
});

const listListsTool = defineTool({
  name: 'list_company_lists',
  title: 'Your company lists',
  description: 'The company lists of your account, oldest first: id, name, the member companies (`fnrs`, in list order), ' +
    'memberCount and removedFnrs. Answer `{ data: [...] }`.',
  operations: ['listLists'],
  annotations: READ,
  input: toolInput({}),
  run: async (ctx) => ({ data: await listAccountLists(ctx.sql, ctx.accountId) }),
  summary: (data) => `${data.data.length} lists.`,
});

const getListTool = defineTool({
  name: 'get_company_list',
  title: 'One company list',
  description: 'One of your company lists by id, with its member companies (fnrs; get_company or search_companies with `fnr` for details).',
  operations: ['getList'],
  annotations: READ,
  input: toolInput({ path: listId }),
  run: (ctx, { path }) => getAccountList(ctx.sql, ctx.accountId, parseParams(idParams, path).id),
  summary: (data) => `List ${data.name}: ${data.memberCount} companies.`,
});

const createListTool = defineTool({
  name: 'create_company_list',
  title: 'Create a company list',
  description: 'Create a company list in your account, empty or with companies (`fnrs`, up to 1000, kept in order). An fnr that names ' +
    'no company refuses the whole request, naming it.',
  operations: ['createList'],
  annotations: { ...WRITE, idempotentHint: false },
  input: toolInput({ body: { schema: CreateList, parse: (body) => parseBody(CreateList, body) } }),
  run: (ctx, { body }) => createAccountList(ctx.sql, ctx.accountId, body),
  summary: (data) => `Created list ${data.name} (${data.id}) with ${data.memberCount} companies.`,
});

const changeListTool = defineTool({
  name: 'change_company_list',
  title: 'Add or remove list companies',
  description: 'Add companies to one of your lists (`action` add; appended in the order given, ones already there stay where they are) ' +
    'or remove them (`action` remove). Up to 1000 fnrs; an fnr that names no company refuses the whole request.',
  operations: ['addListMembers', 'removeListMembers'],
  annotations: WRITE,
  input: toolInput({
    path: { ...listId, action: { description: '`add` or `remove`.', enum: ['add', 'remove'] } },
    body: { schema: ListMembers, parse: (body) => parseBody(ListMembers, body) },
  }),
  run: (ctx, { path, body }) => changeListMembers(ctx.sql, ctx.accountId, parseParams(idParams, { id: path.id! }).id, path.action as 'add' | 'remove', body),
  summary: (data) => `List ${data.name}: ${data.memberCount} companies.`,
});

const deleteListTool = defineTool({
  name: 'delete_company_list',
  title: 'Delete a company list',
  description: 'Delete one of your company lists by id (the companies themselves are untouched). Cannot be undone.',
  operations: ['deleteList'],
  annotations: DELETE,
  input: toolInput({ path: listId }),
  run: async (ctx, { path }) => {
    const { id } = parseParams(idParams, path);
    await deleteAccountList(ctx.sql, ctx.accountId, id);
    return { deleted: true, id };
  },
  summary: (data) => `Deleted list ${data.id}.`,
});

export const ACCOUNT_TOOLS: ToolDefinition[] = [
  listQueriesTool, getQueryTool, saveQueryTool, deleteQueryTool, listListsTool, getListTool, createListTool, changeListTool, deleteListTool,
];
