// GET /graph is bounded: a graph larger than MAX_NODES answers 200 with its first MAX_NODES nodes (breadth
// first, so the nearer ones), `truncated: true`, only edges between returned nodes, and promptly.
// The graphs are seeded here in bulk: a company with hundreds of people, a holder of such a company,
// and a hub whose every person leads on to a company of its own.
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correlationId } from '../../api/middleware/correlationId.js';
import { errorHandler } from '../../api/middleware/errorHandler.js';
import { MAX_NODES } from '../../api/operations/graph.js';
import { graphRouter } from '../../api/routes/graph.js';
import type { Sql } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';
import { json, serve, type TestHttp } from '../helpers/httpClient.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;
let http: TestHttp;

/** A company with `people` persons, each its managing director (pnr P<i>, person `<prefix>-<i>`). */
async function companyWithPeople(sql: Sql, fnr: string, prefix: string, people: number): Promise<void> {
  await sql`INSERT INTO company (fnr, name, status) VALUES (${fnr}, ${`Company ${fnr}`}, 'active')`;
  await sql`
    INSERT INTO person (person_id, first_name, last_name, name_norm)
    SELECT ${prefix} || '-' || i, 'Person', ${prefix} || ' ' || i, 'person ' || ${prefix} || ' ' || i FROM generate_series(1, ${people}::int) i`;
  await sql`
    INSERT INTO company_party (fnr, pnr, kind, person_id)
    SELECT ${fnr}, 'P' || i, 'person', ${prefix} || '-' || i FROM generate_series(1, ${people}::int) i`;
  await sql`
    INSERT INTO company_function (fnr, pnr, function_code, vnr, function_text, representation_code, is_current)
    SELECT ${fnr}, 'P' || i, 'GF', '001', 'GESCHÄFTSFÜHRER/IN (handelsrechtlich)', 'E', true FROM generate_series(1, ${people}::int) i`;
}

beforeAll(async () => {
  db = await createTestDatabase();
  const sql = db.sql;
  // Exactly at the bound: the company and 499 people are 500 nodes.
  await companyWithPeople(sql, '700001a', 'atcap', MAX_NODES - 1);
  // One above it, and far above it.
  await companyWithPeople(sql, '700002b', 'overcap', MAX_NODES);
  await companyWithPeople(sql, '700003c', 'wide', 650);
  // 700004d is held by 700003c (so the bound is reached one level further out).
  await sql`INSERT INTO company (fnr, name, status) VALUES ('700004d', 'Held GmbH', 'active')`;
  await sql`INSERT INTO company_party (fnr, pnr, kind, related_fnr) VALUES ('700004d', 'H1', 'company', '700003c')`;
  await sql`INSERT INTO holding (fnr, pnr, vnr, capital, paid_in, currency, is_current) VALUES ('700004d', 'H1', '001', 35000, 17500, 'EUR', true)`;
  // A hub with 3000 people, each also managing a company of their own: tens of thousands of nodes within depth 3.
  await companyWithPeople(sql, '700005f', 'hub', 3000);
  await sql`
    INSERT INTO company (fnr, name, status) SELECT 'h' || i, 'Own ' || i, 'active' FROM generate_series(1, 3000) i`;
  await sql`
    INSERT INTO company_party (fnr, pnr, kind, person_id) SELECT 'h' || i, 'A', 'person', 'hub-' || i FROM generate_series(1, 3000) i`;
  await sql`
    INSERT INTO company_function (fnr, pnr, function_code, vnr, is_current) SELECT 'h' || i, 'A', 'GF', '001', true FROM generate_series(1, 3000) i`;
  await sql`ANALYZE`;

  const app = new Koa();
  app.silent = true;
  app.use(correlationId());
  app.use(errorHandler(createLogger('silent')));
  const api = new Router({ prefix: '/api/v1' });
  api.use(graphRouter(sql).routes());
  app.use(api.routes());
  http = await serve(app);
});
afterAll(async () => {
  await http?.close();
  await db?.drop();
});

interface Graph { nodes: { id: string; type: string; label: string }[]; edges: { source: string; target: string; type: string }[]; truncated: boolean }

async function graph(query: string): Promise<{ body: Graph; ms: number }> {
  const started = performance.now();
  const res = await http.get(`/api/v1/graph?${query}`);
  const ms = performance.now() - started;
  expect(res.status, query).toBe(200);
  return { body: (await json(res)) as Graph, ms };
}

/** Ids unique, every edge between returned nodes, and every node reachable from the start through returned edges. */
function expectWellFormed(body: Graph, start: string): void {
  const ids = body.nodes.map((n) => n.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids[0]).toBe(start);
  const known = new Set(ids);
  const dangling = body.edges.filter((e) => !known.has(e.source) || !known.has(e.target));
  expect(dangling).toEqual([]);
  const neighbours = new Map<string, string[]>();
  for (const e of body.edges) {
    neighbours.set(e.source, [...(neighbours.get(e.source) ?? []), e.target]);
    neighbours.set(e.target, [...(neighbours.get(e.target) ?? []), e.source]);
  }
  const reached = new Set([start]);
  for (const queue = [start]; queue.length > 0; ) {
    for (const next of neighbours.get(queue.shift()!) ?? []) {
      if (!reached.has(next)) {
        reached.add(next);
        queue.push(next);
      }
    }
  }
  expect(reached.size, 'every node hangs on an edge from the start').toBe(ids.length);
}

describe('graph node bound', () => {
  it('is not truncated when the graph has exactly MAX_NODES nodes', async () => {
    for (const depth of [1, 2, 3]) {
      const { body } = await graph(`fnr=700001a&depth=${depth}`);
      expect(body.truncated).toBe(false);
      expect(body.nodes).toHaveLength(MAX_NODES);
      expect(body.edges).toHaveLength(MAX_NODES - 1);
      expectWellFormed(body, 'company:700001a');
    }
  });

  it('answers the first MAX_NODES nodes and truncated: true one node above the bound', async () => {
    const { body } = await graph('fnr=700002b&depth=1');
    expect(body.truncated).toBe(true);
    expect(body.nodes).toHaveLength(MAX_NODES);
    expect(body.edges).toHaveLength(MAX_NODES - 1);
    expect(body.nodes.every((n, i) => (i === 0 ? n.type === 'company' : n.type === 'person' && n.id.startsWith('person:overcap-')))).toBe(true);
    expect(body.edges.every((e) => e.type === 'function' && e.target === 'company:700002b')).toBe(true);
    expectWellFormed(body, 'company:700002b');
  });

  it('cuts a company with 650 people at the bound, from the company and from one of its people', async () => {
    const fromCompany = await graph('fnr=700003c&depth=1');
    expect(fromCompany.body.truncated).toBe(true);
    expect(fromCompany.body.nodes).toHaveLength(MAX_NODES);
    expectWellFormed(fromCompany.body, 'company:700003c');

    const fromPerson = await graph('personId=wide-1&depth=2');
    expect(fromPerson.body.truncated).toBe(true);
    expect(fromPerson.body.nodes).toHaveLength(MAX_NODES);
    expect(fromPerson.body.nodes.slice(0, 2).map((n) => n.id)).toEqual(['person:wide-1', 'company:700003c']);
    expectWellFormed(fromPerson.body, 'person:wide-1');
  });

  it('keeps the nearer levels whole when the bound is reached further out', async () => {
    const { body } = await graph('fnr=700004d&depth=2');
    expect(body.truncated).toBe(true);
    expect(body.nodes).toHaveLength(MAX_NODES);
    expect(body.nodes.slice(0, 2).map((n) => n.id)).toEqual(['company:700004d', 'company:700003c']);
    expect(body.edges).toContainEqual({
      source: 'company:700003c', target: 'company:700004d', type: 'holding', capital: 35000, paidIn: 17500, currency: 'EUR', since: null,
    });
    expectWellFormed(body, 'company:700004d');
    // Below the bound the same start answers whole.
    const whole = await graph('fnr=700004d&depth=1');
    expect(whole.body).toEqual({ nodes: body.nodes.slice(0, 2), edges: [body.edges.find((e) => e.type === 'holding')], truncated: false });
  });

  it('answers a graph of tens of thousands of nodes within depth 3 with its first MAX_NODES nodes, promptly', async () => {
    for (const query of ['fnr=700005f&depth=3', 'personId=hub-1&depth=3', 'fnr=h1&depth=3']) {
      const { body, ms } = await graph(query);
      expect(body.truncated, query).toBe(true);
      expect(body.nodes.length, query).toBeLessThanOrEqual(MAX_NODES);
      expect(body.nodes.length, query).toBe(MAX_NODES);
      const start = query.startsWith('fnr=') ? `company:${query.slice(4, query.indexOf('&'))}` : `person:${query.slice(9, query.indexOf('&'))}`;
      expectWellFormed(body, start);
      expect(ms, `${query} took ${ms.toFixed(0)} ms`).toBeLessThan(2000);
    }
  });
});
