// The BMF list on the read side, through the whole app: a list version stored by the pipeline's store
// reaches the screener's isScheinunternehmen filter within 2 s through the running indexer (both
// Postgres backends), and the profile shows the flag with its publications and link evidence, as the
// export column does.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { indexOnce, rebuildReadModel, startIndexer } from '../../indexer/indexer.js';
import { columnarSearch } from '../../indexer/search/columnar/columnarSearch.js';
import { postgresSearch } from '../../indexer/search/postgresSearch.js';
import { applyListVersion } from '../../pipeline/bmf/listingStore.js';
import { parseLsuList } from '../../pipeline/bmf/lsuParser.js';
import { createLogger } from '../../runtime/logger.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { json, serve } from '../helpers/httpClient.js';
import { seedCompanies, seedFnr, type SeedCompany } from '../helpers/seedCompanies.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';
import type { TestDatabase } from '../helpers/testDatabase.js';

const LISTS = new URL('../../fixtures/corpus/bmf/lists/', import.meta.url).pathname;
const readList = (file: string) => parseLsuList(new TextDecoder('windows-1252').decode(readFileSync(LISTS + file)));
const log = createLogger('silent');
const PANNONIA = seedFnr(73210); // listed by FN in version 1, gone in version 2
const HOLZ = seedFnr(455190); // listed without FN: linked by name + address
const SALZACH = seedFnr(421877); // new in version 2

const COMPANIES: SeedCompany[] = [
  { digits: 73210, name: 'Pannonia Elektrotechnik GmbH', city: 'Eisenstadt', zipCode: '7000', street: ['Ruster Straße', '70'] },
  { digits: 455190, name: 'Mühlviertler Holzhandel GmbH', city: 'Freistadt', zipCode: '4240', street: ['Linzer Straße', '31'] },
  { digits: 421877, name: 'Salzach Medizintechnik AG', legalForm: 'AG', city: 'Hallein', zipCode: '5400' },
  { digits: 412785, name: 'Bergblick Tischlerei GmbH', city: 'Schwaz', zipCode: '6130' },
];

/** The companies stored and in the read model, none listed yet. */
async function companiesIndexed(db: TestDatabase): Promise<void> {
  await seedCompanies(db.sql, COMPANIES);
  await rebuildReadModel(db.sql, log);
  while ((await indexOnce(db.sql)) > 0);
}

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ plan: 'api', prepare: companiesIndexed });
});
afterAll(() => api.close());

const backends = [
  { name: 'postgres read model', make: async () => ({ search: postgresSearch(api.db.sql), close: async () => undefined }) },
  {
    name: 'screener columns',
    make: async () => {
      const search = columnarSearch(api.db.sql, { log });
      await search.ready;
      return { search, close: () => search.close() };
    },
  },
];

describe('isScheinunternehmen in the screener', () => {
  // Version 1 with the first backend, version 2 with the second: the flag set, then cleared and set.
  const steps = [
    { file: '01-stand-2026-10-01.csv', listed: [PANNONIA, HOLZ] },
    { file: '02-stand-2026-10-15.csv', listed: [HOLZ, SALZACH] },
  ];
  it.each(backends.map((b, i) => ({ ...b, ...steps[i]! })))('follows a stored list version within 2 s ($name, $file)', async ({ make, file, listed }) => {
    const backend = await make();
    const { key } = await accountWithKey(api.db.sql);
    const client = await serve(createApp({ sql: api.db.sql, log, access: api.access.access, search: backend.search }), { 'x-api-key': key });
    const indexer = startIndexer(api.db.sql, log);
    const flagged = async () => ((await json(await client.get('/api/v1/businesses?isScheinunternehmen=true&pageSize=100'))).data as Array<{ fnr: string }>).map((r) => r.fnr).sort();
    try {
      expect(await flagged()).not.toEqual([...listed].sort());
      const flaggedBefore = await flagged();
      const last = (await api.db.sql<{ last: number }[]>`SELECT coalesce(max(id), 0)::int AS last FROM change_log`)[0]!.last;
      const started = Date.now();
      expect(await applyListVersion(api.db.sql, readList(file))).toMatchObject({ status: 'applied' });
      let seenAfter = Number.POSITIVE_INFINITY;
      while (Date.now() - started < 5000) {
        if (JSON.stringify(await flagged()) === JSON.stringify([...listed].sort())) {
          seenAfter = Date.now() - started;
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(seenAfter).toBeLessThan(2000);
      // The business changes the screener followed: each company whose flag flipped, isScheinunternehmen named.
      const flipped = [...new Set([...flaggedBefore, ...listed])].filter((f) => flaggedBefore.includes(f) !== listed.includes(f)).sort();
      expect(flipped.length).toBeGreaterThan(0);
      const feed = await json(await client.get(`/api/v1/businesses/changes?sinceId=${last}&pageSize=100`));
      const flips = (feed.data as Array<{ fnr: string; changedFields: string[] }>).filter((c) => c.changedFields.includes('isScheinunternehmen'));
      expect(flips.map((c) => c.fnr).sort()).toEqual(flipped);
      for (const c of flips) expect(c).toMatchObject({ type: 'business', action: 'updated', changedFields: ['isScheinunternehmen', 'scheinunternehmenKundmachungen'] });
      const count = await json(await client.get('/api/v1/businesses/count?isScheinunternehmen=false'));
      expect(count).toEqual({ count: 4 - listed.length });
    } finally {
      await indexer.close();
      await client.close();
      await backend.close();
    }
  });
});

describe('the profile and the export', () => {
  it('show the flag, the publications and how the listing is linked', async () => {
    const holz = await json(await api.http.get(`/api/v1/businesses/${HOLZ}`));
    expect(holz.isScheinunternehmen).toBe(true);
    expect(holz.scheinunternehmenKundmachungen).toEqual([{
      name: 'Mühlviertler Holzhandel GmbH', publishedOn: '2025-06-20', decisionFinalOn: '2025-06-16', deemedSince: '2025-01-01',
      address: '4240 Freistadt, Linzer Straße 31', uid: 'ATU44091273', urCode: null, listedFnr: null,
      link: { evidence: 'name-address', confidence: 0.98 },
    }]);
    const salzach = await json(await api.http.get(`/api/v1/businesses/${SALZACH}`));
    expect(salzach.scheinunternehmenKundmachungen).toEqual([expect.objectContaining({ listedFnr: SALZACH, link: { evidence: 'register-fn', confidence: 1 } })]);
    // Taken off the list: neither flag nor publications; a namesake elsewhere was never linked.
    for (const fnr of [PANNONIA, seedFnr(412785)]) {
      expect(await json(await api.http.get(`/api/v1/businesses/${fnr}`)), fnr).toMatchObject({ isScheinunternehmen: false, scheinunternehmenKundmachungen: [] });
    }

    const res = await api.http.request('/api/v1/exports/businesses', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'csv', fnrs: [HOLZ, PANNONIA], columns: ['fnr', 'isScheinunternehmen'] }),
    });
    expect(res.status).toBe(200);
    const csv = Buffer.from(await res.arrayBuffer()).subarray(3).toString('utf8').trim().split(/\r?\n/);
    expect(csv).toEqual(['fnr,isScheinunternehmen', `${HOLZ},true`, `${PANNONIA},false`]);
  });
});
