// CORS for the API (@koa/cors), for browser apps on the origins named in CORS_ORIGINS (`*`: any).
// A preflight (OPTIONS with Access-Control-Request-Method) from an allowed origin is answered here,
// before the access chain: browsers send no x-api-key with it, so it could never pass the chain. Any
// other request, OPTIONS without that header included, goes on to the chain as before, with the CORS
// headers set so a page can read the answer (errors too). Credentials (the dashboard's session
// cookie) are not allowed across origins: a browser app sends its key.
import cors from '@koa/cors';
import type { Middleware } from 'koa';

/** Headers a browser app may send, and those it may read besides the CORS-safelisted ones. */
const ALLOW_HEADERS = ['x-api-key', 'content-type', 'accept', 'if-none-match', 'x-correlation-id'];
const EXPOSE_HEADERS = [
  'ETag', 'Content-Disposition', 'Retry-After', 'X-Correlation-ID',
  'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Quota-Limit', 'X-Quota-Remaining',
];
/** Seconds a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE = 600;

/** The CORS middleware for `origins` (exact origins such as `https://app.example.org`, or `*`). */
export function apiCors(origins: readonly string[]): Middleware {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return cors({
    // '' leaves the request alone: no CORS headers, and a preflight goes on to the chain (a 401).
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      if (origin === '') return '';
      return any ? '*' : allowed.has(origin) ? origin : '';
    },
    allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE,
    credentials: false,
  });
}
