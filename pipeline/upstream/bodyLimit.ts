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

/** Answers up to this size read freely; past it an answer needs one of the client's large-body slots. */
export const SMALL_BODY_BYTES = 1 * MiB;

/**
 * Bounds how many large answers a client reads at once. Each may grow to its limit and is then
 * decoded and parsed (a few copies), so 32 jobs fetching 60 MB documents at once reached 2.6 GB RSS.
 * A slot is held until the answer has arrived whole, or (holdSlot) until its caller has stored it;
 * holders never wait for another slot, so nothing deadlocks.
 */
export class LargeBodySlots {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  private held = 0;
  /** The most slots held at once (tests, metrics). */
  maxHeld = 0;

  constructor(readonly slots: number) {
    this.free = slots;
  }

  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = () => {
        this.held++;
        this.maxHeld = Math.max(this.maxHeld, this.held);
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.held--;
          const next = this.waiting.shift();
          if (next) next();
          else this.free++;
        });
      };
      if (this.free > 0) {
        this.free--;
        grant();
      } else {
        this.waiting.push(grant);
      }
    });
  }
}

export interface LimitedBodyOptions {
  upstream: string;
  operation: string;
  limitBytes: number;
  /** Without: large answers are not bounded in number. */
  slots?: LargeBodySlots;
  /**
   * Keeps the slot of a large answer past its arrival: called with the release instead of releasing,
   * so the caller holds it while it decodes and stores what it got (an error releases it here).
   */
  holdSlot?: (release: () => void) => void;
  /** Told when reading pauses for a slot and when it resumes (the caller's timeout should not run meanwhile). */
  onSlotWait?: (waiting: boolean) => void;
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
    let slot: 'none' | 'waiting' | (() => void) = 'none';
    const finish = (err: Error | null) => {
      if (done) return;
      done = true;
      if (typeof slot === 'function') {
        if (!err && options.holdSlot) options.holdSlot(slot);
        else slot();
      }
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, received));
    };
    /** Stops reading until a large-body slot is free (released at once if the answer ended meanwhile). */
    const waitForSlot = () => {
      if (!options.slots || slot !== 'none') return;
      slot = 'waiting';
      res.pause();
      options.onSlotWait?.(true);
      void options.slots.acquire().then((release) => {
        if (done) return release();
        slot = release;
        options.onSlotWait?.(false);
        res.resume();
      });
    };
    if (Number.isFinite(declared) && declared > SMALL_BODY_BYTES) waitForSlot();
    res.on('data', (chunk: Buffer) => {
      if (done) return;
      received += chunk.length;
      if (received > SMALL_BODY_BYTES) waitForSlot();
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

/**
 * The same bound for a fetch() answer: a Content-Length over the limit is refused unread, otherwise
 * the bytes are counted as they arrive (after decompression: what is held) and the transfer is
 * cancelled at the limit. Other stream errors (timeouts, resets) reject as they are.
 */
export async function readLimitedResponse(res: Response, options: LimitedBodyOptions): Promise<Buffer> {
  const { limitBytes } = options;
  const header = res.headers.get('content-length');
  const declared = header === null ? NaN : Number(header);
  if (Number.isFinite(declared) && declared > limitBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new UpstreamBodyTooLargeError(options.upstream, options.operation, limitBytes, 0, declared);
  }
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limitBytes) {
      chunks.length = 0;
      await reader.cancel().catch(() => undefined);
      throw new UpstreamBodyTooLargeError(options.upstream, options.operation, limitBytes, received, null);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, received);
}
