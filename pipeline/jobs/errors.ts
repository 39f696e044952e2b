// Error types decide what happens to a failed job, not messages:
//   UpstreamThrottledError   the upstream said 429: pause that upstream's queue for Retry-After,
//                            without using up an attempt;
//   UnrecoverableInputError  the input can never be processed (unparseable, schema fault, malformed
//                            document): fail at once, keep the raw input on the job for inspection;
//   anything else            network blip, timeout, 5xx: retried with exponential backoff.
// Each sets `name` so the check also works across process boundaries, where instanceof does not.

export class UpstreamThrottledError extends Error {
  override readonly name = 'UpstreamThrottledError';
  constructor(readonly upstream: string, readonly retryAfterMs: number) {
    super(`${upstream} answered 429; retry after ${Math.ceil(retryAfterMs / 1000)} s`);
  }
}

export class UpstreamUnavailableError extends Error {
  override readonly name = 'UpstreamUnavailableError';
  constructor(readonly upstream: string, readonly status: number | null, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class UnrecoverableInputError extends Error {
  override readonly name = 'UnrecoverableInputError';
  constructor(message: string, readonly rawInput?: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Names of errors that are the input's fault (parsers throw these), mapped to unrecoverable. */
const UNRECOVERABLE_NAMES = new Set(['UnrecoverableInputError', 'AnnualAccountParseError', 'FirmenbuchResponseParseError', 'PdfTextError']);

export function isUnrecoverable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (UNRECOVERABLE_NAMES.has(err.name)) return true;
  // Schema and parameter faults of the register say the request is wrong: retrying changes nothing.
  // An unclassified fault ('other', e.g. an internal error of the service) may pass: retried.
  if (err.name === 'FirmenbuchFaultError') return (err as { kind?: string }).kind !== 'other';
  return false;
}

/** Parses Retry-After (seconds or an HTTP date) into milliseconds, with a floor and a default. */
export function retryAfterMs(header: string | null, now = Date.now(), fallbackMs = 30_000): number {
  if (!header) return fallbackMs;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.max(1000, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? fallbackMs : Math.max(1000, at - now);
}
