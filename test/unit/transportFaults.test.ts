// What a retry can change decides the error: an answer that did not arrive whole (a 200 whose body
// stops part-way, without any length to betray it) is a transport fault and retried; a complete,
// well-formed answer with content that cannot be used fails at once as the input's fault.
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { isUnrecoverable, UpstreamUnavailableError } from '../../pipeline/jobs/errors.js';
import { jsonDocumentComplete, xmlDocumentComplete } from '../../pipeline/upstream/completeBody.js';

const auszug = readFileSync(new URL('../../fixtures/firmenbuch/soap/auszug-og-stelle.xml', import.meta.url), 'utf8');
const suchefirma = readFileSync(new URL('../../fixtures/firmenbuch/soap/suchefirma.xml', import.meta.url), 'utf8');

describe('xmlDocumentComplete', () => {
  it('accepts a document that ends with its root element, whatever follows in white space', () => {
    expect(xmlDocumentComplete(auszug)).toBe(true);
    expect(xmlDocumentComplete(`${auszug}\r\n`)).toBe(true);
    expect(xmlDocumentComplete('<?xml version="1.0"?><!-- c --><root a="1"/>')).toBe(true);
  });

  it('finds every cut of a real envelope incomplete', () => {
    const end = auszug.trimEnd().length;
    for (let cut = 0; cut < end; cut += Math.max(1, Math.floor(end / 97))) expect(xmlDocumentComplete(auszug.slice(0, cut)), `cut at ${cut}`).toBe(false);
    expect(xmlDocumentComplete(auszug.trimEnd().slice(0, -1))).toBe(false);
  });

  it('leaves what is not XML at all to the parser', () => {
    expect(xmlDocumentComplete('Service Unavailable')).toBe(true);
    expect(xmlDocumentComplete('<html><body>502</body></html>')).toBe(true);
  });
});

describe('jsonDocumentComplete', () => {
  it('tells a JSON body that stops early from one that is whole but wrong', () => {
    const body = JSON.stringify({ '@entryid': '1-A', Aktenzeichen: 'S 12/26 k', Bausteine: [{ name: 'Eröffnung', text: 'x' }] });
    expect(jsonDocumentComplete(body)).toBe(true);
    for (let cut = 0; cut < body.length; cut++) expect(jsonDocumentComplete(body.slice(0, cut)), `cut at ${cut}`).toBe(false);
    expect(jsonDocumentComplete('{bad}')).toBe(true);
    expect(jsonDocumentComplete('<html>login</html>')).toBe(true);
  });
});

describe('FirmenbuchClient classification', () => {
  let server: Server;
  let url: string;
  let answer: (res: ServerResponse) => void;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => answer(res));
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const client = () => new FirmenbuchClient({ baseUrl: url, timeoutMs: 2000 });
  const caught = async (call: Promise<unknown>) => call.then(() => null, (err: unknown) => err as Error);

  it('retries a 200 whose envelope is cut off mid-document (chunked, cleanly ended)', async () => {
    answer = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/soap+xml' });
      res.end(auszug.slice(0, Math.floor(auszug.length / 2)));
    };
    const err = await caught(client().extract('33918f', '2026-10-01'));
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(err!.message).toMatch(/cut off/);
    expect(isUnrecoverable(err)).toBe(false);
  });

  it('fails at once on a complete, well-formed envelope whose payload is not the one asked for, keeping it', async () => {
    answer = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/soap+xml' });
      res.end(suchefirma);
    };
    const err = await caught(client().extract('33918f', '2026-10-01'));
    expect(isUnrecoverable(err)).toBe(true);
    expect(err).toMatchObject({ name: 'FirmenbuchResponseParseError', kind: expect.stringMatching(/^unexpected/) });
    expect((err as { rawInput?: string }).rawInput).toBe(suchefirma);
  });

  const fault = (reason: string) =>
    `<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body><env:Fault><env:Code><env:Value>env:Receiver</env:Value></env:Code>` +
    `<env:Reason><env:Text xml:lang="en">${reason}</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>`;

  it('retries an unclassified fault of the service, fails a request fault at once', async () => {
    answer = (res) => res.writeHead(500, { 'Content-Type': 'application/soap+xml' }).end(fault('Interner Fehler'));
    const internal = await caught(client().extract('33918f', '2026-10-01'));
    expect(internal).toBeInstanceOf(UpstreamUnavailableError);
    answer = (res) => res.writeHead(500, { 'Content-Type': 'application/soap+xml' }).end(fault('Firmenbuchnummer ist ungültig! (max. 6 Ziffern plus Prüfzeichen)'));
    const refused = await caught(client().extract('33918f', '2026-10-01'));
    expect(refused).toMatchObject({ name: 'FirmenbuchFaultError', kind: 'invalidFnr' });
    expect(isUnrecoverable(refused)).toBe(true);
  });
});
