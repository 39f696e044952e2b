// Error types decide what happens to a failed job, not messages:
//   UpstreamThrottledError   the upstream said 429 (or its quota is spent): pause that register's
//                            queue for Retry-After, without using up an attempt;
//   UpstreamAuthenticationError  it refused our credentials: the service pauses the queue likewise
//                            (until an operator fixes them); a replay ends at once with the reason;
//   UnrecoverableInputError  a well-formed answer whose content can never be processed (unparseable
//                            payload, schema fault, malformed document): fail at once, keep the raw
//                            input on the job. Every parser's error extends it;
//   anything else            transport faults (network, timeouts, 5xx, a body cut off before its
//                            end): retried with exponential backoff, failed only when attempts run out.

export class UpstreamThrottledError extends Error {
  override readonly name: string = 'UpstreamThrottledError';
  constructor(readonly upstream: string, readonly retryAfterMs: number, message?: string) {
    super(message ?? `${upstream} answered 429; retry after ${Math.ceil(retryAfterMs / 1000)} s`);
  }
}

/** The upstream refused our credentials: every call would fail alike until an operator fixes them. */
export class UpstreamAuthenticationError extends UpstreamThrottledError {
  override readonly name: string = 'UpstreamAuthenticationError';
}

/** A transport fault: the answer did not arrive whole, or the upstream could not give one now. */
export class UpstreamUnavailableError extends Error {
  override readonly name = 'UpstreamUnavailableError';
  constructor(readonly upstream: string, readonly status: number | null, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class UnrecoverableInputError extends Error {
  constructor(message: string, readonly rawInput?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export function isUnrecoverable(err: unknown): err is UnrecoverableInputError {
  return err instanceof UnrecoverableInputError;
}

/** Parses Retry-After (seconds or an HTTP date) into milliseconds, with a floor and a default. */
export function retryAfterMs(header: string | null, now = Date.now(), fallbackMs = 30_000): number {
  if (!header) return fallbackMs;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.max(1000, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? fallbackMs : Math.max(1000, at - now);
}
