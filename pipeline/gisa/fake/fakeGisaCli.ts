// Runs the fake GISA V2 service on a fixture directory, for operators and local runs without internet:
//   npm run fake-gisa -- --fixtures fixtures/corpus --port 9091 [--api-key KEY] [--rate429 0.1 ...]
// Prints the base URL (point GISA_URL at it, then `npm run replay -- --sources gisa --live`) and serves
// until SIGINT/SIGTERM.
import { CliError, runMain } from '../../../runtime/bootstrap.js';
import { commandLine, requireDirectory } from '../../../runtime/cli/args.js';
import { FAULT_FLAG_OPTIONS, readFaultFlags, readPort } from '../../upstream/fakeCliFlags.js';
import { startFakeGisa } from './fakeGisa.js';

const USAGE = `usage: npm run fake-gisa -- --fixtures <dir> [--port 9091] [--host 127.0.0.1] [--api-key KEY] [--data-quota 200]
  [--extract-quota 10] [--extract-polls 2] [--seed N] [--rate429 P] [--rate500 P] [--rate-timeout P] [--rate-truncated P] [--rate-cut-off P] [--rate401 P]`;

const NUMBERS = ['data-quota', 'extract-quota', 'extract-polls'] as const;

runMain(async () => {
  const { values } = commandLine({
    usage: USAGE,
    options: {
      fixtures: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' }, 'api-key': { type: 'string' }, port: { type: 'string', default: '9091' },
      ...Object.fromEntries(NUMBERS.map((n) => [n, { type: 'string' as const }])), ...FAULT_FLAG_OPTIONS,
    },
  });
  const v = values as Record<string, string | undefined>;
  const fixturesDir = requireDirectory('fixtures', v.fixtures, USAGE);
  const num = (name: (typeof NUMBERS)[number]) => {
    if (v[name] === undefined) return undefined;
    const n = Number(v[name]);
    if (!Number.isFinite(n) || n < 0) throw new CliError(`--${name}: not a valid number: ${v[name]}\n${USAGE}`);
    return n;
  };
  const fake = await startFakeGisa({
    fixturesDir, port: readPort(v.port, USAGE), host: v.host, apiKey: v['api-key'],
    dataQuota: num('data-quota'), extractQuota: num('extract-quota'), extractPolls: num('extract-polls'),
    faults: readFaultFlags(v, USAGE),
  });
  console.log(`fake GISA V2 at ${fake.url}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
});
