// Tools over the links and the other registers: the company/person network, the trade register
// (GISA), court notices (Ediktsdatei) and the change feeds (api/operations/graph.ts, trades.ts, changeFeeds.ts).
import { aggregatedChanges, aggregatedQuery, CHANGE_FEEDS, feedQuery, noticeChange, parseChangeId, readFeedPage, type FeedName } from '../../operations/changeFeeds.js';
import { getGraph, graphQuery, MAX_NODES } from '../../operations/graph.js';
import { companyLicensesQuery, listCompanyLicenses, listTradeLicenses, listTrades, tradeLicensesQuery, tradesQuery } from '../../operations/trades.js';
import { defineTool, pageSummary, READ_ONLY, type ToolDefinition } from '../toolDefinition.js';
import { toolInput } from '../toolInput.js';

const PAGING = 'Paged: `page` from 1, `pageSize` default 10 (at most 1000); `{ data, pageNumber, pageSize, totalRecords, totalPages }`.';
const FEED_NAMES = Object.keys(CHANGE_FEEDS) as FeedName[];

const graphTool = defineTool({
  name: 'get_company_network',
  title: 'Company and people network',
  description: 'The network around one company (`fnr`) or one person (`personId`), give exactly one: companies, people and ' +
    'organisations as nodes (`company:<fnr>`, `person:<personId>`), and current holdings (shares, with capital) and functions ' +
    `(managing director, board, partner, ...) as edges from the holder to the company. \`depth\` 1 to 3 links out. At most ${MAX_NODES} ` +
    'nodes: a larger network answers the first ones with `truncated: true`. Use it for ownership chains and who sits where.',
  operations: ['getGraph'],
  annotations: READ_ONLY,
  input: toolInput({ query: graphQuery }),
  run: (ctx, { query }) => getGraph(ctx.sql, query),
  summary: (data) => `${data.nodes.length} nodes, ${data.edges.length} edges${data.truncated ? ' (truncated)' : ''}.`,
});

const searchTradesTool = defineTool({
  name: 'search_trades',
  title: 'Trade catalogue',
  description: 'Trades (Gewerbe) of the Austrian trade register (GISA) by key or name (umlaut spellings fold, typos are found last), ' +
    'with kind (`reglementiert` = regulated, `frei` = free) and the number of licences. Use a tradeKey with list_trade_licences, or as ' +
    '`gisaLicenseKey` in search_companies. ' + PAGING,
  operations: ['listTrades'],
  annotations: READ_ONLY,
  input: toolInput({ query: tradesQuery }),
  run: (ctx, { query }) => listTrades(ctx.sql, query),
  summary: pageSummary('trades match'),
});

const tradeLicencesTool = defineTool({
  name: 'list_trade_licences',
  title: 'Licences of a trade',
  description: 'The licences (Gewerbeberechtigungen) of one trade, by GISA-Zahl: holder (fnr of the company, or the sole trader), ' +
    'wording, location, authority, since/ended. Filter by `active` and `zipCode`. ' + PAGING,
  operations: ['listTradeLicenses'],
  annotations: READ_ONLY,
  input: toolInput({ path: { tradeKey: { description: 'The trade key from search_trades (digits).', example: '290500' } }, query: tradeLicensesQuery }),
  run: (ctx, { path, query }) => listTradeLicenses(ctx.sql, path.tradeKey!, query),
  summary: pageSummary('licences'),
});

const companyLicencesTool = defineTool({
  name: 'get_company_licences',
  title: 'Trade licences of a company',
  description: 'The trade licences a company holds (GISA), current and ended, by its company number. ' + PAGING,
  operations: ['listCompanyLicenses'],
  annotations: READ_ONLY,
  input: toolInput({ path: { fnr: { description: 'Company number, e.g. `33918f`.', example: '33918f' } }, query: companyLicensesQuery }),
  run: (ctx, { path, query }) => listCompanyLicenses(ctx.sql, path.fnr!, query),
  summary: pageSummary('licences'),
});

const listChangesTool = defineTool({
  name: 'list_changes',
  title: 'Change feed',
  description: 'What changed in the registers, oldest first: `feed` business (company register entries), document (newly filed ' +
    'documents), edikt (court notices: insolvencies and other proceedings), trade (trade licences) or global (all in one sequence). ' +
    'Each change has an `id` (the cursor), type, fnr, recordedAt, action (created, updated, deleted) and changedFields. To follow a ' +
    'feed: pass the highest id seen as `sinceId`; `since` takes a date or timestamp; `fnr` narrows to one company. Paged: `page` 1 to ' +
    '1000, `pageSize` default 100; totalRecords stops at 1000 x pageSize.',
  operations: ['listCompanyChanges', 'listDocumentChanges', 'listNoticeChanges', 'listTradeChanges', 'listGlobalChanges'],
  annotations: READ_ONLY,
  input: toolInput({ path: { feed: { description: 'Which feed: business, document, edikt, trade or global.', enum: FEED_NAMES } }, query: feedQuery }),
  run: async (ctx, { path, query }) => JSON.parse((await readFeedPage(ctx.sql, CHANGE_FEEDS[path.feed as FeedName].type, query)).toString('utf8')) as {
    data: unknown[]; pageNumber: number; pageSize: number; totalRecords: number; totalPages: number;
  },
  summary: pageSummary('changes'),
});

const latestChangesTool = defineTool({
  name: 'get_latest_changes',
  title: 'Latest changes of every feed',
  description: 'The first `maxResultsPerType` changes (default 100, oldest first) since a moment, of the business, document and ' +
    'court-notice feeds and the global feed, in one answer: `{ businessChanges, documentChanges, ediktChanges, globalChanges }`.',
  operations: ['getAggregatedChanges'],
  annotations: READ_ONLY,
  input: toolInput({ query: aggregatedQuery }),
  run: (ctx, { query }) => aggregatedChanges(ctx.sql, query),
  summary: (data) => `${data.businessChanges.length} business, ${data.documentChanges.length} document, ${data.ediktChanges.length} court-notice, ${data.globalChanges.length} global changes.`,
});

const noticeTool = defineTool({
  name: 'get_court_notice',
  title: 'Court notice (by change id)',
  description: 'One court notice of the Ediktsdatei (insolvency, restructuring and other proceedings) as a change of the edikt feed ' +
    'left it: proceeding, court, case number (Aktenzeichen), debtor, publications and the link to a company with its confidence. ' +
    'Take the id from list_changes with feed "edikt". A company\'s current notices are in get_company, a person\'s in get_person.',
  operations: ['getNoticeChange'],
  annotations: READ_ONLY,
  input: toolInput({ path: { id: { description: 'The change id (an integer) from list_changes with feed "edikt".', example: '4711811' } } }),
  run: (ctx, { path }) => noticeChange(ctx.sql, ctx.log, parseChangeId(path.id)),
  summary: (data) => (data.notice ? `Court notice ${data.notice.ediktId} (${data.notice.aktenzeichen ?? 'no case number'}).` : 'The change recorded no court notice.'),
});

export const REGISTER_TOOLS: ToolDefinition[] = [graphTool, searchTradesTool, tradeLicencesTool, companyLicencesTool, listChangesTool, latestChangesTool, noticeTool];
