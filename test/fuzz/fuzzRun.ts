// Sends a seeded sample of fuzzed requests to a running API, a few at a time, over raw HTTP (so
// paths go out exactly as generated), and checks every answer against the properties.
import http from 'node:http';
import fc from 'fast-check';
import { anyRequest, type FuzzRequest, type KnownValues } from './arbitraries.js';
import { fuzzOperations } from './operations.js';
import { QuotaLedger, violations, type FuzzResponse } from './properties.js';

export interface FuzzTarget {
  /** Origin of the API, e.g. http://127.0.0.1:8080 */
  origin: string;
  keys: { account: string; service: string };
  known: KnownValues;
}

export interface FuzzOptions {
  seed: number;
  requests: number;
  concurrency?: number;
}

export interface Violation {
  index: number;
  request: string;
  status: number | 'error';
  problems: string[];
}

export interface FuzzReport {
  counts: Map<number | 'error', number>;
  /** Per operation (`GET /trades/{tradeKey}/licenses`): 200 answers that carried data (a non-empty list, a record, a file). */
  withData: Map<string, number>;
  violations: Violation[];
  ledger: QuotaLedger;
  durationMs: number;
}

const INVALID_KEY = 'atc_not-a-key-of-anyone';

function send(origin: string, agent: http.Agent, req: FuzzRequest, keys: FuzzTarget['keys']): Promise<FuzzResponse> {
  const headers: Record<string, string | number> = { ...req.headers };
  if (req.auth === 'account') headers['x-api-key'] = keys.account;
  else if (req.auth === 'service') headers['x-api-key'] = keys.service;
  else if (req.auth === 'invalid') headers['x-api-key'] = INVALID_KEY;
  const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
  if (body) headers['content-length'] = body.length;
  return new Promise((resolve, reject) => {
    const outgoing = http.request(`${origin}${req.path}`, { method: req.method, headers, agent, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 30 s')));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function describe(req: FuzzRequest): string {
  const body = req.body === undefined ? '' : ` body(${req.body.length}): ${req.body.slice(0, 120)}`;
  return `${req.method} ${req.path.slice(0, 300)} [${req.auth}] ${JSON.stringify(req.headers)}${body}`;
}

export async function runFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const requests = fc.sample(anyRequest(fuzzOperations(), target.known), { seed: options.seed, numRuns: options.requests });
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency ?? 4 });
  const counts = new Map<number | 'error', number>();
  const found: Violation[] = [];
  const ledger = new QuotaLedger();
  const withData = new Map<string, number>();
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      const req = requests[index]!;
      let problems: string[];
      let status: number | 'error';
      try {
        const res = await send(target.origin, agent, req, target.keys);
        status = res.status;
        problems = violations(req, res);
        if (req.auth === 'account' || req.auth === 'service') ledger.record(req.auth, res);
        if (res.status === 200 && carriesData(res.body)) {
          const op = `${req.operation.method} ${req.operation.template}`;
          withData.set(op, (withData.get(op) ?? 0) + 1);
        }
      } catch (err) {
        status = 'error';
        // A body over the limit may be cut off by the 413's closing connection while it is still sent.
        const oversized = (req.body?.length ?? 0) > 1_000_000;
        problems = oversized ? [] : [`no answer: ${(err as Error).message}`];
      }
      counts.set(status, (counts.get(status) ?? 0) + 1);
      if (problems.length > 0) found.push({ index, request: describe(req), status, problems });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  agent.destroy();
  return { counts, withData, violations: found, ledger, durationMs: performance.now() - started };
}

/** A list envelope with rows, any other JSON object or array with content, or a non-JSON body (a file). */
function carriesData(body: Buffer): boolean {
  if (body.length === 0) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return true;
  }
  if (Array.isArray(parsed)) return parsed.length > 0;
  if (parsed === null || typeof parsed !== 'object') return false;
  const data = (parsed as { data?: unknown }).data;
  return Array.isArray(data) ? data.length > 0 : Object.keys(parsed).length > 0;
}

/** Counts by status, one line each, for the CLI and the test log. */
export function formatCounts(report: FuzzReport): string {
  return [...report.counts.entries()]
    .sort(([a], [b]) => String(a).localeCompare(String(b)))
    .map(([status, n]) => `${String(status).padStart(5)}  ${n}`)
    .join('\n');
}
