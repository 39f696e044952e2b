// Elasticsearch indexing against a transport-level fake: the real client and bulk helper run, only
// HTTP is replaced. Documents carry exact figure values; a dropped document fails the batch and the
// cursor stays; a rebuild creates a versioned index, bulk-loads it and swaps the alias in one request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkIndexError, esIndexOnce, rebuildEsIndex } from '../../indexer/search/elasticsearch/esIndexer.js';
import { createLogger } from '../../runtime/logger.js';
import { bulkAnswer, fakeEsClient, type RecordedRequest } from '../helpers/fakeEsConnection.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedCompanies(db.sql, [
    { digits: 2001, name: 'Erste Test GmbH', figures: { umsatzerloese: '1234567.89', bilanzSumme: '500000' } },
    { digits: 2002, name: 'Zweite Test KG', legalForm: 'KG' },
  ]);
});
afterAll(async () => {
  await db.drop();
});

const bulkDocs = (requests: RecordedRequest[]) =>
  requests
    .filter((r) => r.path.endsWith('/_bulk'))
    .flatMap((r) => r.body.trim().split('\n').filter((_l, i) => i % 2 === 1).map((l) => JSON.parse(l) as Record<string, unknown>));

describe('incremental Elasticsearch indexing', () => {
  it('refuses a batch with a dropped document and keeps the cursor', async () => {
    const { client } = fakeEsClient((req) => ({ body: req.path.endsWith('/_bulk') ? bulkAnswer(req.body, (id) => id === seedFnr(2002)) : {} }));
    await expect(esIndexOnce(db.sql, client)).rejects.toBeInstanceOf(BulkIndexError);
    const rows = await db.sql`SELECT last_change_id FROM index_cursor WHERE name = 'companies-es'`;
    expect(rows).toEqual([]);
  });

  it('bulk-indexes the documents of changed companies with exact figures, then moves the cursor', async () => {
    const { client, requests } = fakeEsClient((req) => ({ body: req.path.endsWith('/_bulk') ? bulkAnswer(req.body) : {} }));
    let applied = 0;
    for (let n = await esIndexOnce(db.sql, client); n > 0; n = await esIndexOnce(db.sql, client)) applied += n;
    expect(applied).toBeGreaterThan(0);
    const docs = bulkDocs(requests);
    const first = docs.find((d) => d.fnr === seedFnr(2001))!;
    expect(first).toMatchObject({ name: 'Erste Test GmbH', name_norm: 'erste test gmbh', is_active: true, fig_umsatzerloese: 1234567.89, fig_bilanzsumme: 500000 });
    expect(first.fig_jahresueberschuss).toBeNull();
    expect(first.document_date).toBe('2024-12-31');
    expect(docs.some((d) => d.fnr === seedFnr(2002))).toBe(true);
    const [cursor] = await db.sql`SELECT last_change_id FROM index_cursor WHERE name = 'companies-es'`;
    const [newest] = await db.sql`SELECT max(id) AS id FROM change_log`;
    expect(cursor!.lastChangeId).toBe(newest!.id);
    expect(await esIndexOnce(db.sql, client)).toBe(0);
  });
});

describe('Elasticsearch rebuild', () => {
  it('creates a versioned index with the mapping, loads it, swaps the alias atomically and deletes older versions', async () => {
    const { client, requests } = fakeEsClient((req) => {
      if (req.path.endsWith('/_bulk')) return { body: bulkAnswer(req.body) };
      if (req.method === 'GET' && req.path === '/_alias/companies') return { body: { 'companies-v1-20260101000000': { aliases: { companies: {} } } } };
      if (req.method === 'GET' && req.path.startsWith('/companies-v*')) {
        return { body: { 'companies-v1-20250101000000': {}, 'companies-v1-20260101000000': {}, 'companies-v1-20991231235959': {} } };
      }
      return { body: { acknowledged: true } };
    });
    const result = await rebuildEsIndex(db.sql, client, createLogger('silent'));
    expect(result.documents).toBe(2);
    const create = requests.find((r) => r.method === 'PUT' && r.path === `/${result.index}`)!;
    const created = JSON.parse(create.body) as { settings: Record<string, unknown>; mappings: { properties: Record<string, unknown> } };
    expect(created.settings).toMatchObject({ refresh_interval: '-1', number_of_replicas: 0 });
    expect(created.mappings.properties.fig_umsatzerloese).toEqual({ type: 'scaled_float', scaling_factor: 100 });
    expect(bulkDocs(requests).map((d) => d.fnr).sort()).toEqual([seedFnr(2001), seedFnr(2002)].sort());
    const swap = requests.find((r) => r.path === '/_aliases')!;
    expect(JSON.parse(swap.body)).toEqual({
      actions: [{ remove: { index: 'companies-v1-20260101000000', alias: 'companies' } }, { add: { index: result.index, alias: 'companies' } }],
    });
    const deleted = requests.filter((r) => r.method === 'DELETE').map((r) => r.path);
    // The previous version stays for rollback, a newer one (another build) is left alone, older ones go.
    expect(deleted).toEqual(['/companies-v1-20250101000000']);
  });
});
