// npm run replay: runs the real pipeline until the queues drain. Without arguments every register's
// bundled fixtures go through the project's fake upstreams; --sources limits the registers; --live
// crawls the configured upstreams instead (Firmenbuch: the last 7 days, --from/--to, or --backfill);
// --upstream URL is --sources firmenbuch --live with that URL. Progress goes to stderr; the summary
// to stdout, with --json as one JSON object on the last line. Exit 1 when a job failed or an upstream
// refused the login (the run ends there, with the reason), 2 on a usage error.
import { resolve } from 'node:path';
import { REGISTERS } from '../../pipeline/registers.js';
import { BUNDLED_CORPUS, replay, type ReplaySummary } from '../../pipeline/replay/replay.js';
import { access } from 'node:fs/promises';
import { bootstrap, CliError, runMain } from '../bootstrap.js';
import { parseReplayArgs, REPLAY_USAGE } from './replayArgs.js';

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
  if (process.stderr.isTTY) process.stderr.write('\n');
  for (const f of summary.failed) console.log(`failed: ${f.source} ${f.job} ${f.id ?? ''}: ${f.reason}`);
  for (const [source, counts] of Object.entries(summary.sources)) {
    console.log(`  ${source}: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  }
  console.log(
    `replay finished in ${(summary.durationMs / 1000).toFixed(1)} s: ${summary.companies} companies, ${summary.persons} persons, ` +
      `${summary.filings} filings, ${summary.figures} figures, ${summary.changes} change rows, ${summary.failures} failures`,
  );
  if (json) console.log(JSON.stringify(summary));
}

runMain(async () => {
  const cmd = parseReplayArgs(process.argv.slice(2), REGISTERS.map((r) => r.name), (line) => console.error(`warning: ${line}`));
  if (cmd.help) return console.log(REPLAY_USAGE);
  const fixturesDir = resolve(cmd.fixturesDir ?? BUNDLED_CORPUS);
  if (cmd.mode === 'fixtures') {
    await access(fixturesDir).catch(() => {
      throw new CliError(`replay: no fixture directory ${fixturesDir}\n${REPLAY_USAGE}`);
    });
  }
  const rt = await bootstrap({ applicationName: 'replay', cli: true });
  try {
    const summary = await replay({
      sql: rt.sql,
      redisUrl: rt.redisUrl,
      log: rt.log,
      config: rt.config,
      registers: REGISTERS.filter((r) => cmd.sources.includes(r.name)),
      mode: cmd.mode,
      fixturesDir,
      upstreams: cmd.upstreamUrl ? { firmenbuch: { baseUrl: cmd.upstreamUrl } } : undefined,
      from: cmd.from,
      to: cmd.to,
      backfill: cmd.backfill,
      faults: cmd.faults,
      timeoutMs: cmd.faults?.rateTimeout ? 2000 : undefined,
      onProgress: progressPrinter(),
    });
    if (Object.keys(summary.sources).length === 0) {
      throw new CliError(`replay: no register has fixtures in ${fixturesDir} (one folder per register: ${REGISTERS.map((r) => `${r.name}/`).join(', ')})`);
    }
    printSummary(summary, cmd.json);
    if (summary.failures > 0) process.exitCode = 1;
  } finally {
    await rt.close();
  }
});
