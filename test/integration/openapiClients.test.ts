// The served OpenAPI document works for its users (issue 23.1): every operation's curl example, run as
// written against the API, reaches its operation and is accepted (no 400/415, no route miss, billed
// unless free); and a client generated from it with openapi-typescript type-checks with tsc, typed
// calls of getCompanyProfile, searchCompanies and listKeyFigures included, while a wrong use fails.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { createLogger } from '../../runtime/logger.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { json, type TestHttp } from '../helpers/httpClient.js';
import { seedCompanies } from '../helpers/seedCompanies.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

let api: TestApi;
let http: TestHttp;
let key: string;
beforeAll(async () => {
  api = await startTestApi({
    access: { burstLimit: 100_000 },
    prepare: async (db) => {
      // The companies the examples name, so their requests find what they ask for.
      await seedCompanies(db.sql, [
        { digits: 30435, name: 'Müller Bau GmbH', figures: { umsatzerloese: '9874215.3', personalaufwand: '-2931406.12' } },
        { digits: 402287, name: 'Korneuburger Werftareal Projektentwicklungs GmbH', city: 'Korneuburg', zipCode: '2100' },
        { digits: 155021, name: 'Müller Baustoffe Handels GmbH' },
        { digits: 33918, name: 'Wienerwald Bau- und Handelsgesellschaft m.b.H.' },
      ]);
      await rebuildReadModel(db.sql, createLogger('silent'));
      while ((await indexOnce(db.sql)) > 0);
    },
  });
  http = api.http;
  key = (await accountWithKey(api.db.sql, 'api')).key;
});
afterAll(() => api.close());

type Operation = { operationId: string; security?: unknown[]; 'x-codeSamples': { source: string }[] };
type Doc = { paths: Record<string, Record<string, Operation>> };

/** A curl line of the document as a request: method, target, headers and body, with $API_URL and $API_KEY filled in. */
function parseCurl(source: string): { method: string; url: string; headers: Record<string, string>; body?: string } {
  const url = /"\$API_URL([^"]+)"/.exec(source)![1]!;
  const headers = Object.fromEntries([...source.matchAll(/-H "([^:]+): ([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replace('$API_KEY', key)]));
  const body = /-d '((?:[^']|'\\'')*)'/.exec(source)?.[1]?.replaceAll("'\\''", "'");
  return { method: /-X (\w+)/.exec(source)?.[1] ?? 'GET', url: `/api/v1${url}`, headers, ...(body !== undefined ? { body } : {}) };
}

/** The register's document service and GISA are not there in tests: their downloads answer 503 as documented. */
const UPSTREAM_DOWNLOADS = new Set(['downloadDocument', 'getTradeExtract']);

describe('the curl examples of the OpenAPI document', () => {
  it('each reaches its operation and is accepted as written', async () => {
    const doc = (await json(await http.get('/api/v1/openapi.json'))) as Doc;
    const answers: string[] = [];
    let ran = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const request = parseCurl(op['x-codeSamples'][0]!.source);
        expect(request.method, op.operationId).toBe(method.toUpperCase());
        const res = await http.request(request.url, { method: request.method, headers: request.headers, body: request.body });
        await res.arrayBuffer();
        ran++;
        const ok = [200, 204, 404].includes(res.status) || (res.status === 503 && UPSTREAM_DOWNLOADS.has(op.operationId));
        // A route miss is a 404 too, but before the access chain: a billed answer proves the operation was reached.
        const billed = res.headers.get('x-quota-remaining') !== null;
        if (!ok || billed !== (op.security?.length !== 0)) answers.push(`${op.operationId} ${method.toUpperCase()} ${path}: ${res.status}, billed ${billed}`);
      }
    }
    expect(ran).toBeGreaterThan(40);
    expect(answers).toEqual([]);
  });

  it('find the seeded company where they name it', async () => {
    const doc = (await json(await http.get('/api/v1/openapi.json'))) as Doc;
    const request = parseCurl(doc.paths['/businesses/{fnr}']!.get!['x-codeSamples'][0]!.source);
    const res = await http.request(request.url, { headers: request.headers });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ fnr: '30435h', name: 'Müller Bau GmbH', latestKeyFigures: { personalaufwand: -2931406.12 } });
  });
});

/** A small program against the generated types: what a client author writes first. */
const CLIENT = `
import type { components, operations, paths } from './api.js';

type Json<O> = O extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : never;
type Profile = Json<paths['/businesses/{fnr}']['get']>;
type SearchPage = Json<operations['searchCompanies']>;
type KeyFigure = Json<operations['listKeyFigures']>['data'][number];

export const bigStaffCosts: NonNullable<operations['searchCompanies']['parameters']['query']> = {
  legalFormCode: 'GES', 'guv.Personalaufwand_lte': '-1000000', orderBy: 'guv.Personalaufwand', orderByDescending: 'false', pageSize: 100,
};
export const profilePath: operations['getCompanyProfile']['parameters']['path'] = { fnr: '30435h' };

export function describeProfile(p: Profile): string {
  const staff: number | null | undefined = p.latestKeyFigures?.personalaufwand;
  return p.fnr + ' ' + p.name + ' ' + (p.legalForm?.code ?? '-') + ' ' + String(staff);
}
export function fnrsOf(page: SearchPage): string[] {
  return page.data.map((row) => row.fnr).concat(String(page.totalRecords));
}
export function expenses(figures: KeyFigure[]): string[] {
  return figures.filter((f) => f.sign === 'negative').map((f) => f.filterExample);
}
export const problem: components['schemas']['ProblemDetails'] = { title: 'Bad Request', status: 400, detail: 'x', instance: '/api/v1/x', traceId: 't' };
`;

/** The same types used wrongly: each line must be an error, or the check above proves nothing. */
const WRONG = `
import type { operations, paths } from './api.js';
type Profile = paths['/businesses/{fnr}']['get']['responses'][200]['content']['application/json'];
export const a: Profile['fnr'] = 42;
export const b: NonNullable<operations['searchCompanies']['parameters']['query']> = { orderBy: 'guv.Nothing' };
export const c: operations['listKeyFigures']['responses'][200]['content']['application/json']['data'][number]['sign'] = 'minus';
`;

function typeErrors(dir: string, file: string): string[] {
  const program = ts.createProgram([join(dir, file)], {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts'], types: [], skipLibCheck: false,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('a client generated from the served document', () => {
  it('type-checks with tsc, and wrong uses of it do not', async () => {
    const document = await json(await http.get('/api/v1/openapi.json'));
    const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    try {
      writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(document)));
      writeFileSync(join(dir, 'client.ts'), CLIENT);
      writeFileSync(join(dir, 'wrong.ts'), WRONG);
      expect(typeErrors(dir, 'client.ts')).toEqual([]);
      const wrong = typeErrors(dir, 'wrong.ts');
      expect(wrong.every((e) => e.includes('wrong.ts')), wrong.join('\n')).toBe(true);
      expect(wrong).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // two tsc programs: 5-10 s on a quiet box, 40 s seen under load
});
