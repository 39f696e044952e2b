// The Ediktsdatei's IWG interface (IBM Domino Access Services, JSON) under EDIKTE_URL, with HTTP Basic
// credentials: view pages (`collections/name/{view}`, ps at most 100, `page` or `startkeys`,
// `sortcolumn=AZKey` so paging is stable, an optional `search=`) and single edicts
// (`documents/unid/{unid}?multipart=false`, If-Modified-Since). What comes back is classified as the
// job runner needs it:
//   429 -> UpstreamThrottledError; 401/403 or Domino's login form (HTTP 200 HTML) -> IwgAuthenticationError
//   (an UpstreamAuthenticationError: the service's queue pauses and the log says why, a replay ends);
//   network errors, timeouts, 5xx and cut-off bodies -> UpstreamUnavailableError (retried); 404 of a
//   document -> `gone`; a complete answer that does not read (HTML other than the login form, too), a
//   400/404 of a view, or an answer over maxBodyBytes -> unrecoverable (retrying brings the same).
import http from 'node:http';
import https from 'node:https';
import type { ParsedNotice, ViewPage } from '../../schemas/courtNoticeRecords.js';
import { UnrecoverableInputError, UpstreamAuthenticationError, UpstreamThrottledError, UpstreamUnavailableError, retryAfterMs } from '../jobs/errors.js';
import type { UpstreamRequestEvent } from '../register.js';
import { collectLimitedBody, MiB, UpstreamBodyTooLargeError } from '../upstream/bodyLimit.js';
import { jsonDocumentComplete } from '../upstream/completeBody.js';
import { isLoginForm, parseNoticeDocument, parseViewPage, redactIwgInput } from './iwgParser.js';

const UPSTREAM = 'edikte';
/** Most entries a page may hold (the interface's limit). */
export const MAX_PAGE_SIZE = 100;
/** Default of EDIKTE_MAX_BODY_MB: a page of 100 entries is ~50 KB, an edict rarely 100 KB. */
export const IWG_DEFAULT_MAX_BODY_BYTES = 16 * MiB;
/** How long the queue pauses when the interface refuses the login: long enough not to hammer it, short enough to notice a fix. */
export const AUTH_PAUSE_MS = 15 * 60_000;

/** The interface refused our credentials: the queue pauses (a replay ends), never a per-document failure. */
export class IwgAuthenticationError extends UpstreamAuthenticationError {
  constructor(detail: string) {
    super(UPSTREAM, AUTH_PAUSE_MS, `Ediktsdatei refused the login (${detail}): check EDIKTE_USER and EDIKTE_PASSWORD`);
  }
}

export type View = 'All' | 'Deletions';

export type DocumentFetch =
  | { status: 'not-modified' }
  | { status: 'gone' }
  | { status: 'ok'; notice: ParsedNotice; raw: string };

export interface IwgClientOptions {
  baseUrl: string;
  user?: string;
  password?: string;
  timeoutMs?: number;
  /** Larger answers are refused while they arrive, and fail the job at once. */
  maxBodyBytes?: number;
  /**
   * Requests per second this client sends at most. A page job fetches its documents itself, so the
   * queue's limiter (jobs per second) no longer bounds requests; this does, per process.
   */
  ratePerSecond?: number;
  onRequest?: (event: UpstreamRequestEvent) => void;
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** encodeURIComponent plus the characters the IWG notes ask to encode and it leaves alone. */
const encode = (v: string) => encodeURIComponent(v).replace(/[()!*']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export class IwgClient {
  private readonly base: string;
  private readonly transport: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly authorization: string | null;
  /** When the next request may start (ms, performance clock). */
  private nextSlot = 0;

  constructor(private readonly options: IwgClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.transport = this.base.startsWith('https:') ? https : http;
    this.agent = new this.transport.Agent({ keepAlive: true });
    this.authorization = options.user || options.password ? `Basic ${Buffer.from(`${options.user ?? ''}:${options.password ?? ''}`).toString('base64')}` : null;
  }

  close(): void {
    this.agent.destroy();
  }

  private get(operation: string, path: string, headers: Record<string, string>): Promise<Reply> {
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    return new Promise<Reply>((resolve, reject) => {
      let settled = false;
      const settle = (err: Error | null, reply?: Reply) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(reply!);
      };
      const req = this.transport.get(`${this.base}${path}`, {
        agent: this.agent,
        headers: { Accept: 'application/json', ...(this.authorization ? { Authorization: this.authorization } : {}), ...headers },
      }, (res) => {
        // Rejects on a dropped connection too (it ends without 'end').
        collectLimitedBody(res, { upstream: UPSTREAM, operation, limitBytes: this.options.maxBodyBytes ?? IWG_DEFAULT_MAX_BODY_BYTES }).then(
          (body) => settle(null, { status: res.statusCode ?? 0, headers: res.headers, text: body.toString('utf8') }),
          (err: Error) => settle(err),
        );
      });
      const timer = setTimeout(() => req.destroy(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('error', (err) => settle(err));
    });
  }

  /** Waits for this request's slot under ratePerSecond. */
  private async slot(): Promise<void> {
    const rate = this.options.ratePerSecond;
    if (!rate) return;
    const now = performance.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + 1000 / rate;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }

  /** One GET, classified; resolves only with answers a caller can read (2xx, 304, and 404 for `allow404`). */
  private async call(operation: string, path: string, headers: Record<string, string> = {}, allow404 = false): Promise<Reply> {
    await this.slot();
    const started = performance.now();
    let status: number | 'error' = 'error';
    try {
      let reply: Reply;
      try {
        reply = await this.get(operation, path, headers);
      } catch (err) {
        if (err instanceof UpstreamBodyTooLargeError) throw err;
        throw new UpstreamUnavailableError(UPSTREAM, null, `Ediktsdatei ${operation} failed: ${(err as Error).message}`, { cause: err });
      }
      status = reply.status;
      const contentType = String(reply.headers['content-type'] ?? '');
      if (reply.status === 429) throw new UpstreamThrottledError(UPSTREAM, retryAfterMs(String(reply.headers['retry-after'] ?? '') || null));
      if (reply.status === 401 || reply.status === 403 || (reply.status === 200 && isLoginForm(contentType, reply.text))) {
        // The job runner logs it once, with what it does about it (a pause, or the end of a replay).
        throw new IwgAuthenticationError(reply.status === 200 ? 'it answered its login form' : `HTTP ${reply.status}`);
      }
      if (reply.status === 304 || (reply.status === 404 && allow404)) return reply;
      if (reply.status >= 500 || reply.status === 408) throw new UpstreamUnavailableError(UPSTREAM, reply.status, `Ediktsdatei answered HTTP ${reply.status} for ${operation}`);
      if (reply.status < 200 || reply.status >= 300) {
        // Redacted as content errors are: an answer may echo an edict.
        const text = redactIwgInput(reply.text);
        throw new UnrecoverableInputError(`Ediktsdatei answered HTTP ${reply.status} for ${operation} (${path}): ${text.slice(0, 300)}`, text);
      }
      if (!jsonDocumentComplete(reply.text)) {
        throw new UpstreamUnavailableError(UPSTREAM, reply.status, `Ediktsdatei answer to ${operation} was cut off (${reply.text.length} characters)`);
      }
      return reply;
    } finally {
      this.options.onRequest?.({ operation, status, durationMs: performance.now() - started });
    }
  }

  /**
   * One page (0-based) of a view, sorted by AZKey, optionally narrowed by a search; or with `startKey`
   * the page that starts at the first entry whose AZKey sorts at or after it (Domino's `startkeys`:
   * keyset paging, which an entry deleted before the cursor cannot shift).
   */
  async viewPage(view: View, page: number, options: { search?: string; pageSize?: number; startKey?: string } = {}): Promise<ViewPage> {
    const ps = Math.min(MAX_PAGE_SIZE, options.pageSize ?? MAX_PAGE_SIZE);
    const query = [
      `ps=${ps}`, ...(options.startKey !== undefined ? [`startkeys=${encode(options.startKey)}`] : [`page=${page}`]), 'sortcolumn=AZKey',
      ...(options.search ? [`search=${encode(options.search)}`] : []),
    ];
    const reply = await this.call(options.search ? 'search' : 'view', `/collections/name/${view}?${query.join('&')}`);
    return parseViewPage(reply.text, String(reply.headers['content-range'] ?? '') || null);
  }

  /** One edict; `since` (the stored @modified) makes an unchanged one a 304. */
  async document(unid: string, since?: string | null): Promise<DocumentFetch> {
    const headers: Record<string, string> = since ? { 'If-Modified-Since': new Date(since).toUTCString() } : {};
    const reply = await this.call('document', `/documents/unid/${encodeURIComponent(unid)}?multipart=false`, headers, true);
    if (reply.status === 304) return { status: 'not-modified' };
    if (reply.status === 404) return { status: 'gone' };
    return { status: 'ok', notice: parseNoticeDocument(reply.text), raw: reply.text };
  }
}
