import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadFirmenbuchCorpus, type FirmenbuchCorpus } from '../../pipeline/firmenbuch/fake/corpus.js';
import { parseAuszug } from '../../pipeline/firmenbuch/extractParser.js';
import { startFakeFirmenbuch, type FakeFirmenbuch } from '../../pipeline/firmenbuch/fake/fakeUpstream.js';
import { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import {
  parseSucheFirma,
  parseSucheUrkunde,
  parseUrkunde,
  parseVeraenderungenFirma,
  parseVeraenderungenUrkunde,
} from '../../pipeline/firmenbuch/registerParsers.js';
import {
  FIRMENBUCH_OPERATIONS,
  SOAP_11_ENVELOPE_NS,
  SOAP_12_ENVELOPE_NS,
  buildAuszugRequest,
  buildSucheFirmaRequest,
  buildSucheUrkundeRequest,
  buildUrkundeRequest,
  buildVeraenderungenFirmaRequest,
  buildVeraenderungenUrkundeRequest,
  type SoapRequest,
  type SoapVersion,
} from '../../pipeline/firmenbuch/soapEnvelope.js';
import { FirmenbuchFaultError, parseSoapResponse } from '../../pipeline/firmenbuch/soapResponse.js';
import { fnrOf } from '../../pipeline/firmenbuch/fake/synthetic/registerKeys.js';
import { writeSyntheticCorpus } from '../../pipeline/firmenbuch/fake/syntheticCorpus.js';

const CORPUS_DIR = fileURLToPath(new URL('../../fixtures/corpus', import.meta.url));
const TODAY = '2026-11-01';

let corpus: FirmenbuchCorpus;
let fake: FakeFirmenbuch;

beforeAll(async () => {
  corpus = await loadFirmenbuchCorpus(CORPUS_DIR);
  fake = await startFakeFirmenbuch({ corpus, today: TODAY });
});

afterAll(async () => {
  await fake.close();
});

afterEach(() => {
  fake.setFaults(undefined);
});

interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

async function post(request: SoapRequest | { body: string; headers: Record<string, string> }, url = fake.url, extraHeaders: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers: { ...request.headers, ...extraHeaders }, body: request.body });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** The SOAP fault a response carries (fails the test when there is none). */
function faultOf(text: string): FirmenbuchFaultError {
  try {
    parseSoapResponse(text);
  } catch (err) {
    if (err instanceof FirmenbuchFaultError) return err;
    throw err;
  }
  throw new Error(`expected a SOAP fault, got: ${text.slice(0, 300)}`);
}

function rootPrefix(text: string, root: string): string | undefined {
  return new RegExp(`<(ns\\d+):${root}[\\s>]`).exec(text)?.[1];
}

const inRange = (date: string | null, from: string, to: string): boolean => date !== null && date >= from && date <= to;

describe('fake Firmenbuch: operations round-trip through the real envelopes and parsers', () => {
  it('AUSZUG_V2 returns the stored extract of every corpus company', async () => {
    for (const [fnr, company] of corpus.companies) {
      const answer = await post(buildAuszugRequest({ fnr, stichtag: TODAY }));
      expect(answer.status, fnr).toBe(200);
      expect(parseAuszug(answer.text)).toEqual(company.extract);
    }
  });

  it('answers SOAP 1.1 and 1.2 on the base URL and on the per-operation path, in the request version', async () => {
    for (const soapVersion of ['1.1', '1.2'] as const) {
      for (const url of [fake.url, `${fake.url}/${FIRMENBUCH_OPERATIONS.auszug.path}`]) {
        const answer = await post(buildAuszugRequest({ fnr: '33918f', stichtag: TODAY }, { soapVersion }), url);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toContain(soapVersion === '1.2' ? 'application/soap+xml' : 'text/xml');
        expect(answer.text).toContain(soapVersion === '1.2' ? SOAP_12_ENVELOPE_NS : SOAP_11_ENVELOPE_NS);
        const parsed = parseSoapResponse(answer.text);
        expect(parsed).toMatchObject({ operation: 'auszug', soapVersion });
      }
    }
  });

  it('draws new nsN prefixes for every response and qualifies the attributes', async () => {
    const request = buildAuszugRequest({ fnr: '33918f', stichtag: TODAY });
    const first = await post(request);
    const second = await post(request);
    const p1 = rootPrefix(first.text, 'AUSZUG_V2_RESPONSE');
    const p2 = rootPrefix(second.text, 'AUSZUG_V2_RESPONSE');
    expect(p1).toBeDefined();
    expect(p2).toBeDefined();
    expect(p1).not.toBe(p2);
    expect(first.text).toContain(`${p1}:FNR="33918 f"`);
    expect((first.text.match(/xmlns:ns\d+=/g) ?? []).length).toBeGreaterThanOrEqual(18);
    expect(parseAuszug(first.text)).toEqual(parseAuszug(second.text));
  });

  it('spells the FN "12345 x" in AUSZUG and VERAENDERUNGENFIRMA, "12345x" in SUCHEFIRMA, zero-padded in filings', async () => {
    const auszug = await post(buildAuszugRequest({ fnr: '033918f', stichtag: TODAY }));
    expect(auszug.text).toMatch(/:FNR="33918 f"/);
    const search = await post(buildSucheFirmaRequest({ firmenwortlaut: 'Wienerwald*' }));
    expect(search.text).toMatch(/:FNR>33918f</);
    const changes = await post(buildVeraenderungenFirmaRequest({ von: '2026-10-08', bis: '2026-10-08' }));
    expect(changes.text).toMatch(/:FNR>33918 f</);
    const key = corpus.companies.get('33918f')!.documentKeys[0]!;
    const document = parseUrkunde((await post(buildUrkundeRequest({ key }))).text);
    expect(document.content!.toString('utf8')).toContain('<FIRMENBUCHNUMMER>033918f</FIRMENBUCHNUMMER>');
  });

  it('SUCHEURKUNDE returns the company listing; an FN without documents gets an empty one', async () => {
    for (const company of corpus.companies.values()) {
      const result = parseSucheUrkunde((await post(buildSucheUrkundeRequest({ fnr: company.fnr }, { soapVersion: '1.1' }))).text);
      expect(result.requestFnr).toBe(company.fnr);
      expect(result.documents).toEqual(company.documentKeys.map((k) => corpus.documents.get(k)!.listing));
    }
    const az = corpus.documents.values().next().value!.listing.az!;
    const byAz = parseSucheUrkunde((await post(buildSucheUrkundeRequest({ az }))).text);
    expect(byAz.documents.length).toBeGreaterThan(0);
    expect(byAz.documents.every((d) => d.az === az)).toBe(true);
  });

  it('URKUNDE returns the exact document bytes with METADATEN from the listing', async () => {
    for (const doc of corpus.documents.values()) {
      const answer = await post(buildUrkundeRequest({ key: doc.key }));
      expect(answer.status, doc.key).toBe(200);
      const content = parseUrkunde(answer.text);
      expect(content.content!.equals((await corpus.readDocument(doc.key))!), doc.key).toBe(true);
      expect(content.contentType).toBe(doc.listing.contentType);
      expect(content.metadata).toMatchObject({
        key: doc.key,
        fnr: doc.fnr,
        az: doc.listing.az,
        documentType: doc.listing.documentType,
        balanceSheetDate: doc.listing.balanceSheetDate,
        documentId: doc.key.split('_')[7],
      });
      expect(content.asOf).toBe(TODAY);
    }
  });

  it('VERAENDERUNGENFIRMA and VERAENDERUNGENURKUNDE serve the entries inside [VON, BIS]', async () => {
    const [von, bis] = ['2026-10-05', '2026-10-11'];
    const firma = parseVeraenderungenFirma((await post(buildVeraenderungenFirmaRequest({ von, bis }))).text);
    const expectedFirma = corpus.companyChanges.filter((c) => inRange(c.executedOn, von, bis) && ['Neueintragung', 'Änderung', 'Löschung'].includes(c.kindText));
    expect(firma.changes.length).toBeGreaterThan(0);
    expect(firma.changes).toEqual(expectedFirma);
    expect({ from: firma.from, to: firma.to }).toEqual({ from: von, to: bis });

    const urkunde = parseVeraenderungenUrkunde((await post(buildVeraenderungenUrkundeRequest({ von, bis }, { soapVersion: '1.1' }))).text);
    expect(urkunde.documents.length).toBeGreaterThan(0);
    expect(urkunde.documents).toEqual(corpus.documentChanges.filter((c) => inRange(c.executedOn, von, bis)));
  });

  it('a replay in 7-day windows over the manifest range sees every company and document', async () => {
    const client = new FirmenbuchClient({ baseUrl: fake.url });
    const { changesFrom, changesTo } = corpus.manifest.firmenbuch;
    const windows = [['2026-10-01', '2026-10-07'], ['2026-10-08', '2026-10-14'], ['2026-10-15', '2026-10-21']] as const;
    expect([windows[0][0], windows[2][1]]).toEqual([changesFrom, changesTo]);
    const fnrs = new Set<string>();
    const keys = new Set<string>();
    for (const [from, to] of windows) {
      for (const c of (await client.companyChanges(from, to)).changes) fnrs.add(c.fnr);
      for (const d of (await client.documentChanges(from, to)).documents) keys.add(d.key);
    }
    expect(fnrs).toEqual(new Set(corpus.companies.keys()));
    expect(keys).toEqual(new Set(corpus.documents.keys()));
  });

  it('filters the company feed by ARTDERVERAENDERUNG and GERICHT', async () => {
    const merger = parseVeraenderungenFirma(
      (await post(buildVeraenderungenFirmaRequest({ von: '2026-10-12', bis: '2026-10-18', artDerVeraenderung: 'VERSCHMELZUNG' }))).text,
    );
    expect(merger.changes.map((c) => c.fnr).sort()).toEqual(['187233v', '98231h']);
    expect(merger.changes[0]!.details[0]).toEqual({ type: 'transformation', takingOverFnr: '98231h', transferringFnr: '187233v' });
    const graz = parseVeraenderungenFirma((await post(buildVeraenderungenFirmaRequest({ von: '2026-10-01', bis: '2026-10-07', gericht: '638' }))).text);
    expect(graz.changes.length).toBeGreaterThan(0);
    expect(graz.changes.every((c) => corpus.companies.get(c.fnr)!.extract.court?.code === '638')).toBe(true);
  });

  it('SUCHEFIRMA searches names (substring, prefix, exact vs folded), status and filters', async () => {
    const search = async (params: Parameters<typeof buildSucheFirmaRequest>[0]) => parseSucheFirma((await post(buildSucheFirmaRequest(params))).text);
    const bau = await search({ firmenwortlaut: '*bau*' });
    expect(bau.hits.map((h) => h.fnr).sort()).toEqual(['287541f', '33918f', '46012s']);
    expect(bau.request).toMatchObject({ name: '*bau*', exact: false, searchArea: 1 });

    expect((await search({ firmenwortlaut: 'Oetztaler', exakteSuche: false })).hits.map((h) => h.fnr)).toEqual(['17742t']);
    expect((await search({ firmenwortlaut: 'Oetztaler', exakteSuche: true })).hits).toEqual([]);
    expect((await search({ firmenwortlaut: 'Ötztaler', exakteSuche: true })).hits.map((h) => h.fnr)).toEqual(['17742t']);
    expect((await search({ firmenwortlaut: 'ötztaler', exakteSuche: true })).hits).toEqual([]);

    const multiLine = (await search({ firmenwortlaut: 'Steirische Industrieholding' })).hits[0]!;
    expect(multiLine).toMatchObject({ fnr: '211904z', nameLines: ['Steirische Industrieholding', 'Aktiengesellschaft'], status: 'active', court: { code: '638' } });

    const deleted = await search({ firmenwortlaut: 'Donauufer*' });
    expect(deleted.hits.map((h) => [h.fnr, h.status])).toEqual([['187233v', 'deleted']]);
    expect((await search({ firmenwortlaut: 'Donauufer*', suchbereich: 4 })).hits).toEqual([]);
    const historical = await search({ firmenwortlaut: 'Donauufer*', suchbereich: 2 });
    expect(historical.hits.map((h) => [h.fnr, h.status, h.name])).toEqual([['187233v', 'historical', 'Donauufer Frächterei GmbH']]);

    const wienGmbh = await search({ firmenwortlaut: '*', rechtsform: 'GES', ortnr: '9' });
    expect(wienGmbh.hits.length).toBeGreaterThan(0);
    expect(wienGmbh.hits.every((h) => h.legalForm?.code === 'GES' && h.seat === 'Wien')).toBe(true);
    const banks = await search({ firmenwortlaut: '*', rechtsform: 'AG', rechtseigenschaft: 'Kreditunternehmen' });
    expect(banks.hits.map((h) => [h.fnr, h.legalCharacteristic])).toEqual([['629a', 'Kreditunternehmen']]);
    const linz = await search({ firmenwortlaut: '*', rechtsform: 'AG', gericht: '458' });
    expect(linz.hits.map((h) => h.fnr)).toEqual(['98231h']);
  });
});

describe('fake Firmenbuch: validation and business faults', () => {
  it('answers a SUCHEFIRMA without GERICHT with the Spring-WS validation fault (SOAP 1.1, HTTP 500)', async () => {
    const request = buildSucheFirmaRequest({ firmenwortlaut: 'Alpen*' }, { soapVersion: '1.1' });
    const answer = await post({ ...request, body: request.body.replace('<fb:GERICHT/>', '') });
    expect(answer.status).toBe(500);
    const fault = faultOf(answer.text);
    expect(fault).toMatchObject({ kind: 'validation', soapVersion: '1.1', code: 'Client', reason: 'Validation error' });
    expect(fault.validationErrors[0]).toContain("cvc-complex-type.2.4.a: Invalid content was found starting with element 'fb:RECHTSFORM'");
    expect(fault.validationErrors[0]).toContain('"ns://firmenbuch.justiz.gv.at/Abfrage/SucheFirmaRequest":GERICHT');
  });

  it('rejects children out of order, missing at the end, unexpected, or of the wrong type', async () => {
    const auszug = buildAuszugRequest({ fnr: '33918f', stichtag: TODAY });
    const swapped = auszug.body.replace(/(<fb:FNR>.*?<\/fb:FNR>)(<fb:STICHTAG>.*?<\/fb:STICHTAG>)/, '$2$1');
    const outOfOrder = faultOf((await post({ ...auszug, body: swapped })).text);
    expect(outOfOrder).toMatchObject({ kind: 'validation', soapVersion: '1.2', code: 'Sender' });
    expect(outOfOrder.validationErrors[0]).toContain("starting with element 'fb:STICHTAG'");

    const incomplete = faultOf((await post({ ...auszug, body: auszug.body.replace(/<fb:UMFANG>.*?<\/fb:UMFANG>/, '') })).text);
    expect(incomplete.validationErrors[0]).toMatch(/^cvc-complex-type\.2\.4\.b: The content of element 'fb:AUSZUG_V2_REQUEST' is not complete/);

    const extra = faultOf((await post({ ...auszug, body: auszug.body.replace('</fb:AUSZUG_V2_REQUEST>', '<fb:EXTRA>1</fb:EXTRA></fb:AUSZUG_V2_REQUEST>') })).text);
    expect(extra.validationErrors[0]).toMatch(/^cvc-complex-type\.2\.4\.d/);

    const badDate = faultOf((await post({ ...auszug, body: auszug.body.replace(TODAY, '2026-13-01') })).text);
    expect(badDate.validationErrors).toEqual([
      "cvc-datatype-valid.1.2.1: '2026-13-01' is not a valid value for 'date'.",
      "cvc-type.3.1.3: The value '2026-13-01' of element 'fb:STICHTAG' is not valid.",
    ]);
  });

  it('sends the German business faults as SOAP 1.2 env:Receiver with HTTP 500', async () => {
    const auszug = buildAuszugRequest({ fnr: '33918f', stichtag: TODAY });
    const search = buildSucheFirmaRequest({ firmenwortlaut: 'Alpen*' });
    const cases: Array<[SoapRequest, string, string]> = [
      [{ ...auszug, body: auszug.body.replace('33918f', '33918g') }, 'invalidFnr', 'Firmenbuchnummer ist ungültig! (max. 6 Ziffern plus Prüfzeichen)'],
      [{ ...auszug, body: auszug.body.replace('33918f', '1234567a') }, 'invalidFnr', 'Firmenbuchnummer ist ungültig! (max. 6 Ziffern plus Prüfzeichen)'],
      [buildAuszugRequest({ fnr: '33918f', stichtag: '2026-11-02' }), 'futureDate', 'Stichtag darf nicht in der Zukunft sein'],
      [buildUrkundeRequest({ key: '033918_0000000000000_000___000_30_1_XML' }), 'invalidKey', 'Der Parameter "KEY" ist ungültig'],
      [buildVeraenderungenFirmaRequest({ von: '2026-10-05', bis: '2026-10-04' }), 'invalidDateRange', 'BIS-Datum darf nicht vor dem VON-Datum liegen'],
      [buildVeraenderungenFirmaRequest({ von: '2026-10-01', bis: '2026-10-08' }), 'dateWindowExceeded', 'Der Zeitraum darf 7 Tage nicht überschreiten'],
      [buildVeraenderungenUrkundeRequest({ von: '2026-10-01', bis: '2026-10-08' }), 'dateWindowExceeded', 'Der Zeitraum darf 7 Tage nicht überschreiten'],
      [{ ...search, body: search.body.replace('<fb:SUCHBEREICH>1<', '<fb:SUCHBEREICH>7<') }, 'invalidSearchArea', 'Der Suchbereich ist ungültig!'],
      [buildSucheFirmaRequest({ firmenwortlaut: '*' }), 'invalidSearchCriteria', 'Die Suche mit "*" ist nur in Kombination mit RECHTSFORM oder ORTNR möglich'],
    ];
    for (const [request, kind, message] of cases) {
      const answer = await post(request);
      expect(answer.status, kind).toBe(500);
      const fault = faultOf(answer.text);
      expect(fault, kind).toMatchObject({ kind, soapVersion: '1.2', code: 'Receiver', message });
    }
  });

  it('accepts a Stichtag of today and a window of exactly seven days', async () => {
    expect((await post(buildAuszugRequest({ fnr: '33918f', stichtag: TODAY }))).status).toBe(200);
    expect((await post(buildVeraenderungenFirmaRequest({ von: '2026-10-01', bis: '2026-10-07' }))).status).toBe(200);
    expect((await post(buildVeraenderungenUrkundeRequest({ von: '2026-10-15', bis: '2026-10-21' }))).status).toBe(200);
  });

  it('answers business faults to a SOAP 1.1 request as SOAP 1.1 Server faults', async () => {
    const fault = faultOf((await post(buildVeraenderungenFirmaRequest({ von: '2026-10-01', bis: '2026-10-20' }, { soapVersion: '1.1' }))).text);
    expect(fault).toMatchObject({ kind: 'dateWindowExceeded', soapVersion: '1.1', code: 'Server' });
  });

  it('reports a valid FN missing from the corpus as a Receiver fault', async () => {
    const missing = fnrOf(999998);
    const fault = faultOf((await post(buildAuszugRequest({ fnr: missing, stichtag: TODAY }))).text);
    expect(fault).toMatchObject({ code: 'Receiver', message: `Zur Firmenbuchnummer ${missing} ist keine Firma eingetragen` });
  });

  it('refuses WERTETABELLEN, unknown body elements, other methods and paths', async () => {
    const wertetabellen = `<?xml version="1.0"?><soap:Envelope xmlns:soap="${SOAP_12_ENVELOPE_NS}"><soap:Body><w:WERTETABELLEN_V2_REQUEST xmlns:w="ns://firmenbuch.justiz.gv.at/Abfrage/v2/FBWertetabellenRequest"><w:TABELLE>RECHTSFORM</w:TABELLE></w:WERTETABELLEN_V2_REQUEST></soap:Body></soap:Envelope>`;
    const headers = { 'Content-Type': 'application/soap+xml;charset=UTF-8' };
    const denied = await post({ body: wertetabellen, headers });
    expect(denied.status).toBe(500);
    expect(faultOf(denied.text)).toMatchObject({ kind: 'accessDenied' });
    const unknown = wertetabellen.replace(/WERTETABELLEN_V2_REQUEST/g, 'FOO').replace('v2/FBWertetabellenRequest', 'Foo');
    expect((await post({ body: unknown, headers })).status).toBe(404);
    expect((await fetch(fake.url)).status).toBe(405);
    expect((await post(buildAuszugRequest({ fnr: '33918f', stichtag: TODAY }), `${fake.url}/nope`)).status).toBe(404);
  });
});

describe('fake Firmenbuch: API key and injected faults', () => {
  it('requires the X-API-KEY when configured', async () => {
    const secured = await startFakeFirmenbuch({ corpus, apiKey: 'geheim', today: TODAY });
    try {
      const request = buildAuszugRequest({ fnr: '33918f', stichtag: TODAY });
      expect((await post(request, secured.url)).status).toBe(401);
      expect((await post(request, secured.url, { 'X-API-KEY': 'falsch' })).status).toBe(401);
      expect((await post(request, secured.url, { 'X-API-KEY': 'geheim' })).status).toBe(200);
      expect(secured.stats.requests.auszug).toBe(1);
    } finally {
      await secured.close();
    }
  });

  it('injects 429 with Retry-After', async () => {
    fake.setFaults({ seed: 3, rate429: 1, retryAfterSeconds: 7 });
    const before = fake.stats.faults['429'];
    const answer = await post(buildAuszugRequest({ fnr: '33918f', stichtag: TODAY }));
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(fake.stats.faults['429']).toBe(before + 1);
    const client = new FirmenbuchClient({ baseUrl: fake.url });
    await expect(client.extract('33918f', TODAY)).rejects.toMatchObject({ name: 'UpstreamThrottledError', retryAfterMs: 7000 });
  });

  it('injects HTTP 500 with a SOAP fault that is not a validation fault', async () => {
    fake.setFaults({ seed: 3, rate500: 1 });
    for (const soapVersion of ['1.1', '1.2'] as SoapVersion[]) {
      const answer = await post(buildSucheUrkundeRequest({ fnr: '33918f' }, { soapVersion }));
      expect(answer.status).toBe(500);
      expect(faultOf(answer.text)).toMatchObject({ kind: 'other', message: 'Interner Fehler', code: soapVersion === '1.2' ? 'Receiver' : 'Server' });
    }
  });

  it('injects truncated bodies: headers with the full Content-Length, then the connection drops', async () => {
    fake.setFaults({ seed: 3, rateTruncated: 1 });
    const key = corpus.companies.get('33918f')!.documentKeys[0]!;
    const read = async () => {
      const res = await fetch(fake.url, { method: 'POST', ...buildUrkundeRequest({ key }) });
      return res.text();
    };
    await expect(read()).rejects.toThrow();
    const client = new FirmenbuchClient({ baseUrl: fake.url });
    await expect(client.document(key)).rejects.toMatchObject({ name: 'UpstreamUnavailableError' });
  });

  it('injects timeouts: the request is held until the client gives up', async () => {
    fake.setFaults({ seed: 3, rateTimeout: 1, timeoutMs: 10_000 });
    const started = Date.now();
    const request = buildAuszugRequest({ fnr: '33918f', stichtag: TODAY });
    const call = fetch(fake.url, { method: 'POST', headers: request.headers, body: request.body, signal: AbortSignal.timeout(300) });
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('draws faults reproducibly from the seed, only for the selected operations', async () => {
    const statuses = async (): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await post(buildSucheUrkundeRequest({ fnr: '33918f' }))).status);
      return out;
    };
    fake.setFaults({ seed: 42, rate429: 0.3, rate500: 0.2 });
    const first = await statuses();
    fake.setFaults({ seed: 42, rate429: 0.3, rate500: 0.2 });
    expect(await statuses()).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 429, 500]));

    fake.setFaults({ seed: 42, rate429: 1, only: ['urkunde'] });
    expect((await post(buildSucheUrkundeRequest({ fnr: '33918f' }))).status).toBe(200);
    const key = corpus.companies.get('33918f')!.documentKeys[0]!;
    expect((await post(buildUrkundeRequest({ key }))).status).toBe(429);
  });
});

describe('fake Firmenbuch: scale', () => {
  it('serves a document of more than 10 MB', async () => {
    const big = randomBytes(11 * 1024 * 1024);
    const template = corpus.documents.get(corpus.companies.get('455190y')!.documentKeys[0]!)!;
    const key = '455190_4580202699999_000___000_30_99999999_PDF';
    const bigCorpus: FirmenbuchCorpus = {
      ...corpus,
      documents: new Map([...corpus.documents, [key, { ...template, key, listing: { ...template.listing, key, sizeBytes: big.length } }]]),
      readDocument: async (k) => (k === key ? big : corpus.readDocument(k)),
    };
    const bigFake = await startFakeFirmenbuch({ corpus: bigCorpus, today: TODAY });
    try {
      const answer = await post(buildUrkundeRequest({ key }), bigFake.url);
      expect(answer.status).toBe(200);
      expect(answer.text.length).toBeGreaterThan(14_000_000);
      const document = parseUrkunde(answer.text);
      expect(document.content!.equals(big)).toBe(true);
      expect(document.metadata.key).toBe(key);
    } finally {
      await bigFake.close();
    }
  });

  it('caps SUCHEFIRMA at exactly 1000 hits on a synthetic corpus of more than 1000 companies', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fake-fb-cap-'));
    try {
      await writeSyntheticCorpus(dir, { companies: 1300, seed: 11, filings: false });
      const large = await startFakeFirmenbuch({ corpus: dir, today: TODAY });
      try {
        expect(large.corpus.companies.size).toBe(1300);
        const all = parseSucheFirma((await post(buildSucheFirmaRequest({ firmenwortlaut: '*', rechtsform: 'GES' }), large.url)).text);
        const gmbhs = [...large.corpus.companies.values()].filter((c) => c.extract.legalForm?.code === 'GES').length;
        expect(gmbhs).toBeGreaterThan(1000);
        expect(all.hits).toHaveLength(1000);
        expect(all.capped).toBe(true);
        const narrowed = parseSucheFirma((await post(buildSucheFirmaRequest({ firmenwortlaut: '*', rechtsform: 'GES', ortnr: '9' }), large.url)).text);
        expect(narrowed.hits.length).toBeGreaterThan(0);
        expect(narrowed.hits.length).toBeLessThan(1000);
        expect(narrowed.hits.every((h) => h.seat === 'Wien')).toBe(true);
      } finally {
        await large.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
