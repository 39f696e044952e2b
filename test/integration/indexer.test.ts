// The indexer keeps the search read model in step with the change log, and a rebuild swaps in a new
// table while readers keep reading without errors or missing companies.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexerLag, indexOnce, rebuildReadModel, registerIndexerLagMetric, startIndexer } from '../../indexer/indexer.js';
import { createMetrics } from '../../runtime/metrics.js';
import { parseAnnualAccount } from '../../pipeline/firmenbuch/annualAccountParser.js';
import { parseAuszug } from '../../pipeline/firmenbuch/extractParser.js';
import { storeCompanyExtract } from '../../pipeline/store/companyStore.js';
import { storeAnnualAccount, storeDocumentListings } from '../../pipeline/store/documentStore.js';
import { createLogger } from '../../runtime/logger.js';
import { figureColumn, FIGURE_BY_JSON_KEY } from '../../schemas/keyFigures.js';
import { insertChanges } from '../helpers/changeRows.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const log = createLogger('silent');
const read = (path: string) => readFileSync(new URL(`../../fixtures/firmenbuch/${path}`, import.meta.url), 'utf8');

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ max: 8 });
  await rebuildReadModel(db.sql, log);
});
afterAll(async () => {
  await db.drop();
});

async function storeCompany(name: string) {
  return storeCompanyExtract(db.sql, parseAuszug(read(`soap/${name}.xml`)));
}

describe('incremental indexing', () => {
  it('indexes a stored company with its latest filing figures, and reports lag', async () => {
    const { fnr } = await storeCompany('auszug-gmbh-shareholders');
    const filingXml = read('filings/02-legacy-full-bilanz-guv-gkv.xml');
    const parsed = parseAnnualAccount(filingXml);
    const key = '123456_0070711322495_000___000_30_7730290_XML';
    await storeDocumentListings(db.sql, fnr, [{
      key, fnr, fnrDigits: '123456', az: null, documentType: { code: '48', text: 'Jahresabschluss' }, documentDate: parsed.documentDate,
      contentType: 'application/xml', fileExtension: 'xml', sizeBytes: filingXml.length, remark: null, balanceSheetDate: parsed.documentDate,
      sizeClass: 'M', vnr: null, filedOn: null,
    }]);
    await storeAnnualAccount(db.sql, { documentKey: key, fnr, parsed, rawXml: filingXml, filedOn: null, parserVersion: 1 });
    const lag = await indexerLag(db.sql);
    expect(lag).toBeGreaterThan(0);
    // As Prometheus scrapes it from /metrics.
    const metrics = createMetrics();
    registerIndexerLagMetric(metrics, db.sql);
    const scraped = async () => Number(/^indexer_lag_changes (\d+)$/m.exec(await metrics.registry.metrics())?.[1]);
    expect(await scraped()).toBe(lag);

    while ((await indexOnce(db.sql)) > 0);
    expect(await indexerLag(db.sql)).toBe(0);
    expect(await scraped()).toBe(0);

    const [doc] = await db.sql`SELECT * FROM company_search WHERE fnr = ${fnr}`;
    expect(doc).toMatchObject({ fnr, isActive: true, name: expect.any(String), nameNorm: expect.stringMatching(/^alpenblick holzbau/) });
    expect(doc!.documentKey).toBe(key);
    for (const [jsonKey, value] of Object.entries(parsed.figures)) {
      const column = figureColumn(FIGURE_BY_JSON_KEY.get(jsonKey)!).replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
      expect(doc![column] === null ? null : String(Number(doc![column])), jsonKey).toBe(value === null ? null : String(Number(value)));
    }
  });

  it('folds umlauts and punctuation in the normalised name', async () => {
    const [row] = await db.sql`SELECT search_norm('Müller & Söhne Ges.m.b.H. – Straße') AS n`;
    expect(row!.n).toBe('mueller soehne ges m b h strasse');
  });
});

describe('rebuild', () => {
  it('swaps in a new table while readers keep answering, with no error and no missing company', async () => {
    await storeCompany('auszug-og-stelle');
    await storeCompany('auszug-organisation-party');
    while ((await indexOnce(db.sql)) > 0);
    const [{ n: before }] = (await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM company_search`) as unknown as [{ n: number }];
    expect(before).toBe(3);

    let reading = true;
    let reads = 0;
    const errors: unknown[] = [];
    const counts = new Set<number>();
    const reader = (async () => {
      while (reading) {
        try {
          const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM company_search WHERE is_active OR NOT is_active`;
          counts.add(row!.n);
          reads++;
        } catch (err) {
          errors.push(err);
        }
      }
    })();
    const first = await rebuildReadModel(db.sql, log);
    const second = await rebuildReadModel(db.sql, log);
    reading = false;
    await reader;
    expect(errors).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect([...counts]).toEqual([3]);
    expect(second.table).not.toBe(first.table);
    const tables = await db.sql`SELECT tablename FROM pg_tables WHERE tablename LIKE 'company_search_v%'`;
    expect(tables.map((t) => t.tablename)).toEqual([second.table]);
  });

  it('picks up changes that commit while the rebuild runs', async () => {
    const rebuilding = rebuildReadModel(db.sql, log);
    const extract = parseAuszug(read('soap/auszug-og-stelle.xml'));
    await storeCompanyExtract(db.sql, { ...extract, name: 'Umbenannt während des Rebuilds OG' });
    await rebuilding;
    while ((await indexOnce(db.sql)) > 0);
    const [doc] = await db.sql`SELECT name FROM company_search WHERE fnr = ${extract.fnr}`;
    expect(doc!.name).toBe('Umbenannt während des Rebuilds OG');
  });
});

describe('polling indexer', () => {
  it('also seals the change feeds\' id blocks as the log grows, so feed reads need not', async () => {
    const own = await createTestDatabase();
    try {
      const sealed = async () => (await own.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log_block_count`)[0]!.n;
      const before = await sealed();
      await insertChanges(own.sql, 3 * 1024);
      const indexer = startIndexer(own.sql, createLogger('silent'), 50);
      try {
        await expect.poll(sealed, { timeout: 5000 }).toBeGreaterThanOrEqual(before + 3);
      } finally {
        await indexer.close();
      }
    } finally {
      await own.drop();
    }
  });
});
