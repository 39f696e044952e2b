// Issue 17: the router matched paths case-insensitively while the access chain checked '/api/v1'
// case-sensitively, so '/API/V1/businesses' answered without a key. This walks every operation of
// the OpenAPI document in variants of its path (case, '//', '/./', '%2F' and other encodings, a
// trailing slash) sent verbatim over a raw socket, since fetch would normalise some of them away.
// Each variant must answer 404 without being billed, or demand a key exactly as the canonical path
// does: 401 without one, one billed request with one.
import { request as httpRequest } from 'node:http';
import { type Counter, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../api/openapi/document.js';
import type { DocumentSource } from '../../runtime/documentSource.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

interface Operation {
  method: string;
  /** The canonical path with its parameters filled in, /api/v1 included. */
  path: string;
  /** A free page (`security: []`): no key, not billed. */
  free: boolean;
}

interface Answer {
  status: number;
  billed: number;
}

const metrics = new Registry();
let api: TestApi;
let key: string;
/** Fetches from the upstream register, which a request without a key must never cause. */
let upstreamCalls = 0;
const documents: DocumentSource = {
  fetch: () => {
    upstreamCalls++;
    return Promise.reject(new Error('register down in this test'));
  },
  keep: () => Promise.resolve(),
};

beforeAll(async () => {
  // A generous burst limit: the walk sends a few thousand requests with one key inside a minute.
  api = await startTestApi({ app: { metrics, documents }, access: { burstLimit: 1_000_000 } });
  key = (await accountWithKey(api.db.sql, 'api')).key;
});
afterAll(() => api.close());

/** Path parameters: the document's example where it gives one, else a value of a plausible shape. */
function operations(): Operation[] {
  const doc = buildOpenApiDocument() as unknown as {
    servers: { url: string }[];
    paths: Record<string, Record<string, { security?: unknown[]; parameters?: { in: string; name: string; example?: unknown; schema?: { example?: unknown } }[] }>>;
  };
  const base = doc.servers[0]!.url;
  const ops: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      let path = template;
      for (const p of (op.parameters ?? []).filter((x) => x.in === 'path')) {
        const example = p.example ?? p.schema?.example ?? '1';
        path = path.replace(`{${p.name}}`, encodeURIComponent(String(example)));
      }
      ops.push({ method: method.toUpperCase(), path: base + path, free: op.security?.length === 0 });
    }
  }
  return ops;
}

const mixedCase = (s: string) => [...s].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');
const encodeFirst = (s: string, upper: boolean) => {
  const hex = s.charCodeAt(0).toString(16);
  return `%${upper ? hex.toUpperCase() : hex}${s.slice(1)}`;
};

/** Every variant of `path` the issue names, each differing from the canonical path. */
function variantsOf(path: string): string[] {
  const segments = path.split('/').slice(1);
  const join = (segs: string[]) => `/${segs.join('/')}`;
  const out = new Set<string>();
  const perSegment = (i: number, change: (s: string) => string) => out.add(join(segments.map((s, j) => (j === i ? change(s) : s))));
  segments.forEach((segment, i) => {
    perSegment(i, (s) => s.toUpperCase());
    perSegment(i, mixedCase);
    if (/^[a-z]/i.test(segment)) {
      perSegment(i, (s) => encodeFirst(s, false));
      perSegment(i, (s) => encodeFirst(s, true));
    }
    // Slashes: doubled, a dot segment, encoded, double-encoded, a backslash, a dot-dot detour.
    const before = join(segments.slice(0, i));
    const after = join(segments.slice(i));
    if (i > 0) {
      out.add(`${before}/${after}`);
      out.add(`${before}/.${after}`);
      out.add(`${before}/%2e${after}`);
      out.add(`${before}/x/..${after}`);
      out.add(`${before}%2F${after.slice(1)}`);
      out.add(`${before}%2f${after.slice(1)}`);
      out.add(`${before}%252F${after.slice(1)}`);
      out.add(`${before}\\${after.slice(1)}`);
    }
  });
  out.add(path.toUpperCase());
  out.add(mixedCase(path));
  out.add(`${path}/`);
  out.add(`${path}//`);
  out.add(`${path}/.`);
  out.add(`${path};x=1`);
  out.add(`${path}%00`);
  out.delete(path);
  return [...out];
}

async function billedSoFar(): Promise<number> {
  const counter = metrics.getSingleMetric('api_billed_requests_total') as Counter | undefined;
  return counter ? ((await counter.get()).values[0]?.value ?? 0) : 0;
}

/** Sends `path` byte for byte (no URL normalisation) and says what it cost. */
async function send(method: string, path: string, withKey: boolean): Promise<Answer> {
  const before = await billedSoFar();
  const url = new URL(api.http.baseUrl);
  const body = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) ? '{}' : undefined;
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...(withKey ? { 'x-api-key': key } : {}), ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  return { status, billed: (await billedSoFar()) - before };
}

describe('every operation in every variant of its path', () => {
  it('covers every operation the document lists', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThanOrEqual(38);
    expect(variantsOf('/api/v1/courts')).toContain('/API/v1/courts');
    expect(variantsOf('/api/v1/courts')).toContain('/api/v1%2Fcourts');
  });

  it('answers 404 unbilled, or demands a key and bills exactly as the canonical path does', async () => {
    const failures: string[] = [];
    let guarded = 0;
    for (const op of operations()) {
      const anonymous = await send(op.method, op.path, false);
      const keyed = await send(op.method, op.path, true);
      // The canonical path: a key is demanded, and a call with one is billed once; a free page neither.
      const canonical = op.free ? [{ status: 200, billed: 0 }, 0] : [{ status: 401, billed: 0 }, 1];
      expect([anonymous, keyed.billed], `${op.method} ${op.path}`).toEqual(canonical);
      for (const variant of variantsOf(op.path)) {
        const a = await send(op.method, variant, false);
        const k = await send(op.method, variant, true);
        const notFound = a.status === 404 && a.billed === 0 && k.status === 404 && k.billed === 0;
        const sameAsCanonical = op.free
          ? a.status === 200 && a.billed === 0 && k.billed === 0
          : a.status === 401 && a.billed === 0 && k.status !== 401 && k.billed === 1;
        if (sameAsCanonical) guarded++;
        if (!notFound && !sameAsCanonical) failures.push(`${op.method} ${variant}: ${a.status}/${a.billed} without key, ${k.status}/${k.billed} with`);
      }
    }
    expect(failures).toEqual([]);
    // Some variants (a trailing slash, another case) do reach their operation: through the chain.
    expect(guarded).toBeGreaterThan(0);
  }, 120_000);

  it('closes the reported reproductions: no public data and no upstream call without a key', async () => {
    upstreamCalls = 0;
    for (const path of ['/API/V1/businesses?pageSize=1000', '/api/V1/businesses/count', '/API/V1/documents/download/030435_0070202507812_000___000_30_41873215_XML']) {
      const answer = await send('GET', path, false);
      expect([401, 404], path).toContain(answer.status);
      expect(answer.billed, path).toBe(0);
    }
    for (let i = 0; i < 5; i++) await send('GET', '/API/V1/documents/download/030435_0070202507812_000___000_30_41873215_XML', false);
    expect(upstreamCalls).toBe(0);
    // The same download with a key does reach the register (and is told it is down): the counter counts.
    expect((await send('GET', '/api/v1/documents/download/030435_0070202507812_000___000_30_41873215_XML', true)).status).toBe(503);
    expect(upstreamCalls).toBe(1);
  });
});
