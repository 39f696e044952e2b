// The command line of `npm run replay`, read into replay options without side effects, so every
// combination is testable. A mistake is a usage error (exit 2) that says what is accepted.
import type { FaultRates } from '../../pipeline/register.js';
import { CliError } from '../bootstrap.js';
import { readCommandLine } from './args.js';

export const REPLAY_USAGE = `usage: npm run replay -- [--sources a,b] [--fixtures DIR | --live [--from YYYY-MM-DD --to YYYY-MM-DD | --backfill]]
                       [--upstream URL] [--json] [--rate429 P --rate500 P --rate-timeout P --rate-truncated P --rate-cut-off P --seed N]
  Without flags: every register's bundled fixtures through the project's fake upstreams.
  --sources       only these registers (comma-separated)
  --live          crawl the configured upstreams (*_URL variables) instead of fakes; Firmenbuch: the last
                  7 days up to today, --from/--to another window, --backfill the whole register
  --upstream URL  the Firmenbuch at URL, live (= --sources firmenbuch --live with FIRMENBUCH_URL=URL)
  --json          the summary as one JSON object on the last line of stdout
  --rate*         inject transport faults into the fakes (probabilities 0..1); --seed for the draw`;

const OPTIONS = {
  sources: { type: 'string' }, fixtures: { type: 'string' }, upstream: { type: 'string' }, live: { type: 'boolean', default: false },
  from: { type: 'string' }, to: { type: 'string' }, backfill: { type: 'boolean', default: false }, json: { type: 'boolean', default: false },
  rate429: { type: 'string' }, rate500: { type: 'string' }, 'rate-timeout': { type: 'string' }, 'rate-truncated': { type: 'string' },
  'rate-cut-off': { type: 'string' }, seed: { type: 'string' },
} as const;

export interface ReplayCommand {
  help?: boolean;
  sources: string[];
  mode: 'fixtures' | 'live';
  fixturesDir?: string;
  /** Firmenbuch's base URL (--upstream): live, with this URL instead of FIRMENBUCH_URL. */
  upstreamUrl?: string;
  from?: string;
  to?: string;
  backfill: boolean;
  json: boolean;
  faults?: FaultRates;
}

const usageError = (message: string) => new CliError(`replay: ${message}\n${REPLAY_USAGE}`);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function rate(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw usageError(`--${name} takes a probability from 0 to 1, not "${value}"`);
  return n;
}

function date(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!ISO_DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) throw usageError(`--${name} takes a date YYYY-MM-DD, not "${value}"`);
  return value;
}

/** Reads `argv` (without node and script); `known` are the register names of registers.ts. */
export function parseReplayArgs(argv: string[], known: readonly string[], warn?: (line: string) => void): ReplayCommand {
  const read = readCommandLine({ usage: REPLAY_USAGE, options: OPTIONS }, argv, warn);
  if (read.help) return { help: true, sources: [], mode: 'fixtures', backfill: false, json: false };
  const { values } = read;
  const sources = values.sources === undefined ? [...known] : values.sources.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = sources.filter((s) => !known.includes(s));
  if (unknown.length > 0 || sources.length === 0) {
    throw usageError(`unknown source${unknown.length === 1 ? '' : 's'} ${unknown.join(', ') || '(none named)'}; known sources: ${known.join(', ')}`);
  }
  const upstreamUrl = values.upstream;
  if (upstreamUrl !== undefined) {
    try {
      new URL(upstreamUrl);
    } catch {
      throw usageError(`--upstream takes a URL, not "${upstreamUrl}"`);
    }
    if (values.sources !== undefined && (sources.length !== 1 || sources[0] !== 'firmenbuch')) throw usageError('--upstream is the Firmenbuch URL: it goes with --sources firmenbuch only');
  }
  const live = values.live || upstreamUrl !== undefined;
  if (live && values.fixtures !== undefined) throw usageError('--fixtures replays fixtures; --live and --upstream crawl upstreams: name one');
  const from = date('from', values.from);
  const to = date('to', values.to);
  if ((from === undefined) !== (to === undefined)) throw usageError('--from and --to go together');
  if (from && to && from > to) throw usageError(`--from ${from} is after --to ${to}`);
  if (values.backfill && from) throw usageError('--backfill walks the whole register: it takes no --from/--to');
  const faults = {
    seed: values.seed === undefined ? undefined : Number(values.seed),
    rate429: rate('rate429', values.rate429), rate500: rate('rate500', values.rate500), rateTimeout: rate('rate-timeout', values['rate-timeout']),
    rateTruncated: rate('rate-truncated', values['rate-truncated']), rateCutOff: rate('rate-cut-off', values['rate-cut-off']),
  };
  const anyFault = Object.entries(faults).some(([k, v]) => k !== 'seed' && v !== undefined);
  if (live && anyFault) throw usageError('fault injection needs the fakes: it does not go with --live or --upstream');
  return {
    sources: upstreamUrl !== undefined ? ['firmenbuch'] : sources,
    mode: live ? 'live' : 'fixtures',
    fixturesDir: values.fixtures,
    upstreamUrl,
    from,
    to,
    backfill: values.backfill,
    json: values.json,
    faults: anyFault ? { ...faults, retryAfterSeconds: 1, timeoutMs: 3000 } : undefined,
  };
}
