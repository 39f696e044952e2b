// The API in a process of its own, started by a test with the node flags it chooses (the heap flags
// of docker-compose.yml), so memory limits are those of production and a crash cannot take the test
// runner with it. Prints "listening <baseUrl>" once it serves, then every 200 ms its peaks so far as
// "memory {rss, heapUsed, loopMaxMs, loopP99Ms}" (bytes; the longest event-loop delay and its 99th
// percentile in ms). A line "reset" on stdin starts the peaks afresh (after a warm-up).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { connectApiRedis, startApi } from '../../api/server.js';
import { createSql } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const sql = createSql(env('DATABASE_URL'), { max: Number(process.env.DATABASE_POOL_SIZE ?? 5) });
const redis = connectApiRedis(env('REDIS_URL'));
const api = await startApi({
  sql, log: createLogger(process.env.LOG_LEVEL ?? 'warn'), port: 0, host: '127.0.0.1',
  access: { redis, redisPrefix: env('REDIS_PREFIX'), principalCacheMs: 0 },
  exportConcurrency: process.env.EXPORT_CONCURRENCY ? Number(process.env.EXPORT_CONCURRENCY) : undefined,
});
process.stdout.write(`listening ${api.baseUrl.replace('localhost', '127.0.0.1')}\n`);

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const peak = { rss: 0, heapUsed: 0, loopMaxMs: 0, loopP99Ms: 0 };
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'reset') return;
  loop.reset();
  Object.assign(peak, { rss: 0, heapUsed: 0, loopMaxMs: 0, loopP99Ms: 0 });
});
setInterval(() => {
  peak.loopMaxMs = loop.max / 1e6;
  peak.loopP99Ms = loop.percentile(99) / 1e6;
  const { rss, heapUsed } = process.memoryUsage();
  peak.rss = Math.max(peak.rss, rss);
  peak.heapUsed = Math.max(peak.heapUsed, heapUsed);
  process.stdout.write(`memory ${JSON.stringify(peak)}\n`);
}, 200);

process.once('SIGTERM', () => {
  void api.close().then(() => sql.end()).then(() => process.exit(0));
});
