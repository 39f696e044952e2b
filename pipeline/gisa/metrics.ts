// /metrics for the GISA crawl: calls in the last window against each quota of the key, and the
// re-check backlog (companies not looked up within a week: never, or longer ago).
import { Redis } from 'ioredis';
import type { Config } from '../../runtime/config.js';
import type { Sql } from '../../runtime/db.js';
import type { ServiceMetrics } from '../../runtime/metrics.js';
import { quotaKey, redisCallQuota } from '../jobs/callQuota.js';
import { gisa } from './index.js';

/** The re-check backlog counts companies not checked within this long. */
const BACKLOG_AGE = '7 days';

export function registerGisaMetrics(metrics: Pick<ServiceMetrics, 'gauge'>, sql: Sql, redisUrl: string, config: Config, prefix = 'bull'): () => Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  const upstream = gisa.upstream(config);
  for (const [name, limit] of Object.entries(upstream.quotas ?? {})) {
    const quota = redisCallQuota(redis, quotaKey(prefix, gisa.name, name, upstream.credentials?.apiKey), limit);
    metrics.gauge(`gisa_${name}_calls_in_window`, `GISA ${name} calls in the last ${limit.windowMs / 1000} s (quota ${limit.max} per key)`, () => quota.used());
    metrics.gauge(`gisa_${name}_quota`, `GISA ${name} calls allowed per ${limit.windowMs / 1000} s and key`, async () => limit.max);
  }
  metrics.gauge('gisa_recheck_backlog', `Companies the GISA re-check has not looked up within ${BACKLOG_AGE}`, async () => {
    const [row] = await sql<{ n: number }[]>`
      SELECT (SELECT count(*) FROM company)::int - (SELECT count(*) FROM gisa_company_check WHERE checked_at >= now() - ${BACKLOG_AGE}::interval)::int AS n`;
    return Math.max(0, row!.n);
  });
  return async () => {
    redis.disconnect();
  };
}
