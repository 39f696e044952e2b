// Turns every thrown error into one of the contract's two error bodies:
//   - ProblemDetails (application/problem+json): title, status, detail, instance, traceId, plus
//     `errors` for validation failures and `correlationId` on bodies written here from an exception;
//   - ApiError `{ error }` (application/json) for 401 and 429 (AccessError).
// A 500 never shows internals; it is logged with the correlation id so it can be found.
// Postgres or Redis out of reach is a 503 ProblemDetails with Retry-After, logged as a warning
// (serviceFaults.ts); a value Postgres cannot store that validation let through is a 400.
// Statuses without a body set by routing (404 no route, 405 wrong method) become ProblemDetails too.
import { STATUS_CODES } from 'node:http';
import type { Context, Middleware } from 'koa';
import type { Logger } from '../../runtime/logger.js';
import { AccessError, ApiError } from '../errors.js';
import { isUnstorableText, unavailableService, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../serviceFaults.js';
import { IncompleteBodyError } from './requestBody.js';

export interface ProblemDetails {
  type?: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  traceId: string;
  correlationId?: string;
  errors?: Record<string, string[]>;
}

export function writeProblem(ctx: Context, problem: ProblemDetails): void {
  ctx.status = problem.status;
  ctx.type = 'application/problem+json';
  ctx.body = problem;
}

function writeAccessError(ctx: Context, err: AccessError): void {
  ctx.status = err.status;
  ctx.type = 'application/json';
  ctx.body = { error: err.message };
}

function routingProblem(ctx: Context): ProblemDetails {
  const detail = ctx.status === 404 ? `No endpoint ${ctx.method} ${ctx.path}.` : `${ctx.method} is not allowed on ${ctx.path}.`;
  return { title: STATUS_CODES[ctx.status] ?? 'Error', status: ctx.status, detail, instance: ctx.path, traceId: ctx.state.correlationId as string };
}

/** Errors Koa or its helpers raise for bad requests (payload too large and the like). */
function isExposedClientError(err: unknown): err is Error & { status: number } {
  const e = err as { status?: unknown; expose?: unknown };
  return typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose === true;
}

export function errorHandler(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status >= 400 && ctx.body == null) writeProblem(ctx, routingProblem(ctx));
    } catch (err) {
      const traceId = ctx.state.correlationId as string;
      if (err instanceof AccessError) return writeAccessError(ctx, err);
      if (err instanceof ApiError) {
        if (err instanceof IncompleteBodyError) log.debug({ correlationId: traceId, path: ctx.path, reason: err.reason }, 'client went away before its request body was complete');
        writeProblem(ctx, {
          title: err.title,
          status: err.status,
          detail: err.detail,
          instance: ctx.path,
          traceId,
          correlationId: traceId,
          ...(err.errors ? { errors: err.errors } : {}),
        });
        return;
      }
      if (isExposedClientError(err)) {
        const title = STATUS_CODES[err.status] ?? 'Bad Request';
        writeProblem(ctx, { title, status: err.status, detail: err.message, instance: ctx.path, traceId, correlationId: traceId });
        return;
      }
      const service = unavailableService(err);
      if (service) {
        log.warn({ err, correlationId: traceId, path: ctx.path, service }, 'backing service unavailable; answered 503');
        ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
        const detail = `The ${service === 'redis' ? 'request counter' : 'database'} is not reachable at the moment. Retry after the seconds in Retry-After.`;
        writeProblem(ctx, { title: 'Service Unavailable', status: 503, detail, instance: ctx.path, traceId, correlationId: traceId });
        return;
      }
      if (isUnstorableText(err)) {
        writeProblem(ctx, {
          title: 'Bad Request', status: 400, detail: 'A value holds a character that cannot be stored or searched (such as NUL).',
          instance: ctx.path, traceId, correlationId: traceId,
        });
        return;
      }
      log.error({ err, correlationId: traceId, path: ctx.path }, 'unhandled error');
      writeProblem(ctx, {
        title: 'Internal Server Error',
        status: 500,
        detail: 'An unexpected error occurred. Quote the correlation id when you report it.',
        instance: ctx.path,
        traceId,
        correlationId: traceId,
      });
    }
  };
}
