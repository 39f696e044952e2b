// npm run replay [-- --fixtures <dir>] [--upstream <url>] [--json] [--rate429 p --rate500 p --rateTimeout p --rateTruncated p --seed n]
// Replays a fixture directory (default: the bundled corpus) through the real pipeline against the fake
// upstream, or against --upstream, until the queues drain. Progress goes to stderr (a bar on a
// terminal, plain lines otherwise); the summary to stdout, with --json as one JSON object on the last
// line. Exits 1 when any job failed.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BUNDLED_CORPUS, replay, type ReplaySummary } from '../../pipeline/replay/replay.js';
import { bootstrap, runMain } from '../bootstrap.js';

function progressPrinter(): (p: { done: number; failed: number; pending: number }) => void {
  const tty = process.stderr.isTTY;
  let lastPlain = 0;
  return ({ done, failed, pending }) => {
    const total = done + failed + pending;
    if (tty) {
      const width = 30;
      const filled = total === 0 ? width : Math.round((width * (done + failed)) / total);
      process.stderr.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done} done, ${failed} failed, ${pending} pending   `);
    } else if (Date.now() - lastPlain > 2000 || pending === 0) {
      lastPlain = Date.now();
      process.stderr.write(`replay: ${done} jobs done, ${failed} failed, ${pending} pending\n`);
    }
  };
}

function printSummary(summary: ReplaySummary, json: boolean): void {
  const { failed, ...figures } = summary;
  if (process.stderr.isTTY) process.stderr.write('\n');
  for (const f of failed) console.log(`failed: ${f.job} ${f.id ?? ''}: ${f.reason}`);
  console.log(
    `replay finished in ${(summary.durationMs / 1000).toFixed(1)} s: ${summary.companies} companies, ${summary.persons} persons, ` +
      `${summary.filings} filings, ${summary.figures} figures, ${summary.changes} change rows, ${summary.failures} failures`,
  );
  if (json) console.log(JSON.stringify(figures));
}

runMain(async () => {
  const { values } = parseArgs({
    options: {
      fixtures: { type: 'string' },
      upstream: { type: 'string' },
      json: { type: 'boolean', default: false },
      rate429: { type: 'string' },
      rate500: { type: 'string' },
      rateTimeout: { type: 'string' },
      rateTruncated: { type: 'string' },
      seed: { type: 'string' },
    },
  });
  const rt = await bootstrap({ applicationName: 'replay', cli: true });
  try {
    const rate = (v: string | undefined) => (v === undefined ? undefined : Number(v));
    const faults = {
      seed: rate(values.seed),
      rate429: rate(values.rate429),
      rate500: rate(values.rate500),
      rateTimeout: rate(values.rateTimeout),
      rateTruncated: rate(values.rateTruncated),
      retryAfterSeconds: 1,
      timeoutMs: 3000,
    };
    const summary = await replay({
      sql: rt.sql,
      redisUrl: rt.redisUrl,
      log: rt.log,
      fixturesDir: resolve(values.fixtures ?? BUNDLED_CORPUS),
      upstreamUrl: values.upstream,
      upstreamApiKey: values.upstream ? rt.config.FIRMENBUCH_API_KEY : undefined,
      faults,
      timeoutMs: values.rateTimeout ? 2000 : undefined,
      onProgress: progressPrinter(),
    });
    printSummary(summary, values.json);
    if (summary.failures > 0) process.exitCode = 1;
  } finally {
    await rt.close();
  }
});
