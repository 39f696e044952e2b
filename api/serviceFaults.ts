// Errors that are not the request's fault and not a bug either: Postgres or Redis cannot be reached
// or have just dropped a connection. The error handler answers them 503 with Retry-After (the
// client may simply retry) instead of 500, and logs them as warnings. Both clients reconnect on
// their own, so the API recovers without a restart once the service is back.
// Also here: the Postgres errors a value can cause that validation should have refused (a NUL
// character), answered 400 as a last line behind api/validation.ts.

/** Seconds a client is asked to wait when a backing service is down. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export type BackingService = 'database' | 'redis';

/** A backing service failed; thrown by code that knows which (the admission wraps Redis errors in it). */
export class ServiceUnavailableError extends Error {
  override readonly name = 'ServiceUnavailableError';
  constructor(readonly service: BackingService, options?: { cause?: unknown }) {
    super(`${service} unavailable`, options);
  }
}

// porsager/postgres connection codes, socket errors, and SQLSTATEs of a server going away, refusing
// connections (too many, starting up, shutting down) or out of resources.
const POSTGRES_UNAVAILABLE = new Set([
  'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT',
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH',
  '57P01', '57P02', '57P03', '53000', '53100', '53200', '53300', '53400',
]);

/** SQLSTATEs of a value Postgres cannot take as text: a NUL character (22021, 22P05). */
const POSTGRES_BAD_TEXT = new Set(['22021', '22P05']);

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** Which backing service `err` says is unavailable, if any. */
export function unavailableService(err: unknown): BackingService | undefined {
  if (err instanceof ServiceUnavailableError) return err.service;
  const code = codeOf(err);
  // Class 08: connection exceptions.
  if (POSTGRES_UNAVAILABLE.has(code) || code.startsWith('08')) return 'database';
  return undefined;
}

export function isUnstorableText(err: unknown): boolean {
  return POSTGRES_BAD_TEXT.has(codeOf(err));
}
