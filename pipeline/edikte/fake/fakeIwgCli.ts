// Runs the fake IWG interface of the Ediktsdatei on fixtures, for operators and local runs without an
// IWG account, and for the ingest benchmark's own process:
//   npm run fake-edikte [-- --fixtures fixtures/corpus] [--port 9091] [--now 2026-11-21] [--user U --password P] [--rate429 0.1 ...]
// --fixtures is a corpus directory with edikte/ in it, or an edikte directory itself (default: the
// bundled corpus). Prints the data API base URL (point EDIKTE_URL at it) on a line of its own and
// serves until SIGINT/SIGTERM.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runMain } from '../../../runtime/bootstrap.js';
import { commandLine, requireDirectory } from '../../../runtime/cli/args.js';
import { FAULT_FLAG_OPTIONS, readFaultFlags, readPort } from '../../upstream/fakeCliFlags.js';
import { startFakeIwg } from './fakeIwg.js';

const BUNDLED = new URL('../../../fixtures/corpus', import.meta.url).pathname;

const USAGE = `usage: npm run fake-edikte -- [--fixtures <dir>] [--port 9091] [--now yyyy-mm-dd] [--user U --password P]
  [--seed N] [--rate429 P] [--rate500 P] [--rate-timeout P] [--rate-truncated P] [--rate-cut-off P] [--rate401 P]
  --fixtures: a corpus directory with edikte/ in it, or an edikte directory (default: the bundled corpus)
  --now: the fake's clock (edicts published later are not there yet, deletions up to it are done)`;

runMain(async () => {
  const { values } = commandLine({
    usage: USAGE,
    options: {
      fixtures: { type: 'string', default: BUNDLED }, port: { type: 'string', default: '9091' }, now: { type: 'string' },
      user: { type: 'string' }, password: { type: 'string' }, ...FAULT_FLAG_OPTIONS,
    },
  });
  const v = values as Record<string, string | undefined>;
  const dir = requireDirectory('fixtures', v.fixtures, USAGE);
  const corpus = existsSync(join(dir, 'edikte')) ? join(dir, 'edikte') : dir;
  const port = readPort(v.port, USAGE);
  const fake = await startFakeIwg({
    corpus, port, now: v.now,
    credentials: v.user || v.password ? { user: v.user, password: v.password } : undefined,
    faults: readFaultFlags(v, USAGE),
  });
  // The URL alone on stdout: the ingest benchmark reads it.
  console.log(fake.url);
  console.error(`fake IWG interface: ${fake.corpus.size} edicts from ${corpus}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
});
