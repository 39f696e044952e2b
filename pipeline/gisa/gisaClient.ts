// GISA V2 adapter: posts `<{Method}Input>` (with the key inside) to `{GISA_URL}/xml/{Method}` under
// the key's quotas and turns the answer into records or typed errors:
//   quota spent here or by GISA, HTTP 429                  -> UpstreamThrottledError (queue pauses, no attempt used)
//   code 300 (key refused)                                 -> UpstreamAuthenticationError (the same; a replay ends)
//   network, timeout, HTTP 5xx, a cut-off body, code 310    -> UpstreamUnavailableError (retried)
//   code 1000 -> GisaNotFoundError; 320/1020 -> GisaJobLostError; other codes and unreadable answers
//   -> GisaContentError / GisaResponseParseError (unrecoverable, the answer kept as raw input)
//   an answer over its size limit (data calls, extracts)    -> UpstreamBodyTooLargeError (unrecoverable)
// Extract polls (GetAuszugStatus, GetAuszug) may use the whole data quota; every other data call stops
// short of it by the poll reserve, so a running extract is not starved by the lookups.
import { UnrecoverableInputError, UpstreamAuthenticationError, UpstreamThrottledError, UpstreamUnavailableError, retryAfterMs } from '../jobs/errors.js';
import type { CallQuota } from '../jobs/callQuota.js';
import { MiB, readLimitedResponse, UpstreamBodyTooLargeError } from '../upstream/bodyLimit.js';
import { xmlDocumentComplete } from '../upstream/completeBody.js';
import type { TradeCatalogueEntry, TradeKind, TradeLicence, TradeLicenceHit } from '../../schemas/tradeRecords.js';
import {
  parseApikeyInfo, parseAuszug, parseAuszugStatus, parseGetGewerbeV2, parseKatalogGewerbeart, parseKatalogGewerbeschluessel, parseSearchPerson,
  parseStartAuszug, type ApikeyInfo,
} from './gewerbeParser.js';
import { buildInput, GisaContentError, GisaNotFoundError, parseAnswer, type GisaMethod, type XmlElement } from './gisaXml.js';

/** The extract job id is unknown or not this key's (320, 1020): start a new job. */
export class GisaJobLostError extends GisaContentError {}

/** The extract quota is spent: the extract job waits (delayed), the data lookups go on. */
export class GisaExtractQuotaError extends UpstreamThrottledError {}

/** The data calls a window keeps for extract polls: a tenth of the quota (20 of GISA's 200). */
export function extractPollReserve(dataQuotaMax: number): number {
  return Math.max(1, Math.ceil(dataQuotaMax / 10));
}

/** The methods of a running extract job, which may use the data calls the lookups leave in reserve. */
const EXTRACT_POLLS: ReadonlySet<GisaMethod> = new Set(['GetAuszugStatus', 'GetAuszug']);

/** GISA's own answer to a spent quota (not a documented code: recognised by its text too). */
const QUOTA_CODE = '330';
const QUOTA_TEXT = /kontingent|quota|limit/i;
/** After code 300 (key unknown or expired) the queue waits this long: every call would fail alike. */
const KEY_REFUSED_PAUSE_MS = 5 * 60_000;
/** Defaults of GISA_MAX_BODY_MB and GISA_MAX_EXTRACT_MB: the catalogues are the largest data answers (well under 1 MB). */
export const GISA_DEFAULT_MAX_BODY_BYTES = 16 * MiB;
export const GISA_DEFAULT_MAX_EXTRACT_BYTES = 32 * MiB;

export interface GisaClientOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Largest answer accepted to a data call, and to GetAuszug (a signed PDF, base64 in the XML). */
  maxBodyBytes?: number;
  maxExtractBytes?: number;
  /** 200 data calls a minute per key (every method but StartGISAAuszug). */
  dataQuota?: CallQuota;
  /** 10 extract starts a minute per key. */
  extractQuota?: CallQuota;
  onRequest?: (event: { operation: string; status: number | 'error'; durationMs: number }) => void;
}

export class GisaClient {
  private readonly base: string;

  constructor(private readonly options: GisaClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  /** Takes one data call or throws UpstreamThrottledError; only extract polls reach into the poll reserve. */
  private async takeDataCall(method: GisaMethod): Promise<void> {
    const quota = this.options.dataQuota;
    if (!quota) return;
    const ceiling = EXTRACT_POLLS.has(method) ? quota.limit.max : quota.limit.max - extractPollReserve(quota.limit.max);
    const wait = await quota.take(1, Math.max(1, ceiling));
    if (wait) throw new UpstreamThrottledError('gisa', wait, `GISA data quota spent; the next ${method} fits in ${Math.ceil(wait / 1000)} s`);
  }

  private async post(method: GisaMethod, body: string): Promise<string> {
    const started = performance.now();
    let status: number | 'error' = 'error';
    try {
      let res: Response;
      let text: string;
      try {
        res = await fetch(`${this.base}/xml/${method}`, {
          method: 'POST', body, headers: { 'Content-Type': 'application/xml; charset=utf-8', Accept: 'application/xml' },
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
        });
        status = res.status;
        const limitBytes = method === 'GetAuszug'
          ? this.options.maxExtractBytes ?? GISA_DEFAULT_MAX_EXTRACT_BYTES
          : this.options.maxBodyBytes ?? GISA_DEFAULT_MAX_BODY_BYTES;
        text = new TextDecoder().decode(await readLimitedResponse(res, { upstream: 'gisa', operation: method, limitBytes }));
      } catch (err) {
        if (err instanceof UpstreamBodyTooLargeError) throw err;
        throw new UpstreamUnavailableError('gisa', null, `GISA ${method} failed: ${(err as Error).message}`, { cause: err });
      }
      if (res.status === 429) throw new UpstreamThrottledError('gisa', retryAfterMs(res.headers.get('retry-after')));
      if (res.status < 200 || res.status >= 300) throw new UpstreamUnavailableError('gisa', res.status, `GISA answered HTTP ${res.status} for ${method}`);
      if (!xmlDocumentComplete(text)) throw new UpstreamUnavailableError('gisa', res.status, `GISA answer to ${method} was cut off (${text.length} characters)`);
      return text;
    } finally {
      this.options.onRequest?.({ operation: method, status, durationMs: performance.now() - started });
    }
  }

  private async call<T>(method: GisaMethod, fields: Record<string, string | boolean | null | undefined>, read: (root: XmlElement) => T): Promise<T> {
    if (method === 'StartGISAAuszug') {
      const wait = await this.options.extractQuota?.take();
      if (wait) throw new GisaExtractQuotaError('gisa', wait, `GISA extract quota spent; next start in ${Math.ceil(wait / 1000)} s`);
    } else {
      await this.takeDataCall(method);
    }
    const text = await this.post(method, buildInput(method, this.options.apiKey ?? '', fields));
    const answer = parseAnswer(method, text);
    if (answer.returncode !== 'OK') throw this.contentError(method, answer.messages, text);
    try {
      return read(answer.root);
    } catch (err) {
      if (err instanceof UnrecoverableInputError && err.rawInput === undefined) throw Object.assign(err, { rawInput: text });
      throw err;
    }
  }

  private contentError(method: GisaMethod, messages: GisaContentError['messages'], text: string): Error {
    const codes = new Set(messages.map((m) => m.code));
    if (codes.has(QUOTA_CODE) || messages.some((m) => m.text && QUOTA_TEXT.test(m.text))) {
      const window = (method === 'StartGISAAuszug' ? this.options.extractQuota : this.options.dataQuota)?.limit.windowMs ?? 60_000;
      return method === 'StartGISAAuszug' ? new GisaExtractQuotaError('gisa', window, 'GISA says the extract quota is spent') : new UpstreamThrottledError('gisa', window, 'GISA says the data quota is spent');
    }
    if (codes.has('300')) return new UpstreamAuthenticationError('gisa', KEY_REFUSED_PAUSE_MS, 'GISA refused the API key (code 300); check GISA_API_KEY');
    if (codes.has('310')) return new UpstreamUnavailableError('gisa', 200, `GISA ${method}: unexpected error (code 310)`);
    if (codes.has('1000')) return new GisaNotFoundError(method, messages, text);
    if (codes.has('320') || codes.has('1020')) return new GisaJobLostError(method, messages, text);
    return new GisaContentError(method, messages, text);
  }

  /** The licences a company holds (and held: SearchHistorisch), by its Firmenbuch number. */
  searchCompany(fnr: string): Promise<{ hits: TradeLicenceHit[]; capped: boolean }> {
    return this.call('SearchPersonJur', { Firmenbuchnummer: fnr, SearchAuslVermittler: false, SearchHistorisch: true, SearchPhonetisch: false }, parseSearchPerson);
  }

  /** The licences a natural person holds, by name and birth date. */
  searchPerson(p: { firstName: string | null; lastName: string; birthDate: string }): Promise<{ hits: TradeLicenceHit[]; capped: boolean }> {
    return this.call('SearchPersonNat', {
      Familienname: p.lastName, Geburtsdatum: p.birthDate, SearchAuslVermittler: false, SearchHistorisch: true, SearchPhonetisch: false, Vorname: p.firstName,
    }, parseSearchPerson);
  }

  /** One licence in full. */
  licence(gisaZahl: string): Promise<TradeLicence> {
    return this.call('GetGewerbeV2', { GISAZahl: gisaZahl }, parseGetGewerbeV2);
  }

  tradeKeys(): Promise<TradeCatalogueEntry[]> {
    return this.call('GetKatalogGewerbeschluessel', {}, parseKatalogGewerbeschluessel);
  }

  tradeKinds(): Promise<TradeKind[]> {
    return this.call('GetKatalogGewerbeart', {}, parseKatalogGewerbeart);
  }

  startExtract(gisaZahl: string, language: 'de' | 'en', historical: boolean): Promise<number> {
    return this.call('StartGISAAuszug', { GISAZahl: gisaZahl, Historisch: historical ? 'true' : 'false', Sprache: language === 'en' ? 'Englisch' : 'Deutsch' }, parseStartAuszug);
  }

  extractStatus(jobId: number): Promise<'Working' | 'Completed'> {
    return this.call('GetAuszugStatus', { Jobid: String(jobId) }, parseAuszugStatus);
  }

  extract(jobId: number): Promise<Buffer> {
    return this.call('GetAuszug', { Jobid: String(jobId) }, parseAuszug);
  }

  apikeyInfo(): Promise<ApikeyInfo> {
    return this.call('GetApikeyInfo', {}, parseApikeyInfo);
  }
}
