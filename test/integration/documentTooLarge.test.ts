// Issue 22, finding 6: a document whose content is larger than the pipeline accepts keeps its
// metadata, records why its content is missing, and is not asked for again by later listings; the
// job that met it fails with the reason. (Before: 60 MB documents were fetched whole, again and again.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { firmenbuchHandlers } from '../../pipeline/firmenbuch/firmenbuchJobs.js';
import { storeDocumentListings } from '../../pipeline/store/documentStore.js';
import { MiB, UpstreamBodyTooLargeError } from '../../pipeline/upstream/bodyLimit.js';
import { createLogger } from '../../runtime/logger.js';
import type { DocumentListing } from '../../schemas/firmenbuchRecords.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;
let upstream: Server;
let baseUrl: string;
const fnr = seedFnr(4711);
const listing = (key: string): DocumentListing => ({
  key, fnr, fnrDigits: '4711', az: null, documentType: { code: '48', text: 'Jahresabschluss' }, documentDate: '2024-12-31',
  contentType: 'application/pdf', fileExtension: 'pdf', sizeBytes: 63_000_000, remark: null, balanceSheetDate: '2024-12-31',
  sizeClass: 'G', vnr: null, filedOn: '2025-06-30',
});

beforeAll(async () => {
  db = await createTestDatabase();
  await seedCompanies(db.sql, [{ digits: 4711, name: 'Große Bank AG' }]);
  // Every URKUNDE answer: 3 MiB of base64 and counting, over the 1 MiB document limit of this test.
  upstream = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/soap+xml' });
    res.end(`<?xml version="1.0"?><S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope"><S:Body>${'A'.repeat(3 * MiB)}</S:Body></S:Envelope>`);
  });
  await new Promise<void>((ready) => upstream.listen(0, '127.0.0.1', () => ready()));
  baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise<void>((done) => upstream.close(() => done()));
  await db.drop();
});

it('a document over the limit keeps its metadata, records the reason, fails its job and is not listed for fetching again', async () => {
  const [big, small] = [`004711_0070000000000_000___000_30_1_PDF`, `004711_0070000000000_000___000_30_2_PDF`];
  const first = await storeDocumentListings(db.sql, fnr, [listing(big), listing(small)], { unfetchedOfType: '48' });
  expect(first.unfetched?.sort()).toEqual([big, small]);

  const client = new FirmenbuchClient({ baseUrl, maxDocumentBytes: 1 * MiB });
  const handlers = firmenbuchHandlers({ sql: db.sql, client, enqueue: async () => undefined, log: createLogger('silent') });
  try {
    await expect(handlers.annualAccount({ fnr, documentKey: big }, {} as Job)).rejects.toBeInstanceOf(UpstreamBodyTooLargeError);
  } finally {
    client.close();
  }

  const [row] = await db.sql<{ contentRefused: string | null; content: Buffer | null; documentDate: string; sizeBytes: number }[]>`
    SELECT content_refused, content, to_char(document_date, 'YYYY-MM-DD') AS document_date, size_bytes FROM document WHERE document_key = ${big}`;
  expect(row).toMatchObject({ content: null, documentDate: '2024-12-31', sizeBytes: 63_000_000 });
  expect(row!.contentRefused).toMatch(/urkunde is larger than its limit of 1048576 bytes/);

  const again = await storeDocumentListings(db.sql, fnr, [listing(big), listing(small)], { unfetchedOfType: '48' });
  expect(again.unfetched).toEqual([small]);
});
