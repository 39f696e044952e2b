// The five change feeds, the aggregated feed and single court-notice changes.
// Route pipeline: validate -> operation (api/operations/changeFeeds.ts) -> write.
import Router from '@koa/router';
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import {
  aggregatedChanges, aggregatedQuery, CHANGE_FEEDS, feedQuery, noticeChange, parseChangeId, readFeedPage,
} from '../operations/changeFeeds.js';
import { bodyBuffers } from '../presenters/bodyBuffers.js';
import { noQuery, parseQuery } from '../validation.js';

export function changeFeedRouter(sql: Sql, log: Logger): Router {
  const router = new Router();

  for (const { path, type } of Object.values(CHANGE_FEEDS)) {
    router.get(path, async (ctx) => {
      const q = parseQuery(feedQuery, ctx.query);
      ctx.type = 'application/json';
      ctx.body = await readFeedPage(sql, type, q, (size) => bodyBuffers.take(ctx, size));
    });
  }

  router.get('/globalchanges/aggregated', async (ctx) => {
    ctx.body = await aggregatedChanges(sql, parseQuery(aggregatedQuery, ctx.query));
  });

  router.get('/edikte/changes/:id', async (ctx) => {
    parseQuery(noQuery, ctx.query);
    ctx.body = await noticeChange(sql, log, parseChangeId(ctx.params.id));
  });

  return router;
}
