// Turns every thrown error into the contract's ProblemDetails (application/problem+json): title,
// status, detail, instance, traceId, correlationId, plus `errors` for validation failures. A 500
// never shows internals; it is logged with the correlation id so it can be found.
import type { Middleware } from 'koa';
import type { Logger } from '../../runtime/logger.js';
import { ApiError } from '../errors.js';

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

export function writeProblem(ctx: Parameters<Middleware>[0], problem: ProblemDetails): void {
  ctx.status = problem.status;
  ctx.type = 'application/problem+json';
  ctx.body = problem;
}

export function errorHandler(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) {
        writeProblem(ctx, {
          title: 'Not Found',
          status: 404,
          detail: `No endpoint ${ctx.method} ${ctx.path}.`,
          instance: ctx.path,
          traceId: ctx.state.correlationId as string,
        });
      }
    } catch (err) {
      const traceId = ctx.state.correlationId as string;
      if (err instanceof ApiError) {
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
      const status = (err as { status?: number; expose?: boolean }).status;
      if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: boolean }).expose) {
        // Errors Koa itself raises for bad requests (malformed body, payload too large).
        writeProblem(ctx, { title: 'Bad Request', status, detail: (err as Error).message, instance: ctx.path, traceId, correlationId: traceId });
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
