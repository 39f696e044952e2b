// Change-feed operations: the five feeds, the aggregated feed and single court-notice changes. Every
// read goes through the change log's safe bound: a feed never shows an id while a lower one may still
// commit, so a consumer that stores the highest id it has seen misses nothing.
import { z } from 'zod';
import { changeSnapshot, readChangePageJson, readChanges, type ChangeType } from '../../runtime/changeLog.js';
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import { fnrFilterValue } from '../../schemas/identifiers.js';
import { notFound, validationFailed } from '../errors.js';
import { presentChange, presentCourtNotice } from '../presenters/changes.js';
import { jsonBody, pageEnvelopeJson } from '../presenters/envelope.js';
import { pagingShape } from '../validation.js';

export const FEED_MAX_PAGE = 1000;
export const FEED_DEFAULT_PAGE_SIZE = 100;
export const AGGREGATED_MAX_PER_TYPE = 2000;

/** `since`: a timestamp, or a date alone meaning 00:00 UTC of that day (timestamps are UTC throughout the API). */
const isoTimestamp = z
  .union([z.iso.date().transform((d) => new Date(`${d}T00:00:00Z`)), z.iso.datetime({ offset: true }).transform((v) => new Date(v))], {
    error: 'must be an ISO 8601 timestamp such as 2025-03-04T10:12:00Z or a date such as 2025-03-04 (meaning 00:00 UTC)',
  })
  .meta({
    description: 'Changes recorded at or after this moment (inclusive): an ISO 8601 timestamp with offset, or a date `yyyy-mm-dd` meaning 00:00 UTC of that day.',
    example: '2025-03-04',
  });
export const feedQuery = z.object({
  sinceId: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must be at least 0').optional()
    .meta({ description: 'Changes with a higher id only (exclusive): the highest id of your last poll. Page on with the same sinceId.', example: 4711800 }),
  since: isoTimestamp.optional(),
  fnr: z.string().trim().min(1).max(20).transform(fnrFilterValue).optional()
    .meta({ description: 'Changes of one company only (spaces and leading zeros dropped).', example: '30435h' }),
  ...pagingShape(FEED_DEFAULT_PAGE_SIZE, FEED_MAX_PAGE),
});
export const aggregatedQuery = z.object({
  since: isoTimestamp.optional(),
  maxResultsPerType: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1')
    .max(AGGREGATED_MAX_PER_TYPE, `must be at most ${AGGREGATED_MAX_PER_TYPE}`).default(100)
    .meta({ description: `Entries per array, 1 to ${AGGREGATED_MAX_PER_TYPE} (default 100); the oldest first.` }),
});

export type FeedInput = z.infer<typeof feedQuery>;
export type AggregatedInput = z.infer<typeof aggregatedQuery>;

/** The five feeds by name: their path under /api/v1 and the change type they show (all, for the global feed). */
export const CHANGE_FEEDS = {
  business: { path: '/businesses/changes', type: 'business' },
  document: { path: '/documents/changes', type: 'document' },
  edikt: { path: '/edikte/changes', type: 'edikt' },
  trade: { path: '/trades/changes', type: 'trade' },
  global: { path: '/globalchanges', type: undefined },
} as const satisfies Record<string, { path: string; type: ChangeType | undefined }>;
export type FeedName = keyof typeof CHANGE_FEEDS;

/**
 * One page of a feed as the list envelope's JSON bytes: the entries come from Postgres as JSON in
 * presentChange's shape (schemas/sql/0013), one round trip, and are not parsed on the way out.
 */
export async function readFeedPage(sql: Sql, type: ChangeType | undefined, q: FeedInput, allocate?: (size: number) => Buffer): Promise<Buffer> {
  const cap = FEED_MAX_PAGE * q.pageSize;
  const { data, total } = await readChangePageJson(sql, { type, afterId: q.sinceId, since: q.since, fnr: q.fnr, page: q.page, pageSize: q.pageSize, countCap: cap });
  const { before, after } = pageEnvelopeJson(q.page, q.pageSize, total, FEED_MAX_PAGE);
  return jsonBody(before, data, after, allocate);
}

/** GET /globalchanges/aggregated: no totals here, so no count, just the first rows of each feed. */
export async function aggregatedChanges(sql: Sql, q: AggregatedInput) {
  const read = (type: ChangeType | undefined) =>
    readChanges(sql, { type, since: q.since, limit: q.maxResultsPerType }).then((rows) => rows.map(presentChange));
  const [businessChanges, documentChanges, ediktChanges, globalChanges] = await Promise.all([read('business'), read('document'), read('edikt'), read(undefined)]);
  return { businessChanges, documentChanges, ediktChanges, globalChanges };
}

/** The id of GET /edikte/changes/{id}: a positive integer, else a 400. */
export function parseChangeId(text: string | undefined): number {
  const id = Number(text);
  if (!/^\d+$/.test(text ?? '') || !Number.isSafeInteger(id)) throw validationFailed({ id: ['must be a change id (a positive integer)'] });
  return id;
}

/** GET /edikte/changes/{id}: the change and the court notice as it left it; 404 for an id that is no court-notice change. */
export async function noticeChange(sql: Sql, log: Logger, id: number) {
  const found = await changeSnapshot(sql, id, 'edikt');
  if (!found) throw notFound(`No court-notice change has the id ${id}.`);
  const notice = presentCourtNotice(found.snapshot);
  // A snapshot the presenter cannot read is the writer's bug: answered as no notice, but said here.
  if (notice === null && found.snapshot != null) log.warn({ changeId: id }, 'court-notice change holds a snapshot that is no court_notice row');
  return { ...presentChange(found.row), notice };
}
