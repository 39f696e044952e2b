// Echoes the caller's x-correlation-id or makes one, and puts it on every response (errors too, which
// is why this runs before the error handler).
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const MAX_LENGTH = 128;

export function correlationId(): Middleware {
  return async (ctx, next) => {
    const given = ctx.get('x-correlation-id').trim();
    const id = given !== '' && given.length <= MAX_LENGTH && /^[\x21-\x7e]+$/.test(given) ? given : randomUUID();
    ctx.state.correlationId = id;
    ctx.set('X-Correlation-ID', id);
    await next();
  };
}
