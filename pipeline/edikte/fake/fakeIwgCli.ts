// Runs the fake IWG interface of the Ediktsdatei on a fixture directory (fixtures/corpus/edikte, or one
// the benchmark writes), for local runs and the ingest benchmark's own process:
//   npx tsx pipeline/edikte/fake/fakeIwgCli.ts --fixtures fixtures/corpus/edikte [--port 9091] [--now 2026-11-21]
//     [--user U --password P] [--seed N --rate429 P --rate500 P --rate-timeout P --rate-truncated P --rate-cut-off P --rate401 P]
// Prints the data API base URL (EDIKTE_URL) on a line of its own and serves until SIGINT/SIGTERM.
import { commandLine } from '../../../runtime/cli/args.js';
import { startFakeIwg } from './fakeIwg.js';

const USAGE = `usage: fakeIwgCli --fixtures <dir> [--port 9091] [--now yyyy-mm-dd] [--user U --password P]
  [--seed N] [--rate429 P] [--rate500 P] [--rate-timeout P] [--rate-truncated P] [--rate-cut-off P] [--rate401 P]`;

const { values } = commandLine({
  usage: USAGE,
  options: {
    fixtures: { type: 'string' }, port: { type: 'string', default: '9091' }, now: { type: 'string' }, user: { type: 'string' }, password: { type: 'string' },
    seed: { type: 'string' }, rate429: { type: 'string' }, rate500: { type: 'string' }, 'rate-timeout': { type: 'string' },
    'rate-truncated': { type: 'string' }, 'rate-cut-off': { type: 'string' }, rate401: { type: 'string' },
  },
});

const rate = (name: string, raw: string | undefined) => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 1) {
    console.error(`--${name} takes a probability from 0 to 1, not "${raw}"\n${USAGE}`);
    process.exit(2);
  }
  return n;
};

if (!values.fixtures) {
  console.error(`--fixtures is required\n${USAGE}`);
  process.exit(2);
}
const fake = await startFakeIwg({
  corpus: values.fixtures,
  port: Number(values.port),
  now: values.now,
  credentials: values.user || values.password ? { user: values.user, password: values.password } : undefined,
  faults: {
    seed: values.seed === undefined ? undefined : Number(values.seed), rate429: rate('rate429', values.rate429), rate500: rate('rate500', values.rate500),
    rateTimeout: rate('rate-timeout', values['rate-timeout']), rateTruncated: rate('rate-truncated', values['rate-truncated']),
    rateCutOff: rate('rate-cut-off', values['rate-cut-off']), rate401: rate('rate401', values.rate401),
  },
});
console.log(fake.url);
console.error(`fake IWG interface: ${fake.corpus.size} edicts`);
const stop = () => void fake.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
