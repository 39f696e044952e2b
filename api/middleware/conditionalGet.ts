// ETag, If-None-Match and Cache-Control for answers that change seldom: company and person profiles,
// catalogues and documents. Route middleware: after the handler, a JSON answer is serialised once into
// bytes (which compression then reuses instead of serialising again), hashed into a weak ETag, and a
// request whose If-None-Match names it is answered 304 without a body. The ETag is weak because the
// same entity goes out gzip- or br-encoded or not (api/middleware/compression.ts).
//
// A 304 is billed like any answer: the contract bills every endpoint call once, before the endpoint
// runs (the access chain admits and counts the request before this runs). Cache-Control is `private`:
// every answer needs a key, so no shared cache may keep one; max-age lets a client skip calls (and
// their cost) while its copy is fresh.
import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';

export const CACHE_CONTROL = {
  /** Profiles follow the registers (company register hourly): a client may reuse one for 5 minutes. */
  profile: 'private, max-age=300',
  /** Catalogues change with a deployment or a catalogue load. */
  catalogue: 'private, max-age=3600',
  /** A document key names one filed document, whose bytes never change. */
  document: 'private, max-age=31536000, immutable',
} as const;

export type CachePolicy = keyof typeof CACHE_CONTROL;

/** A weak entity tag over the answer's bytes. */
export function weakEtag(bytes: Uint8Array): string {
  return `W/"${createHash('sha1').update(bytes).digest('base64url')}"`;
}

/** ETag + Cache-Control on a 200 with a body held in memory (JSON, text or a Buffer), and 304 when If-None-Match matches. */
export function conditionalGet(policy: CachePolicy): Middleware {
  const cacheControl = CACHE_CONTROL[policy];
  return async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (ctx.status !== 200 || body == null || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return;
    let bytes: Buffer;
    if (Buffer.isBuffer(body)) bytes = body;
    else if (typeof body === 'string') bytes = Buffer.from(body, 'utf8');
    else if (typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe !== 'function') {
      // Serialised here once; the content type stays the JSON one the object set.
      bytes = Buffer.from(JSON.stringify(body), 'utf8');
      ctx.body = bytes;
    } else return; // a stream: no bytes to hash
    ctx.set('ETag', weakEtag(bytes));
    ctx.set('Cache-Control', cacheControl);
    // Koa's fresh check compares If-None-Match with the ETag (weakly, as RFC 9110 asks for GET).
    if (ctx.fresh) ctx.status = 304;
  };
}
