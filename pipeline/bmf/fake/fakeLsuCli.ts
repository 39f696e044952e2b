// Runs the fake BMF list download on fixtures, for operators and local runs without internet:
//   npm run fake-bmf [-- --fixtures fixtures/corpus] [--port 9092] [--seed N --rate429 P ...]
// --fixtures is a corpus directory with bmf/lists/ in it, or a directory of list files (default: the
// bundled corpus). The list versions are served in name order, one per complete answer, then the last
// for good. Prints the list URL (point BMF_LSU_URL at it) and serves until SIGINT/SIGTERM.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, runMain } from '../../../runtime/bootstrap.js';
import { commandLine, requireDirectory } from '../../../runtime/cli/args.js';
import { FAULT_FLAG_OPTIONS, readFaultFlags, readPort } from '../../upstream/fakeCliFlags.js';
import { listFiles, startFakeLsu } from './fakeLsu.js';

const BUNDLED = new URL('../../../fixtures/corpus', import.meta.url).pathname;

const USAGE = `usage: npm run fake-bmf -- [--fixtures <dir>] [--port 9092]
  [--seed N] [--rate429 P] [--rate500 P] [--rate-timeout P] [--rate-truncated P] [--rate-cut-off P] [--rate401 P]
  --fixtures: a corpus directory with bmf/lists/ in it, or a directory of *.csv list versions (default: the bundled corpus)`;

runMain(async () => {
  const { values } = commandLine({
    usage: USAGE,
    options: {
      fixtures: { type: 'string', default: BUNDLED }, port: { type: 'string', default: '9092' }, ...FAULT_FLAG_OPTIONS,
    },
  });
  const v = values as Record<string, string | undefined>;
  const dir = requireDirectory('fixtures', v.fixtures, USAGE);
  const lists = existsSync(join(dir, 'bmf', 'lists')) ? join(dir, 'bmf', 'lists') : dir;
  const files = await listFiles(lists);
  if (files.length === 0) throw new CliError(`--fixtures: no *.csv list in ${lists}\n${USAGE}`);
  const port = readPort(v.port, USAGE);
  const fake = await startFakeLsu({
    lists, port,
    faults: readFaultFlags(v, USAGE),
  });
  console.log(fake.url);
  console.error(`fake BMF list: ${files.length} versions from ${lists}, served in name order`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
});
