// The five change feeds, the aggregated feed and single court-notice changes. Every read goes
// through the change log's safe bound: a feed never shows an id while a lower one may still commit,
// so a consumer that stores the highest id it has seen misses nothing.
import Router from '@koa/router';
import { z } from 'zod';
import { changeSnapshot, readChangePageJson, readChanges, type ChangeType } from '../../runtime/changeLog.js';
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import { fnrFilterValue } from '../../schemas/identifiers.js';
import { notFound, validationFailed } from '../errors.js';
import { bodyBuffers } from '../presenters/bodyBuffers.js';
import { presentChange, presentCourtNotice } from '../presenters/changes.js';
import { jsonBody, pageEnvelopeJson } from '../presenters/envelope.js';
import { noQuery, pagingShape, parseQuery } from '../validation.js';

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

const FEEDS: Array<[path: string, type: ChangeType | undefined]> = [
  ['/businesses/changes', 'business'],
  ['/documents/changes', 'document'],
  ['/edikte/changes', 'edikt'],
  ['/trades/changes', 'trade'],
  ['/globalchanges', undefined],
];

export function changeFeedRouter(sql: Sql, log: Logger): Router {
  const router = new Router();

  for (const [path, type] of FEEDS) {
    router.get(path, async (ctx) => {
      const q = parseQuery(feedQuery, ctx.query);
      const cap = FEED_MAX_PAGE * q.pageSize;
      // The entries come from Postgres as JSON in presentChange's shape (schemas/sql/0013), one round trip.
      const { data, total } = await readChangePageJson(sql, { type, afterId: q.sinceId, since: q.since, fnr: q.fnr, page: q.page, pageSize: q.pageSize, countCap: cap });
      ctx.type = 'application/json';
      const { before, after } = pageEnvelopeJson(q.page, q.pageSize, total, FEED_MAX_PAGE);
      ctx.body = jsonBody(before, data, after, (size) => bodyBuffers.take(ctx, size));
    });
  }

  router.get('/globalchanges/aggregated', async (ctx) => {
    const q = parseQuery(aggregatedQuery, ctx.query);
    // No totals here, so no count: just the first rows of each feed.
    const read = (type: ChangeType | undefined) =>
      readChanges(sql, { type, since: q.since, limit: q.maxResultsPerType }).then((rows) => rows.map(presentChange));
    const [businessChanges, documentChanges, ediktChanges, globalChanges] = await Promise.all([read('business'), read('document'), read('edikt'), read(undefined)]);
    ctx.body = { businessChanges, documentChanges, ediktChanges, globalChanges };
  });

  router.get('/edikte/changes/:id', async (ctx) => {
    parseQuery(noQuery, ctx.query);
    const id = Number(ctx.params.id);
    if (!/^\d+$/.test(ctx.params.id ?? '') || !Number.isSafeInteger(id)) throw validationFailed({ id: ['must be a change id (a positive integer)'] });
    const found = await changeSnapshot(sql, id, 'edikt');
    if (!found) throw notFound(`No court-notice change has the id ${id}.`);
    const notice = presentCourtNotice(found.snapshot);
    // A snapshot the presenter cannot read is the writer's bug: answered as no notice, but said here.
    if (notice === null && found.snapshot != null) log.warn({ changeId: id }, 'court-notice change holds a snapshot that is no court_notice row');
    ctx.body = { ...presentChange(found.row), notice };
  });

  return router;
}
