// Runs the fake Firmenbuch HVD service on a corpus directory, for operators and local runs without internet:
//   npm run fake-upstream -- --fixtures fixtures/corpus --port 9090 [--recent] [--rate429 0.1 ...]
// Prints the base URL (point FIRMENBUCH_URL or `npm run replay -- --upstream` at it) and serves until
// SIGINT/SIGTERM. --recent moves the change feeds so that their latest day is today, as a live
// register's are.

import { readCommandLine, requireDirectory } from '../../../runtime/cli/args.js';
import type { FirmenbuchOperation } from '../soapEnvelope.js';
import { FIRMENBUCH_OPERATIONS } from '../soapEnvelope.js';
import { startFakeFirmenbuch, type FaultOptions } from './fakeUpstream.js';

const USAGE = `usage: npm run fake-upstream -- --fixtures <dir> [--port 9090] [--host 127.0.0.1] [--api-key KEY] [--today yyyy-mm-dd]
  [--recent | --changes-end-on yyyy-mm-dd] [--seed N] [--rate429 P] [--retry-after S] [--rate500 P] [--rate-timeout P]
  [--timeout-ms MS] [--rate-truncated P] [--rate-cut-off P] [--only auszug,urkunde,...]`;

const SPEC = {
  usage: USAGE,
  options: {
    fixtures: { type: 'string' },
    port: { type: 'string', default: '9090' },
    host: { type: 'string', default: '127.0.0.1' },
    'api-key': { type: 'string' },
    today: { type: 'string' },
    recent: { type: 'boolean', default: false },
    'changes-end-on': { type: 'string' },
    seed: { type: 'string' },
    rate429: { type: 'string' },
    'retry-after': { type: 'string' },
    rate500: { type: 'string' },
    'rate-timeout': { type: 'string' },
    'timeout-ms': { type: 'string' },
    'rate-truncated': { type: 'string' },
    'rate-cut-off': { type: 'string' },
    only: { type: 'string' },
  },
} as const;

function readArgs() {
  try {
    return readCommandLine(SPEC, process.argv.slice(2), (line) => console.error(`warning: ${line}`));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
}

const read = readArgs();
if (read.help) {
  console.log(USAGE);
  process.exit(0);
}
const { values } = read;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

/** A number option, or undefined when not given; anything unreadable stops the CLI. */
function numberOption(name: string, raw: string | undefined, range?: [number, number]): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || (range && (value < range[0] || value > range[1]))) fail(`--${name}: not a valid number: ${raw}`);
  return value;
}

function operations(raw: string | undefined): FirmenbuchOperation[] | undefined {
  if (raw === undefined) return undefined;
  const known = Object.keys(FIRMENBUCH_OPERATIONS);
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = list.filter((op) => !known.includes(op));
  if (unknown.length > 0) fail(`--only: unknown operation(s) ${unknown.join(', ')} (known: ${known.join(', ')})`);
  return list as FirmenbuchOperation[];
}

function faultOptions(): FaultOptions {
  return {
    seed: numberOption('seed', values.seed),
    rate429: numberOption('rate429', values.rate429, [0, 1]),
    retryAfterSeconds: numberOption('retry-after', values['retry-after'], [0, 86_400]),
    rate500: numberOption('rate500', values.rate500, [0, 1]),
    rateTimeout: numberOption('rate-timeout', values['rate-timeout'], [0, 1]),
    timeoutMs: numberOption('timeout-ms', values['timeout-ms'], [0, 3_600_000]),
    rateTruncated: numberOption('rate-truncated', values['rate-truncated'], [0, 1]),
    rateCutOff: numberOption('rate-cut-off', values['rate-cut-off'], [0, 1]),
    only: operations(values.only),
  };
}

async function main(): Promise<void> {
  let corpus: string;
  try {
    corpus = requireDirectory('fixtures', values.fixtures, USAGE);
  } catch (err) {
    fail((err as Error).message.split('\n')[0]!);
  }
  for (const name of ['today', 'changes-end-on'] as const) {
    if (values[name] !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values[name])) fail(`--${name}: not a date yyyy-mm-dd: ${values[name]}`);
  }
  const fake = await startFakeFirmenbuch({
    corpus,
    port: numberOption('port', values.port, [0, 65_535]),
    host: values.host,
    apiKey: values['api-key'],
    today: values.today,
    changesEndOn: values['changes-end-on'] ?? (values.recent ? new Date().toISOString().slice(0, 10) : undefined),
    faults: faultOptions(),
  });
  console.log(`fake Firmenbuch HVD: ${fake.corpus.companies.size} companies, ${fake.corpus.documents.size} documents`);
  console.log(fake.url);
  const stop = () => {
    void fake.close().then(() => {
      console.error(`stopped; requests ${JSON.stringify(fake.stats.requests)}, injected faults ${JSON.stringify(fake.stats.faults)}`);
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
