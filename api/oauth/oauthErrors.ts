// OAuth error answers (RFC 6749 §5.2, RFC 7591 §3.2.2): JSON `{ error, error_description }` with the
// status each error code has in its RFC, never cached.
import type { Context } from 'koa';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'slow_down';

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly status = code === 'invalid_client' ? 401 : code === 'slow_down' ? 429 : 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

export function noStore(ctx: Context): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
}

export function writeOAuthError(ctx: Context, err: OAuthError): void {
  noStore(ctx);
  ctx.status = err.status;
  // RFC 6749 §5.2: a client that tried HTTP Basic gets the scheme back with its 401.
  if (err.status === 401 && /^basic /i.test(ctx.get('authorization'))) ctx.set('WWW-Authenticate', 'Basic realm="oauth"');
  ctx.body = { error: err.code, error_description: err.description };
}
