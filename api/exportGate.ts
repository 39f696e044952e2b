// How many exports one API process runs at once. An export holds a database connection for its
// cursor and builds a file while it streams; twenty at once exhausted a 384 MB heap and the
// connection pool, and one key can send twenty within its burst limit. Beyond the bound a request
// waits a moment for a slot in a short queue, and is then told to come back: 503 with Retry-After.
import type { Context } from 'koa';
import { ApiError } from './errors.js';

export const DEFAULT_EXPORT_CONCURRENCY = 2;
/** Seconds a refused export is asked to wait before it tries again. */
export const EXPORT_RETRY_AFTER_SECONDS = 5;

export interface ExportGateOptions {
  /** Exports running at once. */
  concurrency?: number;
  /** Exports waiting for a slot at most; more are refused at once. Default: 4 per slot. */
  maxWaiting?: number;
  /** How long one waits for a slot before it is refused. */
  waitMs?: number;
}

export class ExportGate {
  readonly concurrency: number;
  private readonly maxWaiting: number;
  private readonly waitMs: number;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(options: ExportGateOptions = {}) {
    this.concurrency = options.concurrency ?? DEFAULT_EXPORT_CONCURRENCY;
    this.maxWaiting = options.maxWaiting ?? this.concurrency * 4;
    this.waitMs = options.waitMs ?? 10_000;
  }

  get active(): number {
    return this.running;
  }

  /**
   * Takes a slot for the request, held until its response has closed (sent, or the client gone), or
   * until the returned release is called. Throws a 503 (Retry-After set) when none is free in time.
   */
  async enter(ctx: Context): Promise<() => void> {
    // A slot freed while others wait passes straight to the first of them, so none is taken twice.
    if (this.running < this.concurrency) this.running++;
    else await this.wait(ctx);
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
    ctx.res.once('close', release);
    return release;
  }

  private wait(ctx: Context): Promise<void> {
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(this.busy(ctx));
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(this.busy(ctx));
      }, this.waitMs);
      this.waiting.push(turn);
    });
  }

  private busy(ctx: Context): ApiError {
    ctx.set('Retry-After', String(EXPORT_RETRY_AFTER_SECONDS));
    return new ApiError(
      503, 'Service Unavailable',
      `${this.concurrency} exports are running on this server already. Retry after the seconds in Retry-After.`,
    );
  }
}
