// Request bodies: accepted as application/json, text/json or application/*+json and parsed here, so
// routes validate `ctx.request.body` with their zod schema. Any other content type is a 415
// ProblemDetails; unparsable JSON is a 400 naming the body. Bodies are read up to a size limit
// (1000 fnrs are ~15 KB; the default 1 MB leaves room without letting a client hold memory).
// A body over the limit (declared or counted) is a 413 with `Connection: close`: the rest of the body
// is never read, so the connection cannot carry another request and closes once the answer is out.
import type { Context, Middleware } from 'koa';
import { ApiError, unsupportedMediaType, validationFailed } from '../errors.js';

export const DEFAULT_BODY_LIMIT_BYTES = 1_048_576;

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** application/json, text/json, application/<anything>+json; parameters (charset) are ignored. */
export function isJsonMediaType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type === 'text/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

function hasBody(ctx: Context): boolean {
  const length = ctx.get('content-length');
  if (length !== '') return Number(length) > 0;
  return ctx.get('transfer-encoding') !== '';
}

/** The client went away before its body was complete: nobody reads the answer; the error handler logs it at debug. */
export class IncompleteBodyError extends ApiError {
  constructor(readonly reason: string) {
    super(400, 'Bad Request', 'The request body ended before it was complete.');
  }
}

function tooLarge(ctx: Context, limit: number): ApiError {
  ctx.set('Connection', 'close');
  return new ApiError(413, 'Payload Too Large', `Request bodies are limited to ${limit} bytes.`);
}

/** Reads the body up to `limit` bytes; stops reading (without destroying the socket) beyond it. */
export function readBody(ctx: Context, limit: number): Promise<string> {
  const req = ctx.req;
  if (Number(ctx.get('content-length')) > limit) return Promise.reject(tooLarge(ctx, limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      req.pause();
      reject(tooLarge(ctx, limit));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    // A client that goes away mid-body gets no answer: not a fault of ours, so not an error-level log line.
    const onError = (err: Error) => {
      stop();
      reject(new IncompleteBodyError(err.message));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

export function requestBody(limit = DEFAULT_BODY_LIMIT_BYTES): Middleware {
  return async (ctx, next) => {
    if (METHODS_WITH_BODY.has(ctx.method) && hasBody(ctx)) {
      const contentType = ctx.get('content-type');
      if (!isJsonMediaType(contentType)) throw unsupportedMediaType(contentType.split(';')[0]!.trim());
      const text = await readBody(ctx, limit);
      try {
        (ctx.request as { body?: unknown }).body = JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch {
        throw validationFailed({ '(body)': ['is not valid JSON'] });
      }
    }
    await next();
  };
}

/** The parsed JSON body, or undefined when the request carried none. */
export function bodyOf(ctx: Context): unknown {
  return (ctx.request as { body?: unknown }).body;
}
