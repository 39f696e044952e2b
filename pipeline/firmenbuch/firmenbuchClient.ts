// Firmenbuch HVD adapter: sends the SOAP envelopes of soapEnvelope.ts to a configurable base URL with
// the X-API-KEY header and turns what comes back into parsed records or typed errors:
// 429 -> UpstreamThrottledError (Retry-After); other HTTP failures, timeouts, cut-off bodies (a 200
// whose envelope stops part-way included) and unclassified faults -> UpstreamUnavailableError
// (retried); request faults -> FirmenbuchFaultError, complete but unreadable answers ->
// FirmenbuchResponseParseError and answers over the operation's size limit -> UpstreamBodyTooLargeError
// (all unrecoverable).
import http from 'node:http';
import https from 'node:https';
import { UnrecoverableInputError, UpstreamThrottledError, UpstreamUnavailableError, retryAfterMs } from '../jobs/errors.js';
import type {
  CompanyChangesResult, CompanyExtract, CompanySearchResult, DocumentChangesResult, DocumentContent, DocumentSearchResult,
} from '../../schemas/firmenbuchRecords.js';
import { parseAuszug } from './extractParser.js';
import {
  parseSucheFirma,
  parseSucheUrkunde,
  parseUrkunde,
  parseVeraenderungenFirma,
  parseVeraenderungenUrkunde,
} from './registerParsers.js';
import {
  buildAuszugRequest,
  buildSucheFirmaRequest,
  buildSucheUrkundeRequest,
  buildUrkundeRequest,
  buildVeraenderungenFirmaRequest,
  buildVeraenderungenUrkundeRequest,
  type SoapRequest,
  type SoapVersion,
  type SucheFirmaParams,
} from './soapEnvelope.js';
import { collectLimitedBody, LargeBodySlots, MiB, UpstreamBodyTooLargeError } from '../upstream/bodyLimit.js';
import { xmlDocumentComplete } from '../upstream/completeBody.js';
import { FirmenbuchFaultError, parseSoapResponse, type XmlElement } from './soapResponse.js';

export interface FirmenbuchClientOptions {
  baseUrl: string;
  apiKey?: string;
  soapVersion?: SoapVersion;
  /** Large documents arrive as one multi-MB base64 node after a slow first byte: be generous. */
  timeoutMs?: number;
  /** Largest answer accepted for the record operations (extract, searches, listings, change feeds). */
  maxBodyBytes?: number;
  /** Largest answer accepted for a document (URKUNDE: the file as one base64 node). */
  maxDocumentBytes?: number;
  /** Answers over 1 MiB this client reads at once (default 2); the others wait (bodyLimit.ts). */
  largeBodySlots?: number;
  /** Called once per request with its outcome, for metrics. */
  onRequest?: (event: { operation: string; status: number | 'error'; durationMs: number }) => void;
}

// Extracts and searches are kilobytes; a week of a change feed can reach megabytes; large banks'
// annual accounts are PDFs of tens of MB, base64 in the envelope (docs/limits-and-safety.md).
export const DEFAULT_MAX_BODY_BYTES = 32 * MiB;
export const DEFAULT_MAX_DOCUMENT_BYTES = 64 * MiB;

export interface RawResponse {
  root: XmlElement;
  /** The response text, kept so a job that fails on it can store its input. */
  text: string;
}

interface HttpReply {
  status: number;
  retryAfter: string | null;
  text: string;
}

export class FirmenbuchClient {
  private readonly url: URL;
  private readonly transport: typeof http | typeof https;
  // node:http with a keep-alive agent instead of fetch: undici's fetch (web streams, per-request
  // signals) cost much more CPU per request (docs/ingestion.md), and every company takes three requests.
  private readonly agent: http.Agent;
  readonly largeBodies: LargeBodySlots;

  constructor(private readonly options: FirmenbuchClientOptions) {
    this.largeBodies = new LargeBodySlots(options.largeBodySlots ?? 2);
    this.url = new URL(options.baseUrl);
    this.transport = this.url.protocol === 'https:' ? https : http;
    this.agent = new this.transport.Agent({ keepAlive: true });
  }

  /** Closes idle keep-alive connections (they do not hold the process open either way). */
  close(): void {
    this.agent.destroy();
  }

  private bodyLimit(request: SoapRequest): number {
    return request.operation === 'urkunde'
      ? this.options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES
      : this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  }

  /**
   * One POST; rejects on network errors, on the timeout, on a body over the limit and on one cut off
   * before its end. The timeout does not run while the answer waits for a large-body slot.
   */
  private post(request: SoapRequest, onStatus: (status: number) => void, holdSlot?: (release: () => void) => void): Promise<HttpReply> {
    const body = Buffer.from(request.body, 'utf8');
    const timeoutMs = this.options.timeoutMs ?? 120_000;
    return new Promise<HttpReply>((resolve, reject) => {
      let settled = false;
      const settle = (err: Error | null, reply?: HttpReply) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(reply!);
      };
      const req = this.transport.request(
        this.url,
        {
          method: 'POST',
          agent: this.agent,
          headers: { ...request.headers, ...(this.options.apiKey ? { 'X-API-KEY': this.options.apiKey } : {}), 'Content-Length': body.length },
        },
        (res) => {
          onStatus(res.statusCode ?? 0);
          const limits = {
            upstream: 'firmenbuch', operation: request.operation, limitBytes: this.bodyLimit(request), slots: this.largeBodies, holdSlot,
            onSlotWait: (waiting: boolean) => {
              clearTimeout(timer);
              if (!waiting && !settled) timer = setTimeout(timeout, timeoutMs);
            },
          };
          collectLimitedBody(res, limits).then((bytes) => {
            // Decoded as fetch's text() does: UTF-8, without a byte-order mark.
            const text = bytes.toString('utf8');
            const retryAfter = res.headers['retry-after'];
            settle(null, { status: res.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text });
          }).catch((err: Error) => settle(err));
        },
      );
      const timeout = () => req.destroy(new Error(`no complete answer within ${timeoutMs} ms`));
      let timer = setTimeout(timeout, timeoutMs);
      req.on('error', (err) => settle(err));
      req.end(body);
    });
  }

  private async send(request: SoapRequest, holdSlot?: (release: () => void) => void): Promise<RawResponse> {
    const started = performance.now();
    let status: number | 'error' = 'error';
    try {
      let response: HttpReply;
      try {
        response = await this.post(request, (code) => {
          status = code;
        }, holdSlot);
      } catch (err) {
        if (err instanceof UpstreamBodyTooLargeError) throw err;
        throw new UpstreamUnavailableError('firmenbuch', null, `Firmenbuch request ${request.operation} failed: ${(err as Error).message}`, { cause: err });
      }
      const { text } = response;
      if (response.status === 429) throw new UpstreamThrottledError('firmenbuch', retryAfterMs(response.retryAfter));
      if (response.status === 401 || response.status === 403) {
        throw new UpstreamUnavailableError('firmenbuch', response.status, `Firmenbuch refused the API key (HTTP ${response.status}); check FIRMENBUCH_API_KEY`);
      }
      // Faults come as HTTP 500 with a SOAP body: parseSoapResponse throws FirmenbuchFaultError for them.
      const looksLikeSoap = /Envelope/.test(text.slice(0, 2000));
      const ok = response.status >= 200 && response.status < 300;
      if (!ok && !looksLikeSoap) {
        throw new UpstreamUnavailableError('firmenbuch', response.status, `Firmenbuch answered HTTP ${response.status} for ${request.operation}`);
      }
      if (!xmlDocumentComplete(text)) {
        throw new UpstreamUnavailableError('firmenbuch', response.status, `Firmenbuch answer to ${request.operation} was cut off before the end of its envelope (${text.length} characters)`);
      }
      try {
        return { root: parseSoapResponse(text).root, text };
      } catch (err) {
        // An unclassified fault is the service's own trouble (an internal error): retried.
        if (err instanceof FirmenbuchFaultError && err.kind === 'other') {
          throw new UpstreamUnavailableError('firmenbuch', response.status, `Firmenbuch fault on ${request.operation}: ${err.reason}`, { cause: err });
        }
        throw err;
      }
    } finally {
      this.options.onRequest?.({ operation: request.operation, status, durationMs: performance.now() - started });
    }
  }

  private options_(): { soapVersion?: SoapVersion } {
    return this.options.soapVersion ? { soapVersion: this.options.soapVersion } : {};
  }

  /** Sends `request` and reads the answer with `parse`; a content error carries the answer as its raw input. */
  private async call<T>(request: SoapRequest, parse: (root: XmlElement) => T, holdSlot?: (release: () => void) => void): Promise<T> {
    return (await this.callRaw(request, parse, holdSlot)).value;
  }

  private async callRaw<T>(request: SoapRequest, parse: (root: XmlElement) => T, holdSlot?: (release: () => void) => void): Promise<{ value: T; text: string }> {
    const res = await this.send(request, holdSlot);
    try {
      return { value: parse(res.root), text: res.text };
    } catch (err) {
      if (err instanceof UnrecoverableInputError && err.rawInput === undefined) {
        throw Object.assign(err, { rawInput: res.text });
      }
      throw err;
    }
  }

  /** AUSZUG_V2 (Kurzinformation) as of `asOf` (default today; the register refuses future dates). */
  async extract(fnr: string, asOf: string = new Date().toISOString().slice(0, 10)): Promise<{ extract: CompanyExtract; raw: string }> {
    const { value, text } = await this.callRaw(buildAuszugRequest({ fnr, stichtag: asOf }, this.options_()), parseAuszug);
    return { extract: value, raw: text };
  }

  async searchCompanies(params: SucheFirmaParams): Promise<CompanySearchResult> {
    return this.call(buildSucheFirmaRequest(params, this.options_()), parseSucheFirma);
  }

  async listDocuments(fnr: string): Promise<DocumentSearchResult> {
    return this.call(buildSucheUrkundeRequest({ fnr }, this.options_()), parseSucheUrkunde);
  }

  async document(key: string): Promise<DocumentContent> {
    return this.call(buildUrkundeRequest({ key }, this.options_()), parseUrkunde);
  }

  /**
   * URKUNDE for a caller that goes on to decode and store the document: an answer over 1 MiB keeps its
   * large-body slot until the caller calls `release`, so at most `largeBodySlots` large documents are
   * in this process at once, not only being read (32 jobs at 60 MB each peaked at 4.6 GB RSS).
   */
  async heldDocument(key: string): Promise<{ doc: DocumentContent; release: () => void }> {
    let held: (() => void) | undefined;
    try {
      const doc = await this.call(buildUrkundeRequest({ key }, this.options_()), parseUrkunde, (release) => {
        held = release;
      });
      return { doc, release: held ?? (() => undefined) };
    } catch (err) {
      held?.();
      throw err;
    }
  }

  async companyChanges(from: string, to: string): Promise<CompanyChangesResult> {
    return this.call(buildVeraenderungenFirmaRequest({ von: from, bis: to }, this.options_()), parseVeraenderungenFirma);
  }

  async documentChanges(from: string, to: string): Promise<DocumentChangesResult> {
    return this.call(buildVeraenderungenUrkundeRequest({ von: from, bis: to }, this.options_()), parseVeraenderungenUrkunde);
  }
}
