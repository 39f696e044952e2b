// The BMF list download: one GET of BMF_LSU_URL, conditional when an earlier answer gave an ETag or
// Last-Modified (a 304 means the list is as it was), the body decoded from ISO-8859-1. What comes back
// is classified as the job runner needs it: 429 -> UpstreamThrottledError; network errors, timeouts,
// a body that breaks off, 401/403 and other HTTP failures -> UpstreamUnavailableError (retried); a body
// over maxBodyBytes -> UpstreamBodyTooLargeError (unrecoverable: the same URL brings the same bytes).
// Whether a 200's body is the whole list is for the caller (lsuListComplete) to say.
import { UpstreamThrottledError, UpstreamUnavailableError, retryAfterMs } from '../jobs/errors.js';
import type { UpstreamRequestEvent } from '../register.js';
import { MiB, readLimitedResponse, UpstreamBodyTooLargeError } from '../upstream/bodyLimit.js';

/** Default of BMF_LSU_MAX_BODY_MB: the list of about 1,500 entries is about 250 KB. */
export const LSU_DEFAULT_MAX_BODY_BYTES = 16 * MiB;

export interface LsuClientOptions {
  url: string;
  timeoutMs?: number;
  /** Largest list accepted, in bytes. */
  maxBodyBytes?: number;
  onRequest?: (event: UpstreamRequestEvent) => void;
}

/** What an earlier answer said about its version, sent back so an unchanged list costs a 304. */
export interface Validators {
  etag?: string | null;
  lastModified?: string | null;
}

export type LsuFetch =
  | { status: 'not-modified' }
  | { status: 'ok'; text: string; bytes: number; etag: string | null; lastModified: string | null };

const UPSTREAM = 'bmf';

/**
 * The list is ISO-8859-1; decoded as windows-1252, which is the same for every printable Latin-1
 * byte and gives the typographic quotes a Windows-kept list may carry in 0x80-0x9F their meaning.
 */
function decode(bytes: Uint8Array, contentType: string | null): string {
  const utf8 = /charset\s*=\s*"?utf-?8/i.test(contentType ?? '');
  return new TextDecoder(utf8 ? 'utf-8' : 'windows-1252').decode(bytes);
}

export class LsuClient {
  constructor(private readonly options: LsuClientOptions) {}

  async fetchList(validators: Validators = {}): Promise<LsuFetch> {
    const started = performance.now();
    let status: number | 'error' = 'error';
    const headers: Record<string, string> = { Accept: 'text/csv, text/plain, */*' };
    if (validators.etag) headers['If-None-Match'] = validators.etag;
    if (validators.lastModified) headers['If-Modified-Since'] = validators.lastModified;
    try {
      let res: Response;
      let bytes: Uint8Array;
      try {
        res = await fetch(this.options.url, { headers, signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000) });
        status = res.status;
        bytes = await readLimitedResponse(res, { upstream: UPSTREAM, operation: 'list', limitBytes: this.options.maxBodyBytes ?? LSU_DEFAULT_MAX_BODY_BYTES });
      } catch (err) {
        if (err instanceof UpstreamBodyTooLargeError) throw err;
        throw new UpstreamUnavailableError(UPSTREAM, null, `BMF list download failed: ${(err as Error).message}`, { cause: err });
      }
      if (res.status === 304) return { status: 'not-modified' };
      if (res.status === 429) throw new UpstreamThrottledError(UPSTREAM, retryAfterMs(res.headers.get('retry-after')));
      if (res.status === 401 || res.status === 403) {
        throw new UpstreamUnavailableError(UPSTREAM, res.status, `BMF refused the list download (HTTP ${res.status}); the list is public, so check BMF_LSU_URL and any proxy`);
      }
      if (res.status < 200 || res.status >= 300) throw new UpstreamUnavailableError(UPSTREAM, res.status, `BMF answered HTTP ${res.status} for the list`);
      return {
        status: 'ok',
        text: decode(bytes, res.headers.get('content-type')),
        bytes: bytes.length,
        etag: res.headers.get('etag'),
        lastModified: res.headers.get('last-modified'),
      };
    } finally {
      this.options.onRequest?.({ operation: 'list', status, durationMs: performance.now() - started });
    }
  }
}
