// The flags every fake upstream's command line shares: the injected fault rates (FaultRates) and the
// port, read alike so that a replay's fault options mean the same on each register's fake.
import { CliError } from '../../runtime/bootstrap.js';
import type { FaultRates } from '../register.js';

const RATES = ['rate429', 'rate500', 'rate-timeout', 'rate-truncated', 'rate-cut-off', 'rate401'] as const;

/** parseArgs options of the fault flags (`--seed N`, `--rate429 P`, ...). */
export const FAULT_FLAG_OPTIONS = Object.fromEntries(['seed', ...RATES].map((name) => [name, { type: 'string' as const }])) as
  Record<'seed' | (typeof RATES)[number], { type: 'string' }>;

/** The fault rates the flags name (probabilities from 0 to 1); a CliError with the usage for a bad one. */
export function readFaultFlags(values: Record<string, string | undefined>, usage: string): FaultRates {
  const rate = (name: (typeof RATES)[number]) => {
    if (values[name] === undefined) return undefined;
    const n = Number(values[name]);
    if (!Number.isFinite(n) || n < 0 || n > 1) throw new CliError(`--${name} takes a probability from 0 to 1, not "${values[name]}"\n${usage}`);
    return n;
  };
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new CliError(`--seed: not a whole number: ${values.seed}\n${usage}`);
  return {
    seed, rate429: rate('rate429'), rate500: rate('rate500'), rateTimeout: rate('rate-timeout'),
    rateTruncated: rate('rate-truncated'), rateCutOff: rate('rate-cut-off'), rate401: rate('rate401'),
  };
}

/** `--port`, 0 for any free one. */
export function readPort(text: string | undefined, usage: string): number {
  const port = Number(text);
  if (text === undefined || !Number.isInteger(port) || port < 0 || port > 65_535) throw new CliError(`--port: not a port: ${text}\n${usage}`);
  return port;
}
