// Response content type for successful JSON answers: application/json by default, text/json or
// text/plain when the Accept header prefers them (the body is the same JSON text). Error bodies keep
// their contract types (problem+json, and application/json for 401/429); files keep theirs. An Accept
// header that names none of the three still gets application/json: every client can read it, and a
// 406 would only cost a billed request.
import type { Middleware } from 'koa';

const OFFERED = ['application/json', 'text/json', 'text/plain'] as const;

export function responseType(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status >= 300 || ctx.body == null || !ctx.response.is('application/json')) return;
    const accept = ctx.get('accept');
    if (accept === '' || accept === '*/*') return;
    const chosen = ctx.accepts(...OFFERED);
    if (chosen === 'text/json') ctx.type = 'text/json; charset=utf-8';
    else if (chosen === 'text/plain') ctx.type = 'text/plain; charset=utf-8';
  };
}
