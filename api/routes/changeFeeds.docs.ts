// OpenAPI entries of the change feeds (changeFeeds.ts): the five feeds, the aggregated feed and one
// court-notice change, with the query schemas the routes validate with. In the examples one id names
// one change everywhere: 4711803 is the same change in /businesses/changes, in /globalchanges and in
// the aggregated answer.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { codeText, nullableString, pageOf, registerExample, registerJsonGet, TAGS } from '../openapi/common.js';
import { HG_WIEN } from '../openapi/exampleData.js';
import { aggregatedQuery, feedQuery } from '../operations/changeFeeds.js';

const ChangeEntry = z
  .object({
    id: z.int(), type: z.enum(['business', 'document', 'edikt', 'trade']), fnr: z.string().nullable(), recordedAt: z.string(),
    action: z.enum(['created', 'updated', 'deleted']), changedFields: z.array(z.string()),
    vnr: z.string().nullable().optional(), documentKey: z.string().optional(), ediktId: z.string().optional(), gisaZahl: z.string().optional(),
  })
  .meta({ id: 'ChangeEntry', description: 'A change; `id` is the cursor and names the same change in the typed and the global feed.' });

const CourtNotice = z
  .object({
    ediktId: z.string(), aktenzeichen: nullableString, court: codeText.nullable(), proceeding: codeText.nullable(),
    debtor: z.object({
      type: nullableString.meta({ description: "'J' legal person, 'N' natural person." }), name: nullableString,
      fnr: nullableString.meta({ description: 'The company the notice is asserted to concern (a link with confidence >= 0.9), if any.' }),
      personId: nullableString.meta({ description: 'A natural person with a published birth date: the personId of /people/{personId} (name and birth date).' }),
      address: z.object({ street: nullableString, zipCode: nullableString, city: nullableString }).nullable(),
    }),
    openedOn: nullableString, firstPublishedOn: nullableString, lastPublishedOn: nullableString,
    isOpen: z.boolean().nullable(), deletedAt: nullableString.meta({ description: 'When the register deleted the notice, if it has.' }),
    blocks: z.array(z.object({ publishedOn: nullableString, name: nullableString, text: nullableString, decidedOn: nullableString }))
      .meta({ description: 'The publications (Bausteine) of the notice, oldest first as the register lists them.' }),
    link: z.object({
      evidence: z.enum(['register-fn', 'name-address', 'name', 'manual']).nullable().meta({
        description: 'Why the notice is linked to debtor.fnr: `register-fn` the FN the court gives (confidence 1.0; a wrong check letter links nothing), ' +
          '`name-address` the normalised name (umlaut spellings, legal-form suffixes, the split name joined) plus zip code and street, ' +
          '`name` the name alone, `manual` set by an operator.',
      }),
      confidence: z.number().nullable().meta({ description: 'Confidence 0..1 of the asserted link; a link is asserted only at >= 0.9.' }),
      candidates: z.array(z.object({ fnr: z.string(), name: nullableString, evidence: nullableString, confidence: z.number().nullable() }))
        .meta({ description: 'Companies the notice may concern below 0.9 (namesakes, another legal form, a deleted company), for review: they never set hasEdikt, openNotices or the screener flag.' }),
    }).meta({ description: 'The link to a company. Only a link with confidence >= 0.9 is asserted (debtor.fnr, the company\'s hasEdikt and openNotices, the screener); a deleted notice (deletedAt) keeps nothing but its key.' }),
  })
  .meta({ id: 'CourtNotice' });

const businessChange = {
  id: 4711803, type: 'business', fnr: '30435h', recordedAt: '2025-11-04T06:15:12.418Z', action: 'updated',
  changedFields: ['addresses', 'registerEntries'], vnr: '007',
};
const businessCreated = {
  id: 4711815, type: 'business', fnr: '667215z', recordedAt: '2025-11-04T06:16:40.032Z', action: 'created',
  changedFields: [], vnr: '001',
};
const documentChange = {
  id: 4711809, type: 'document', fnr: '30435h', recordedAt: '2025-11-04T06:15:58.771Z', action: 'created',
  changedFields: [], documentKey: '030435_0070202507812_000___000_30_41873215_XML',
};
const documentUpdated = {
  id: 4711822, type: 'document', fnr: '402287z', recordedAt: '2025-11-04T06:17:03.905Z', action: 'updated',
  changedFields: ['sizeBytes', 'contentType'], documentKey: '402287_1190202504471_000___000_30_41880731_PDF',
};
const ediktChange = {
  id: 4711811, type: 'edikt', fnr: '30435h', recordedAt: '2025-11-04T06:16:02.120Z', action: 'created',
  changedFields: ['opened'], ediktId: '007015S0004125001',
};
const ediktUpdated = {
  id: 4711830, type: 'edikt', fnr: null, recordedAt: '2025-11-04T06:18:44.500Z', action: 'updated',
  changedFields: ['lastPublishedOn', 'blocks'], ediktId: '638015S0002025004',
};
const tradeChange = {
  id: 4711812, type: 'trade', fnr: '30435h', recordedAt: '2025-11-04T06:16:05.663Z', action: 'updated',
  changedFields: ['isDormant'], gisaZahl: '33618544',
};
const tradeDeleted = {
  id: 4711826, type: 'trade', fnr: null, recordedAt: '2025-11-04T06:17:51.210Z', action: 'deleted',
  changedFields: [], gisaZahl: '29400117',
};
const allChanges = [businessChange, documentChange, ediktChange, tradeChange, businessCreated, documentUpdated, tradeDeleted, ediktUpdated];

const feedPage = (data: object[]) => ({
  data, pageNumber: 1, pageSize: 100, totalRecords: data.length, totalPages: Math.min(1000, Math.ceil(data.length / 100)),
});

/** Per feed: its path, summary, operationId, example name and a first page of a poll with `sinceId=4711800`. */
const FEEDS = [
  ['/businesses/changes', 'Company change feed', 'listCompanyChanges', 'BusinessChanges', feedPage([businessChange, businessCreated])],
  ['/documents/changes', 'Feed of newly filed documents', 'listDocumentChanges', 'DocumentChanges', feedPage([documentChange, documentUpdated])],
  ['/edikte/changes', 'Court-notice change feed', 'listNoticeChanges', 'EdiktChanges', feedPage([ediktChange, ediktUpdated])],
  ['/trades/changes', 'Trade change feed', 'listTradeChanges', 'TradeChanges', feedPage([tradeChange, tradeDeleted])],
  ['/globalchanges', 'Global change feed: every type in one sequence', 'listGlobalChanges', 'GlobalChanges', feedPage(allChanges)],
] as const;

const aggregatedChangesExample = {
  businessChanges: [businessChange, businessCreated],
  documentChanges: [documentChange, documentUpdated],
  ediktChanges: [ediktChange, ediktUpdated],
  globalChanges: allChanges,
};

const ediktChangeExample = {
  ...ediktChange,
  notice: {
    ediktId: '007015S0004125001', aktenzeichen: '41 S 125/25d', court: HG_WIEN,
    proceeding: { code: 'SVE', text: 'Sanierungsverfahren mit Eigenverwaltung' },
    debtor: { type: 'J', name: 'Müller Bau GmbH', fnr: '30435h', personId: null, address: { street: 'Favoritenstraße 112/2/14', zipCode: '1100', city: 'Wien' } },
    openedOn: '2025-10-13', firstPublishedOn: '2025-10-14', lastPublishedOn: '2025-10-14', isOpen: true, deletedAt: null,
    blocks: [{ publishedOn: '2025-10-14', name: 'Eröffnung des Sanierungsverfahrens', text: 'Über das Vermögen der Schuldnerin wird das Sanierungsverfahren mit Eigenverwaltung eröffnet.', decidedOn: '2025-10-13' }],
    link: { evidence: 'register-fn', confidence: 1, candidates: [] },
  },
};

export function registerChangeFeedDocs(registry: OpenAPIRegistry): void {
  const example = (name: string, summary: string, value: unknown) => registerExample(registry, name, summary, value);
  const tags = [TAGS.feeds.name];
  for (const [path, summary, operationId, name, page] of FEEDS) {
    registerJsonGet(registry, path, tags, summary, feedQuery, pageOf(ChangeEntry), {
      operationId, request: `${path}?sinceId=4711800&pageSize=100`,
      description: 'Changes in ascending id order. Poll: `sinceId=<highest id stored>`, `page=1, 2, ...` with a fixed pageSize until a page holds fewer than pageSize rows; store the highest id seen. sinceId exclusive, since inclusive (recordedAt), both combinable; since takes a timestamp or a date (`2025-03-04` = 2025-03-04T00:00:00Z, UTC as every timestamp of the API). A feed never shows an id while a lower one may still commit, so the highest id seen is a safe cursor. page stops at 1000; totalRecords stops at 1000 x pageSize and totalPages at 1000 (at the cap: at least that many).',
      examples: example(name, 'sinceId=4711800: the first page of a poll; the same id names the same change in every feed', page),
    });
  }
  registerJsonGet(registry, '/globalchanges/aggregated', tags, 'Business, document, court-notice and global changes in one answer', aggregatedQuery,
    z.object({ businessChanges: z.array(ChangeEntry), documentChanges: z.array(ChangeEntry), ediktChanges: z.array(ChangeEntry), globalChanges: z.array(ChangeEntry) }), {
      operationId: 'getAggregatedChanges', request: '/globalchanges/aggregated?since=2025-11-04T06:00:00Z&maxResultsPerType=100',
      description: 'The first maxResultsPerType changes of each feed, oldest first; since (inclusive, recordedAt) takes a timestamp or a date (`2025-03-04` = 2025-03-04T00:00:00Z).',
      examples: example('AggregatedChanges', 'since=2025-11-04T06:00:00Z&maxResultsPerType=100', aggregatedChangesExample),
    });
  registerJsonGet(registry, '/edikte/changes/{id}', [TAGS.notices.name], 'One court notice as a change left it (by change id)', undefined,
    ChangeEntry.extend({ notice: CourtNotice.nullable().meta({ description: 'The court notice as this change left it; null if the change recorded none or one the service cannot read (logged as a fault of the writer).' }) }), {
      operationId: 'getNoticeChange', request: '/edikte/changes/4711811',
      description: 'The change of /edikte/changes with this id, and the court notice (proceeding, debtor, publications, the link to a company) ' +
        'as that change left it. An id that is no court-notice change is a 404.',
      params: z.object({ id: z.string().meta({ description: 'The change id (as in /edikte/changes).', example: '4711811' }) }), problems: [400, 404],
      examples: example('EdiktChange', 'The opening of a restructuring proceeding', ediktChangeExample),
    });
}
