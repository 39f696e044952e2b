// A fake GISA V2 service (XML style, `POST {base}/xml/{Method}`) serving fixtures/corpus/gisa: the
// stored GetGewerbeV2 answers, hit lists built from them, the catalogues, extract jobs that complete
// after a few status polls (a small PDF), quotas per key answered as GISA does (HTTP 200,
// Returncode=ERROR), the coded errors (300 key, 1000 unknown GISA-Zahl, 1020 unknown job, 1050 no
// search term; any code on demand: failNext), and injected transport faults (FaultRates: 429, 500,
// timeout, cut-off bodies).
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { FaultRates, FakeUpstream } from '../../register.js';
import { simplePdf } from '../../firmenbuch/fake/synthetic/simplePdf.js';
import { seededRandom, type Random } from '../../firmenbuch/fake/synthetic/random.js';
import { GISA_METHODS, type GisaMethod } from '../gisaXml.js';
import { errorOutput, gewerbeOutput, okOutput, searchOutput } from './gisaResponses.js';

export const FAKE_GISA_PATH = '/gisa-svc-public/GisaPublicV2.svc';

export interface FakeGisaOptions {
  fixturesDir: string;
  /** 0 (default) = a free port; host default 127.0.0.1. */
  port?: number;
  host?: string;
  apiKey?: string;
  faults?: FaultRates;
  /** Per key and window (default 200 data calls and 10 extract starts per 60 s). */
  dataQuota?: number;
  extractQuota?: number;
  quotaWindowMs?: number;
  /** Status polls an extract job answers `Working` before `Completed` (default 2). */
  extractPolls?: number;
  /**
   * SearchPersonNat matches by name only, as a phonetic or wildcard search may: namesakes with another
   * birth date come back too, and the caller must tell them apart (default false: the birth date filters).
   */
  personSearchByNameOnly?: boolean;
}

export interface FakeGisa extends FakeUpstream {
  /** Every call that reached a method (faulted ones included), in arrival order. */
  calls: Array<{ method: GisaMethod; at: number }>;
  quotaErrors: number;
  extractStarts: number;
  /** Ends a licence upstream: its Berechtigung gets EndigungDatum `date`. */
  endLicence(gisaZahl: string, date: string): void;
  /** The next call of `method` answers Returncode=ERROR with this code (310, 320, 1020, ...). */
  failNext(method: GisaMethod, code: string, text?: string): void;
  setFaults(faults: FaultRates | undefined): void;
}

interface Licence {
  gewerbe: string;
  fnrs: string[];
  person: { first: string; last: string; born: string | null } | null;
}

const parser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: true });
const plainFnr = (raw: string) => raw.replace(/^FN\s*/i, '').replace(/\s+/g, '').replace(/^0+/, '').toLowerCase();
const lower = (s: string | undefined) => (s ?? '').trim().toLowerCase();

function indexLicence(gewerbe: string): Licence {
  const g = (parser.parse(gewerbe) as { Gewerbe: Record<string, unknown> }).Gewerbe;
  const inhaber = ((g.InhaberDaten as Record<string, unknown>)?.Inhaber ?? {}) as Record<string, Record<string, unknown> | string>;
  const jur = inhaber.JurPerson as Record<string, string> | '' | undefined;
  const firms = inhaber.FirmaListe as { FirmaDaten?: { Firma?: Record<string, string> } } | '' | undefined;
  const firm = (firms && firms.FirmaDaten?.Firma) ?? null;
  const nat = inhaber.NatPerson as Record<string, string> | '' | undefined;
  const fnrs = [jur && jur.FBNummer, firm && firm.FBNummer].filter((f): f is string => typeof f === 'string' && f !== '').map(plainFnr);
  const person = nat ? { first: nat.Vorname ?? '', last: nat.Familienname ?? '', born: nat.GebDatum ? nat.GebDatum.slice(0, 10) : null } : null;
  return { gewerbe, fnrs, person };
}

class Faults {
  private random: Random;
  constructor(readonly rates: FaultRates = {}) {
    this.random = seededRandom(rates.seed ?? 1);
  }
  draw(): '429' | '500' | 'timeout' | 'truncated' | 'cutoff' | null {
    const r = this.random();
    let edge = 0;
    const o = this.rates;
    for (const [kind, rate] of [['429', o.rate429], ['500', o.rate500], ['timeout', o.rateTimeout], ['truncated', o.rateTruncated], ['cutoff', o.rateCutOff]] as const) {
      edge += rate ?? 0;
      if (r < edge) return kind;
    }
    return null;
  }
}

export async function startFakeGisa(options: FakeGisaOptions): Promise<FakeGisa> {
  const dir = join(options.fixturesDir, 'gisa');
  const licences = new Map<string, Licence>();
  for (const file of readdirSync(join(dir, 'gewerbe')).filter((f) => f.endsWith('.xml'))) {
    const text = readFileSync(join(dir, 'gewerbe', file), 'utf8');
    const gewerbe = /<Gewerbe [\s\S]*<\/Gewerbe>/.exec(text)?.[0];
    if (gewerbe) licences.set(file.replace(/\.xml$/, ''), indexLicence(gewerbe));
  }
  const catalogue = readFileSync(join(dir, 'katalog-gewerbeschluessel.xml'), 'utf8');
  const kinds = readFileSync(join(dir, 'katalog-gewerbeart.xml'), 'utf8');
  const window = options.quotaWindowMs ?? 60_000;
  const jobs = new Map<number, { gisaZahl: string; language: string; historical: boolean; polls: number }>();
  let nextJob = 7000;
  const dataCalls: number[] = [];
  const extractCalls: number[] = [];
  let faults = new Faults(options.faults);
  const held = new Set<http.ServerResponse>();

  const state = { calls: [] as FakeGisa['calls'], quotaErrors: 0, extractStarts: 0 };
  const failures = new Map<GisaMethod, { code: string; text: string }>();

  /** Sliding window per quota; true when this call is over it. */
  const overQuota = (log: number[], max: number, now: number) => {
    while (log.length > 0 && log[0]! < now - window) log.shift();
    if (log.length >= max) return true;
    log.push(now);
    return false;
  };

  const answer = (method: GisaMethod, input: Record<string, string>, now: number): string => {
    if (options.apiKey !== undefined && input.Apikey !== options.apiKey) return errorOutput(method, '300', 'Der API-Key wurde nicht gefunden oder ist abgelaufen.');
    const failure = failures.get(method);
    if (failure) {
      failures.delete(method);
      return errorOutput(method, failure.code, failure.text);
    }
    const start = method === 'StartGISAAuszug';
    if (start ? overQuota(extractCalls, options.extractQuota ?? 10, now) : overQuota(dataCalls, options.dataQuota ?? 200, now)) {
      state.quotaErrors++;
      return errorOutput(method, '330', 'Das Kontingent an Abfragen pro Minute für diesen API-Key ist ausgeschöpft.');
    }
    switch (method) {
      case 'SearchPersonJur': {
        const fnr = input.Firmenbuchnummer ? plainFnr(input.Firmenbuchnummer) : null;
        if (!fnr && !input.Name && !input.Vereinsregisternummer) return errorOutput(method, '1050', 'Name, Firmenbuchnummer oder Vereinsregisternummer muss angegeben werden.');
        const hits = [...licences.values()].filter((l) => (fnr ? l.fnrs.includes(fnr) : false));
        return searchOutput(method, hits.map((l) => l.gewerbe));
      }
      case 'SearchPersonNat': {
        if (!input.Familienname) return errorOutput(method, '1050', 'Der Familienname muss angegeben werden.');
        const born = input.Geburtsdatum?.slice(0, 10);
        const hits = [...licences.values()].filter((l) => l.person && lower(l.person.last) === lower(input.Familienname)
          && (!input.Vorname || lower(l.person.first) === lower(input.Vorname)) && (!born || options.personSearchByNameOnly || l.person.born === born));
        return searchOutput(method, hits.slice(0, 250).map((l) => l.gewerbe));
      }
      case 'GetGewerbeV2': {
        const licence = licences.get(input.GISAZahl ?? '');
        return licence ? gewerbeOutput(licence.gewerbe) : errorOutput(method, '1000', 'Die GISA-Zahl wurde nicht gefunden oder ist ungültig.');
      }
      case 'GetKatalogGewerbeschluessel':
        return catalogue;
      case 'GetKatalogGewerbeart':
        return kinds;
      case 'StartGISAAuszug': {
        if (!licences.has(input.GISAZahl ?? '')) return errorOutput(method, '1000', 'Die GISA-Zahl wurde nicht gefunden oder ist ungültig.');
        state.extractStarts++;
        const id = ++nextJob;
        jobs.set(id, { gisaZahl: input.GISAZahl!, language: input.Sprache === 'Englisch' ? 'en' : 'de', historical: input.Historisch === 'true', polls: 0 });
        return okOutput(method, `<Jobid>${id}</Jobid>`);
      }
      case 'GetAuszugStatus': {
        const job = jobs.get(Number(input.Jobid));
        if (!job) return errorOutput(method, '1020', 'Die Job-ID wurde nicht gefunden.');
        job.polls++;
        return okOutput(method, `<Status>${job.polls > (options.extractPolls ?? 2) ? 'Completed' : 'Working'}</Status>`);
      }
      case 'GetAuszug': {
        const job = jobs.get(Number(input.Jobid));
        if (!job || job.polls <= (options.extractPolls ?? 2)) return errorOutput(method, '1020', 'Die Job-ID wurde nicht gefunden oder der Auszug ist noch nicht fertig.');
        const pdf = simplePdf([[`GISA-Auszug ${job.gisaZahl}`, job.language === 'en' ? 'Extract from the Austrian trade register' : 'Auszug aus dem Gewerbeinformationssystem Austria',
          job.historical ? 'mit historischen Daten' : 'aktueller Stand', 'amtssigniert (Testdaten)']], { title: `GISA ${job.gisaZahl}`, created: new Date(now).toISOString().slice(0, 10) });
        return okOutput(method, `<Auszug>${pdf.toString('base64')}</Auszug>`);
      }
      case 'GetApikeyInfo':
        return okOutput(method, `<AblaufDatum>2027-03-31T00:00:00</AblaufDatum><QuotaAuszugMinute>${options.extractQuota ?? 10}</QuotaAuszugMinute><QuotaDatenMinute>${options.dataQuota ?? 200}</QuotaDatenMinute>`);
    }
  };

  const server = http.createServer((req, res) => {
    // When the call arrived, before its body is read: what GISA's own count would see.
    const arrived = Date.now();
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const method = path.startsWith(`${FAKE_GISA_PATH}/xml/`) ? (path.slice(FAKE_GISA_PATH.length + 5) as GisaMethod) : null;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!method || !GISA_METHODS.includes(method)) return plain(res, 404, 'Endpoint not found.');
      if (req.method !== 'POST') return plain(res, 405, 'Method not allowed.');
      const body = Buffer.concat(chunks).toString('utf8');
      if (XMLValidator.validate(body) !== true) return plain(res, 400, 'The incoming message has an unexpected message format \'Raw\'.');
      const input = (parser.parse(body) as Record<string, Record<string, string> | string>)[`${method}Input`];
      if (input === undefined) return plain(res, 400, `Expecting element '${method}Input'.`);
      state.calls.push({ method, at: arrived });
      const fault = faults.draw();
      if (fault === '429') return plain(res, 429, 'Too Many Requests', { 'Retry-After': String(faults.rates.retryAfterSeconds ?? 1) });
      if (fault === '500') return plain(res, 500, 'The server encountered an error processing the request.');
      if (fault === 'timeout') {
        held.add(res);
        setTimeout(() => { held.delete(res); res.destroy(); }, faults.rates.timeoutMs ?? 30_000).unref();
        return;
      }
      const text = Buffer.from(answer(method, typeof input === 'string' ? {} : input, arrived), 'utf8');
      if (fault === 'truncated') {
        res.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8', 'Content-Length': text.length });
        res.write(text.subarray(0, text.length >> 1), () => res.destroy());
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8', ...(fault === 'cutoff' ? {} : { 'Content-Length': text.length }) });
      res.end(fault === 'cutoff' ? text.subarray(0, text.length >> 1) : text);
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${FAKE_GISA_PATH}`,
    get calls() { return state.calls; },
    get quotaErrors() { return state.quotaErrors; },
    get extractStarts() { return state.extractStarts; },
    endLicence: (gisaZahl, date) => {
      const licence = licences.get(gisaZahl);
      if (!licence) throw new Error(`no licence ${gisaZahl}`);
      // The Berechtigung's EndigungDatum is the first one in the Gewerbe (Behoerde, then EndigungDatum).
      licence.gewerbe = licence.gewerbe.replace(/<(\w+:)?EndigungDatum i:nil="true"\/>/, (_m, p: string | undefined) => `<${p ?? ''}EndigungDatum>${date}T00:00:00</${p ?? ''}EndigungDatum>`);
    },
    setFaults: (rates) => { faults = new Faults(rates); },
    failNext: (method, code, text = `Fehler ${code}`) => void failures.set(method, { code, text }),
    close: () => new Promise<void>((resolve, reject) => {
      for (const res of held) res.destroy();
      server.close((err) => (err ? reject(err) : resolve()));
      server.closeAllConnections();
    }),
  };
}

function plain(res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}
