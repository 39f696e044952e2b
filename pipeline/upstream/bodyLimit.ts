// The largest answer an upstream client accepts per operation. An answer over it is refused while it
// arrives (the transfer is aborted, nothing past the limit is held in memory) and fails its job at once:
// the same request would bring the same bytes again. Without a limit, one endless or oversized answer
// (600 MB once) grew a string past V8's maximum and ended the process.
import type { IncomingMessage } from 'node:http';
import { UnrecoverableInputError } from '../jobs/errors.js';

export const MiB = 1024 * 1024;

/** An answer larger than the operation's limit (declared by Content-Length or counted while it arrived). */
export class UpstreamBodyTooLargeError extends UnrecoverableInputError {
  constructor(
    readonly upstream: string,
    readonly operation: string,
    readonly limitBytes: number,
    /** Bytes received before the transfer was aborted (0 when Content-Length gave it away first). */
    readonly receivedBytes: number,
    declaredBytes: number | null,
  ) {
    super(
      `${upstream} answer to ${operation} is larger than its limit of ${limitBytes} bytes` +
        (declaredBytes !== null ? ` (Content-Length ${declaredBytes})` : ` (aborted after ${receivedBytes} bytes)`),
    );
  }
}

export interface LimitedBodyOptions {
  upstream: string;
  operation: string;
  limitBytes: number;
}

/**
 * Collects a response body up to `limitBytes`. Rejects with UpstreamBodyTooLargeError as soon as the
 * declared length or the bytes received pass the limit, and destroys the response so the connection
 * stops delivering; other stream errors reject as they are.
 */
export function collectLimitedBody(res: IncomingMessage, options: LimitedBodyOptions): Promise<Buffer> {
  const { limitBytes } = options;
  return new Promise<Buffer>((resolve, reject) => {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > limitBytes) {
      res.destroy();
      reject(new UpstreamBodyTooLargeError(options.upstream, options.operation, limitBytes, 0, declared));
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const finish = (err: Error | null) => {
      if (done) return;
      done = true;
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, received));
    };
    res.on('data', (chunk: Buffer) => {
      if (done) return;
      received += chunk.length;
      if (received > limitBytes) {
        chunks.length = 0;
        finish(new UpstreamBodyTooLargeError(options.upstream, options.operation, limitBytes, received, null));
        res.destroy();
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => finish(null));
    res.on('error', (err) => finish(err));
    // A connection dropped mid-body ends without 'end' (Content-Length not reached).
    res.on('close', () => finish(new Error('connection closed before the response was complete')));
  });
}
