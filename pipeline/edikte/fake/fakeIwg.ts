// A fake of the Ediktsdatei's IWG interface (IBM Domino Access Services, JSON) for replays, tests and
// the benchmark, speaking the real formats: `collections`, `collections/name/{All|Deletions}` paged
// with `ps` (at most 100) and `page` (or `start`/`count`, or `startkeys` with `sortcolumn=AZKey`),
// `search=` in Domino's query language capped at 5000 results, `Content-Range: items a-b/total`,
// `documents/unid/{unid}` with `multipart=false` and If-Modified-Since (304), Domino's `\/` escapes and
// JSON error bodies. Without valid HTTP Basic credentials it answers, as Domino does, its login form
// with HTTP 200. Without `sortcolumn` a search comes back in an order that changes between requests
// (so paging only holds with `sortcolumn=AZKey`).
// Transport faults are injected from FaultRates: 401, 429, 500, timeouts, truncated and cut-off bodies.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeUpstream, FaultRates } from '../../register.js';
import { faultDrawer, type InjectedFault } from '../../upstream/faultPlan.js';
import { IwgCorpus, type FakeDocument } from './iwgCorpus.js';
import { IWG_BASE_PATH, dominoJson } from './iwgDocuments.js';
import { SearchSyntaxError, parseSearch } from './searchQuery.js';

export const SEARCH_CAP = 5000;
const MAX_PAGE_SIZE = 100;

export interface FakeIwgOptions {
  /** The register's fixture directory (`<corpus>/edikte`), or a corpus already loaded. */
  corpus: string | IwgCorpus;
  /** HTTP Basic credentials the fake accepts; unset, any call is let in. */
  credentials?: { user?: string; password?: string };
  faults?: FaultRates;
  /** The register's clock (ISO date or instant): what is published and deleted by then. Default: the real time. */
  now?: string;
  /** The server's cap on search results (default 5000, as the real one). */
  searchCap?: number;
  /** Send Content-Range with view pages (default true); false plays a server that leaves it out. */
  contentRange?: boolean;
  port?: number;
}

export interface FakeIwgStats {
  requests: Record<'collections' | 'view' | 'search' | 'document', number>;
  notModified: number;
  loginForms: number;
  faults: Partial<Record<InjectedFault, number>>;
}

export interface FakeIwg extends FakeUpstream {
  corpus: IwgCorpus;
  stats: FakeIwgStats;
  setNow: (now: string | undefined) => void;
  setFaults: (faults: FaultRates | undefined) => void;
}

export const LOGIN_FORM = `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html><head><title>Anmeldung</title></head>
<body onLoad="document.forms[0].Username.focus()">
<form method="post" action="/names.nsf?Login" name="_DominoForm">
<input name="Username" value="" size="25" maxlength="256"><br>
<input name="Password" value="" type="password" size="25" maxlength="256"><br>
<input type="submit" value="Anmelden">
</form></body></html>
`;

const JSON_TYPE = 'application/json; charset=UTF-8';

function error(code: number, message: string): string {
  const text = http.STATUS_CODES[code] ?? 'Error';
  return JSON.stringify({ code, text, message });
}

function entry(view: string, d: FakeDocument, position: number, siblings: number): Record<string, unknown> {
  return {
    '@href': `${IWG_BASE_PATH}/collections/name/${view}/unid/${d.unid}`,
    '@link': { rel: 'document', href: `${IWG_BASE_PATH}/documents/unid/${d.unid}` },
    '@entryid': `${position}-${d.unid}`,
    '@unid': d.unid,
    '@noteid': (parseInt(d.unid.slice(-6), 16) % 0xfffff).toString(16).toUpperCase(),
    '@position': String(position),
    '@siblings': siblings,
    '@form': d.form,
    Aktenzeichen: d.aktenzeichen,
    ...(view === 'Deletions' ? { AZKey: d.ediktId, Dat_Loeschung: d.doc.Dat_Loeschung } : {}),
  };
}

/** The richtext item as DAS sends it without `multipart=false`: a MIME part, base64. */
function asMultipart(doc: Record<string, unknown>): Record<string, unknown> {
  const b = doc.Bausteine as { type?: string; data?: string } | undefined;
  if (b?.type !== 'richtext' || typeof b.data !== 'string') return doc;
  return { ...doc, Bausteine: { type: 'multipart', content: [{ contentType: 'text/html; charset=UTF-8', contentTransferEncoding: 'base64', data: Buffer.from(b.data).toString('base64') }] } };
}

/** The documents in an order fixed by `salt` but unrelated to any key a client knows. */
function shuffled(docs: FakeDocument[], salt: string): FakeDocument[] {
  return docs
    .map((d) => [createHash('md5').update(salt + d.unid).digest('hex'), d] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([, d]) => d);
}

class FakeIwgServer {
  readonly stats: FakeIwgStats = { requests: { collections: 0, view: 0, search: 0, document: 0 }, notModified: 0, loginForms: 0, faults: {} };
  private draw: () => InjectedFault | null;
  private faults: FaultRates;
  private now: string | undefined;
  private readonly held = new Set<http.ServerResponse>();
  private readonly cache = new Map<string, FakeDocument[]>();
  private requestCount = 0;

  constructor(readonly corpus: IwgCorpus, private readonly options: FakeIwgOptions) {
    this.faults = options.faults ?? {};
    this.draw = faultDrawer(options.faults);
    this.now = options.now;
  }

  setFaults(faults: FaultRates | undefined): void {
    this.faults = faults ?? {};
    this.draw = faultDrawer(faults);
  }

  setNow(now: string | undefined): void {
    this.now = now;
    this.cache.clear();
  }

  private nowMs(): number {
    if (!this.now) return Date.now();
    return Date.parse(/T/.test(this.now) ? this.now : `${this.now}T23:59:59Z`);
  }

  private authorised(req: http.IncomingMessage): boolean {
    const { user, password } = this.options.credentials ?? {};
    if (user === undefined && password === undefined) return true;
    const header = req.headers.authorization ?? '';
    const m = /^Basic\s+(\S+)$/i.exec(header);
    return m !== null && Buffer.from(m[1]!, 'base64').toString('utf8') === `${user ?? ''}:${password ?? ''}`;
  }

  /** A view or a search result at the fake's clock, cached per corpus version and minute. */
  private documents(view: 'All' | 'Deletions', search: string | null, sorted: boolean): FakeDocument[] {
    const now = this.nowMs();
    const key = `${view}|${search ?? ''}|${this.corpus.version}|${Math.floor(now / 60_000)}`;
    let docs = this.cache.get(key);
    if (!docs) {
      docs = this.corpus.view(view, now);
      if (search !== null) {
        const filter = parseSearch(search);
        // Over the cap, the server keeps some 5000 matches, not the first 5000 by any order a client knows.
        const cap = this.options.searchCap ?? SEARCH_CAP;
        docs = docs.filter((d) => filter(d.doc));
        if (docs.length > cap) docs = shuffled(docs, 'cap').slice(0, cap).sort((a, b) => (a.ediktId < b.ediktId ? -1 : a.ediktId > b.ediktId ? 1 : 0));
      }
      if (this.cache.size > 64) this.cache.clear();
      this.cache.set(key, docs);
    }
    // Search results without a sort column come by relevance, which differs from one request to the next.
    return search !== null && !sorted ? shuffled(docs, String(this.requestCount)) : docs;
  }

  private collection(url: URL, view: string): { status: number; body: string; headers?: Record<string, string> } {
    if (view !== 'All' && view !== 'Deletions') return { status: 404, body: error(404, `View ${view} not found`) };
    const q = url.searchParams;
    const search = q.get('search');
    this.stats.requests[search !== null ? 'search' : 'view']++;
    let docs: FakeDocument[];
    try {
      docs = this.documents(view, search, q.get('sortcolumn') === 'AZKey');
    } catch (err) {
      if (err instanceof SearchSyntaxError) return { status: 400, body: error(400, `Invalid search query: ${err.message}`) };
      throw err;
    }
    const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Number(q.get('count') ?? q.get('ps') ?? 10) || 10));
    // startkeys: the page begins at the first entry whose sort column (AZKey) is at or after the key.
    const startKey = q.get('startkeys');
    const keyed = startKey !== null && q.get('sortcolumn') === 'AZKey' ? docs.findIndex((d) => d.ediktId >= startKey) : -1;
    const from = startKey === null ? 0 : keyed < 0 ? docs.length : keyed;
    const start = from + (q.has('start') ? Math.max(0, Number(q.get('start')) || 0) : Math.max(0, Number(q.get('page') ?? 0) || 0) * size);
    const page = docs.slice(start, start + size);
    const body = dominoJson(page.map((d, i) => entry(view, d, start + i + 1, docs.length)));
    const range = docs.length === 0 ? 'items 0-0/0' : `items ${start}-${start + Math.max(page.length, 1) - 1}/${docs.length}`;
    return { status: 200, body, headers: this.options.contentRange === false ? {} : { 'Content-Range': range } };
  }

  private document(req: http.IncomingMessage, url: URL, unid: string): { status: number; body: string; headers?: Record<string, string> } {
    this.stats.requests.document++;
    const d = this.corpus.document(unid, this.nowMs());
    if (!d) return { status: 404, body: error(404, 'Invalid document unid') };
    const lastModified = new Date(Math.floor(d.modifiedMs / 1000) * 1000).toUTCString();
    const since = Date.parse(req.headers['if-modified-since'] ?? '');
    if (!Number.isNaN(since) && Math.floor(d.modifiedMs / 1000) * 1000 <= since) {
      this.stats.notModified++;
      return { status: 304, body: '', headers: { 'Last-Modified': lastModified } };
    }
    const body = url.searchParams.get('multipart') === 'false' ? d.body : dominoJson(asMultipart(d.doc));
    return { status: 200, body, headers: { 'Last-Modified': lastModified } };
  }

  private route(req: http.IncomingMessage, url: URL): { status: number; body: string; headers?: Record<string, string> } {
    const path = url.pathname.replace(/\/+$/, '');
    if (!path.startsWith(IWG_BASE_PATH)) return { status: 404, body: error(404, 'Not found') };
    const rest = path.slice(IWG_BASE_PATH.length);
    if (rest === '/collections') {
      this.stats.requests.collections++;
      const modified = new Date(this.nowMs()).toISOString().replace(/\.\d{3}Z$/, 'Z');
      return {
        status: 200,
        body: dominoJson(['All', 'Deletions'].map((title, i) => ({
          '@title': title, '@folder': false, '@private': false, '@modified': modified, '@unid': `0000000000000000000000000000000${i + 1}`,
          '@href': `${IWG_BASE_PATH}/collections/unid/0000000000000000000000000000000${i + 1}`,
        }))),
      };
    }
    const view = /^\/collections\/name\/([^/]+)$/.exec(rest);
    if (view) return this.collection(url, decodeURIComponent(view[1]!));
    const doc = /^\/documents\/unid\/([0-9A-Fa-f]{32})$/.exec(rest);
    if (doc) return this.document(req, url, doc[1]!.toUpperCase());
    return { status: 404, body: error(404, 'Not found') };
  }

  handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.requestCount++;
    if (req.method !== 'GET') return void res.writeHead(405, { Allow: 'GET', 'Content-Type': JSON_TYPE }).end(error(405, 'Method not allowed'));
    if (!this.authorised(req)) {
      this.stats.loginForms++;
      return void res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' }).end(LOGIN_FORM);
    }
    const fault = this.draw();
    if (fault) this.stats.faults[fault] = (this.stats.faults[fault] ?? 0) + 1;
    if (fault === '401') return void res.writeHead(401, { 'Content-Type': 'text/html; charset=UTF-8', 'WWW-Authenticate': 'Basic realm="/"' }).end(LOGIN_FORM);
    if (fault === '429') return void res.writeHead(429, { 'Retry-After': String(this.faults.retryAfterSeconds ?? 1), 'Content-Type': JSON_TYPE }).end(error(429, 'Too many requests'));
    if (fault === '500') return void res.writeHead(500, { 'Content-Type': JSON_TYPE }).end(error(500, 'Internal server error'));
    if (fault === 'timeout') {
      this.held.add(res);
      const timer = setTimeout(() => res.destroy(), this.faults.timeoutMs ?? 30_000);
      res.on('close', () => {
        clearTimeout(timer);
        this.held.delete(res);
      });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    const reply = this.route(req, url);
    const body = Buffer.from(reply.body, 'utf8');
    const headers = { 'Content-Type': JSON_TYPE, ...reply.headers };
    if (reply.status === 304) return void res.writeHead(304, reply.headers).end();
    if (fault === 'truncated') {
      res.writeHead(reply.status, { ...headers, 'Content-Length': body.length });
      return void res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
    }
    if (fault === 'cutoff') return void res.writeHead(reply.status, headers).end(body.subarray(0, Math.floor(body.length / 2)));
    res.writeHead(reply.status, { ...headers, 'Content-Length': body.length }).end(body);
  }

  releaseHeld(): void {
    for (const res of this.held) res.destroy();
  }
}

/** Starts the fake on 127.0.0.1 (a free port unless given); its url is the data API base (EDIKTE_URL). */
export async function startFakeIwg(options: FakeIwgOptions): Promise<FakeIwg> {
  const corpus = typeof options.corpus === 'string' ? await IwgCorpus.load(options.corpus) : options.corpus;
  const fake = new FakeIwgServer(corpus, options);
  const server = http.createServer((req, res) => {
    try {
      fake.handle(req, res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': JSON_TYPE }).end(error(500, (err as Error).message));
      else res.destroy();
    }
  });
  await new Promise<void>((ready) => server.listen(options.port ?? 0, '127.0.0.1', () => ready()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${IWG_BASE_PATH}`,
    corpus,
    stats: fake.stats,
    setNow: (now) => fake.setNow(now),
    setFaults: (faults) => fake.setFaults(faults),
    close: () =>
      new Promise<void>((done, fail) => {
        fake.releaseHeld();
        server.close((err) => (err ? fail(err) : done()));
        server.closeAllConnections();
      }),
  };
}
