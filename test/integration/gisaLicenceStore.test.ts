// The licence store under concurrency (audit of issue 20): the same new licence stored by several jobs
// at once is one licence, one `created` trade change and one count, for a company's licence and for a
// sole trader's (which has no fnr to lock by).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { storeLicenceLookup } from '../../pipeline/gisa/licenceStore.js';
import { GISA_RECORDS } from '../helpers/gisaFixtures.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

it('the same new licence stored by four jobs at once: one change, one count (companies\' and sole traders\')', async () => {
  const legal = GISA_RECORDS.filter((r) => r.holder.type === 'legal' && r.tradeKey !== null).slice(0, 3);
  const natural = GISA_RECORDS.filter((r) => r.holder.type === 'natural' && r.holder.fnr === null && r.tradeKey !== null).slice(0, 3);
  expect(natural.length).toBeGreaterThan(1);
  const licences = [...legal, ...natural];
  await Promise.all(licences.flatMap((l) => [1, 2, 3, 4].map(() => storeLicenceLookup(db.sql, { licences: [l], gone: [] }))));

  for (const l of licences) {
    const changes = await db.sql`SELECT action FROM change_log WHERE type = 'trade' AND gisa_zahl = ${l.gisaZahl}`;
    expect(changes.map((c) => c.action), l.gisaZahl).toEqual(['created']);
  }
  const keys = [...new Set(licences.map((l) => l.tradeKey!))];
  const counted = await db.sql<{ tradeKey: string; total: number; active: number }[]>`
    SELECT trade_key, total, active FROM trade_license_count WHERE trade_key = ANY(${keys}) ORDER BY trade_key`;
  const actual = await db.sql<{ tradeKey: string; total: number; active: number }[]>`
    SELECT trade_key, count(*)::int AS total, count(*) FILTER (WHERE ended_on IS NULL)::int AS active
      FROM trade_license WHERE trade_key = ANY(${keys}) GROUP BY trade_key ORDER BY trade_key`;
  expect(counted).toEqual(actual);
  expect(actual.reduce((n, r) => n + r.total, 0)).toBe(licences.length);
});
