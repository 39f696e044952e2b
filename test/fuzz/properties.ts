// What every answer to a fuzzed request must satisfy (issue 22):
//   - never a 5xx;
//   - X-Correlation-ID on every answer, the caller's echoed when it was a valid one;
//   - errors in the contract's shapes: 401 and 429 `{ error }` as application/json, everything else
//     ProblemDetails (title, status, detail, instance, traceId = the correlation id) as
//     application/problem+json; JSON answers that parse;
//   - no protected data without a key: no 2xx without a valid key except on public operations, and
//     a key without an account never reaches an account-bound operation;
//   - quota counted exactly: every billed answer carries X-Quota-Remaining, and the values one
//     subject sees are distinct and without gaps (checked over the run by QuotaLedger).
import type { FuzzRequest } from './arbitraries.js';

export interface FuzzResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const header = (res: FuzzResponse, name: string): string | undefined => {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

const isString = (v: unknown) => typeof v === 'string';

function problemShapeViolations(res: FuzzResponse, correlationId: string | undefined): string[] {
  const type = header(res, 'content-type') ?? '';
  if (res.status === 401 || res.status === 429) {
    const body = parseJson(res.body) as { error?: unknown } | undefined;
    return type.startsWith('application/json') && isString(body?.error) ? [] : [`${res.status} is not { error } as application/json (${type})`];
  }
  if (!type.startsWith('application/problem+json')) return [`${res.status} is ${type || 'without a content type'}, not application/problem+json`];
  const body = parseJson(res.body) as Record<string, unknown> | undefined;
  if (!body) return [`${res.status} ProblemDetails does not parse`];
  const out: string[] = [];
  for (const field of ['title', 'detail', 'instance', 'traceId']) if (!isString(body[field])) out.push(`ProblemDetails.${field} missing`);
  if (body.status !== res.status) out.push(`ProblemDetails.status ${String(body.status)} differs from ${res.status}`);
  if (body.traceId !== correlationId) out.push('ProblemDetails.traceId is not the X-Correlation-ID');
  if (body.errors !== undefined) {
    const errors = body.errors as Record<string, unknown>;
    if (typeof errors !== 'object' || errors === null || !Object.values(errors).every((v) => Array.isArray(v) && v.every(isString))) {
      out.push('ProblemDetails.errors is not an object of string arrays');
    }
  }
  return out;
}

/** The property violations of one answer (empty when it is fine). */
export function violations(req: FuzzRequest, res: FuzzResponse): string[] {
  const out: string[] = [];
  if (res.status >= 500) out.push(`answered ${res.status}`);
  const correlationId = header(res, 'x-correlation-id');
  if (!correlationId) out.push('no X-Correlation-ID');
  const sent = req.headers['x-correlation-id'];
  if (sent && /^[\x21-\x7e]{1,128}$/.test(sent) && correlationId !== sent) out.push('X-Correlation-ID not echoed');
  if (res.status >= 400 && req.method !== 'HEAD') out.push(...problemShapeViolations(res, correlationId));
  const type = header(res, 'content-type') ?? '';
  if (res.status < 300 && /json/.test(type) && parseJson(res.body) === undefined) out.push(`${res.status} ${type} body does not parse`);
  const keyed = req.auth === 'account' || req.auth === 'service';
  if (!req.operation.public && !keyed && res.status < 300) out.push(`${res.status} without a valid key`);
  if (!keyed && header(res, 'x-quota-remaining') !== undefined) out.push('quota headers without a valid key');
  if (req.auth === 'service' && req.operation.accountBound && res.status < 300) out.push(`${res.status} for a key without an account on an account-bound route`);
  if (req.auth === 'account' && res.status === 401) out.push('401 for a valid account key');
  return out;
}

/** Collects the X-Quota-Remaining values per subject; `check` says whether each billed answer took exactly one unit. */
export class QuotaLedger {
  private readonly seen = new Map<string, number[]>();

  record(subject: string, res: FuzzResponse): void {
    const remaining = header(res, 'x-quota-remaining');
    if (remaining === undefined || res.status === 429) return;
    const list = this.seen.get(subject) ?? [];
    list.push(Number(remaining));
    this.seen.set(subject, list);
  }

  billed(subject: string): number {
    return this.seen.get(subject)?.length ?? 0;
  }

  /** Violations: duplicate or missing values between `limit - 1` and `limit - billed`. */
  check(subject: string, limit: number): string[] {
    const values = [...(this.seen.get(subject) ?? [])].sort((a, b) => b - a);
    const problems: string[] = [];
    values.forEach((v, i) => {
      if (v !== limit - 1 - i) problems.push(`${subject}: quota remaining ${v} where ${limit - 1 - i} was due (a unit counted twice or not at all)`);
    });
    return problems.slice(0, 5);
  }
}
