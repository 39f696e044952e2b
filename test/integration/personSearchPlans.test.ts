// Person name prefixes are btree ranges, not `LIKE $1` patterns: after a few one-letter searches a
// connection's cached plan turns generic, and a generic plan cannot take a parameter pattern as index
// bounds, so `LIKE $1` then scanned every person for each later search, however selective.
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../api/middleware/errorHandler.js';
import { peopleRouter } from '../../api/routes/people.js';
import type { Sql } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';
import { json, serve } from '../helpers/httpClient.js';
import { rowsRead } from '../helpers/tableReads.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql`
    INSERT INTO person (person_id, first_name, last_name, name_norm)
    SELECT 'p-' || i, f, l || i, lower(f || ' ' || l || i)
      FROM generate_series(1, 20000) AS i,
           LATERAL (SELECT (ARRAY['Maria', 'Hans', 'Anna', 'Georg', 'Sabine'])[i % 5 + 1] AS f,
                           (ARRAY['Mayer', 'Huber', 'Gruber', 'Moser', 'Hofer', 'Steiner', 'Bauer', 'Wagner'])[i % 8 + 1] AS l) n`;
  await db.sql`INSERT INTO person (person_id, first_name, last_name, name_norm) VALUES ('zyx-quarz-x', 'Zyx', 'Quarz', 'zyx quarz')`;
  await db.sql`ANALYZE person`;
});
afterAll(() => db.drop());

describe('person name search under cached plans', () => {
  it.each([
    ['/people/names?search=', 'zyx'],
    ['/people?lastName=', 'quar'],
  ])('%s%s reads only its matches after one-letter searches on the same connection', async (path, selective) => {
    // One connection in one transaction: one plan cache, and pg_stat_xact counts this transaction's reads.
    const connection = await db.sql.reserve();
    await connection`BEGIN`;
    const app = new Koa();
    app.silent = true;
    app.use(errorHandler(createLogger('silent')));
    app.use(peopleRouter(connection as unknown as Sql).routes());
    const http = await serve(app);
    try {
      for (const letter of ['m', 'h', 'g', 's', 'b', 'w', 'a']) {
        expect((await http.get(`${path}${letter}`)).status).toBe(200);
      }
      const tx = connection as unknown as Sql;
      const before = await rowsRead(tx, 'person');
      const body = await json(await http.get(`${path}${selective}`));
      expect(body.data.map((p: { personId: string }) => p.personId)).toEqual(['zyx-quarz-x']);
      expect(await rowsRead(tx, 'person') - before).toBeLessThan(50);
    } finally {
      await http.close();
      await connection`ROLLBACK`;
      connection.release();
    }
  });
});
