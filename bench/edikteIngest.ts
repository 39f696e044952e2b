// The Ediktsdatei phase of `npm run bench:ingest`: a first full page-through of E synthetic edicts
// (default 90,000) through the fake IWG interface in its own process, into a database holding N
// synthetic companies (default 640,000, bench/syntheticCompanies.ts): every edict fetched, parsed,
// linked to the companies (legal persons) and stored with its change rows by the real pipeline, in a
// worker process of its own. Prints edicts/s end to end, the links by evidence and how many of the
// edicts that name a company by FN or by name and address were linked to it, and the CPU per edict.
// The company load is kept between runs (database companydata_bench_edikte, same N and seed).
// Run alone: npx tsx bench/edikteIngest.ts [--edicts E --companies N --json].
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Sql } from '../runtime/db.js';
import { createSql, withDatabase } from '../runtime/db.js';
import { createLogger } from '../runtime/logger.js';
import { dropDatabase, ensureDatabase } from '../runtime/services.js';
import { syntheticCompany, type Catalogue } from './syntheticCompanies.js';
import { startUrlChild } from './urlChild.js';

const DATABASE = 'companydata_bench_edikte';
const COMPANY_SEED = 1;
const EDICT_SEED = 19;
const say = (line: string) => process.stderr.write(`${line}\n`);

export interface EdiktePhaseOptions {
  serverUrl: string;
  redisUrl: string;
  edicts: number;
  companies: number;
}

export interface EdiktePhaseResult {
  edicts: number;
  companies: number;
  durationSeconds: number;
  edictsPerSecond: number;
  notices: number;
  changeRows: number;
  failures: number;
  linksByEvidence: Record<string, number>;
  /** Of the edicts that name a company by FN or by name and address, the share linked to it. */
  linkedOfNamed: number;
  /** Asserted links to another company than the one the edict is about. */
  wrongLinks: number;
  workerCpuMsPerEdict: number;
  postgresCpuMsPerEdict: number;
  fakeUpstreamCpuMsPerEdict: number;
  companyLoadSeconds: number | null;
}

/** CPU time (user + system) a process has used so far, in ms; 0 when it cannot be read. */
function procCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

async function readCatalogue(sql: Sql): Promise<Catalogue> {
  const oenace = await sql<{ code: string }[]>`SELECT code FROM oenace_class WHERE version = '2008' AND level = 5 ORDER BY code`;
  const localities = await sql<{ zipCode: string; place: string; municipalityCode: string | null }[]>`SELECT zip_code, place, municipality_code FROM postal_locality ORDER BY id`;
  const courts = await sql<{ code: string }[]>`SELECT code FROM court ORDER BY code`;
  return { oenaceCodes: oenace.map((r) => r.code), localities: [...localities], courts: courts.map((r) => r.code) };
}

/** The companies (rows the linker reads: company, its names and addresses), in bulk; kept for the next run. */
async function prepareCompanies(serverUrl: string, n: number): Promise<{ databaseUrl: string; catalogue: Catalogue; loadSeconds: number | null }> {
  const databaseUrl = withDatabase(serverUrl, DATABASE);
  await ensureDatabase(serverUrl, DATABASE);
  let sql = createSql(databaseUrl, { max: 4 });
  const { migrate } = await import('../runtime/migrate.js');
  const { loadCatalogues } = await import('../pipeline/catalogues/catalogueLoader.js');
  const [meta] = await sql<{ companies: number }[]>`SELECT companies FROM bench_edikte_meta WHERE seed = ${COMPANY_SEED}`.catch(() => []);
  if (meta?.companies === n) {
    await migrate(sql);
    const catalogue = await readCatalogue(sql);
    // A fresh crawl every run: the notices, their changes and the crawl state of the last one go.
    await sql`TRUNCATE court_notice, crawl_state`;
    await sql`DELETE FROM change_log`;
    await sql.end();
    say(`reusing ${DATABASE}: ${n} companies`);
    return { databaseUrl, catalogue, loadSeconds: null };
  }
  await sql.end();
  await dropDatabase(serverUrl, DATABASE);
  await ensureDatabase(serverUrl, DATABASE);
  sql = createSql(databaseUrl, { max: 4 });
  try {
    await migrate(sql);
    await loadCatalogues(sql);
    const catalogue = await readCatalogue(sql);
    say(`loading ${n} synthetic companies ...`);
    const started = performance.now();
    const BATCH = 2000;
    let next = 0;
    let loaded = 0;
    await Promise.all(Array.from({ length: 3 }, async () => {
      for (let from = next; from < n; from = next) {
        next = Math.min(n, from + BATCH);
        const cs = Array.from({ length: next - from }, (_, k) => syntheticCompany(from + k, catalogue, COMPANY_SEED).extract);
        await sql.begin(async (tx) => {
          await tx`INSERT INTO company ${tx(cs.map((e) => ({
            fnr: e.fnr, name: e.name!, legal_form_code: e.legalForm?.code ?? null, court_code: e.court?.code ?? null, status: e.status, seat: e.seat,
          })))}`;
          await tx`INSERT INTO company_name ${tx(cs.map((e) => ({ fnr: e.fnr, vnr: '001', name: e.name!, is_current: true })))}`;
          await tx`INSERT INTO company_address ${tx(cs.map((e) => {
            const a = e.addresses[0]!;
            return { fnr: e.fnr, vnr: '001', position: 0, is_current: true, street: a.street, house_number: a.houseNumber, zip_code: a.zipCode, city: a.city, country: 'AUT' };
          }))}`;
        });
        const before = loaded;
        loaded += cs.length;
        if (Math.floor(loaded / 100_000) !== Math.floor(before / 100_000)) say(`  ${Math.floor(loaded / 100_000) * 100_000} companies`);
      }
    }));
    await sql`VACUUM ANALYZE company`;
    await sql`VACUUM ANALYZE company_address`;
    await sql`CREATE TABLE bench_edikte_meta (companies int NOT NULL, seed int NOT NULL)`;
    await sql`INSERT INTO bench_edikte_meta VALUES (${n}, ${COMPANY_SEED})`;
    const loadSeconds = (performance.now() - started) / 1000;
    say(`loaded ${n} companies in ${loadSeconds.toFixed(1)} s`);
    return { databaseUrl, catalogue, loadSeconds };
  } finally {
    await sql.end();
  }
}

/** Writes the edicts as the fake serves them (documents.ndjson); returns what each is about. */
async function writeEdicts(dir: string, e: number, n: number, catalogue: Catalogue): Promise<Array<{ kind: string; fnr: string | null }>> {
  const { syntheticEdict } = await import('../pipeline/edikte/fake/syntheticEdikte.js');
  const { dominoJson, iwgDocument } = await import('../pipeline/edikte/fake/iwgDocuments.js');
  const companyAt = (i: number) => {
    const c = syntheticCompany((i * 7919) % n, catalogue, COMPANY_SEED).extract;
    const a = c.addresses[0]!;
    return { fnr: c.fnr, name: c.name!, street: [a.street, a.houseNumber].filter(Boolean).join(' '), zipCode: a.zipCode, city: a.city };
  };
  const labels: Array<{ kind: string; fnr: string | null }> = [];
  const lines: string[] = [];
  for (let i = 0; i < e; i++) {
    const edict = syntheticEdict(i, { seed: EDICT_SEED, from: '2026-01-05', days: 300, companyAt });
    lines.push(dominoJson(iwgDocument(edict.spec)));
    labels.push({ kind: edict.kind, fnr: edict.fnr });
  }
  await mkdir(join(dir, 'edikte'), { recursive: true });
  await writeFile(join(dir, 'edikte', 'documents.ndjson'), `${lines.join('\n')}\n`);
  return labels;
}

function startFake(dir: string): Promise<{ url: string; child: ChildProcess }> {
  return startUrlChild(['--import', 'tsx', new URL('../pipeline/edikte/fake/fakeIwgCli.ts', import.meta.url).pathname, '--fixtures', join(dir, 'edikte'), '--port', '0'], 'fake IWG');
}

interface ChildOptions { databaseUrl: string; redisUrl: string; url: string; dir: string }

/** The worker process: the replay of the edikte register (a first full page-through) against the fake. */
async function workerChild(): Promise<void> {
  const opts = JSON.parse(process.env.BENCH_EDIKTE_OPTIONS ?? '') as ChildOptions;
  const { replay } = await import('../pipeline/replay/replay.js');
  const { edikte } = await import('../pipeline/edikte/index.js');
  const sql = createSql(opts.databaseUrl, { max: 10, applicationName: 'edikte-bench-worker' });
  try {
    const summary = await replay({
      sql, redisUrl: opts.redisUrl, log: createLogger('warn', { stderr: true }), registers: [edikte], fixturesDir: opts.dir,
      upstreams: { edikte: { baseUrl: opts.url, ratePerSecond: 10_000, timeoutMs: 30_000 } }, prefix: 'bench-edikte',
      concurrency: Number(process.env.BENCH_CONCURRENCY ?? 32),
    });
    const usage = process.cpuUsage();
    const backends = await sql<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE application_name = 'edikte-bench-worker'`;
    process.stdout.write(`${JSON.stringify({
      durationMs: summary.durationMs, changes: summary.changes, failures: summary.failures, failed: summary.failed.slice(0, 5),
      workerCpuMs: (usage.user + usage.system) / 1000, postgresCpuMs: backends.reduce((s, b) => s + procCpuMs(b.pid), 0),
    })}\n`);
  } finally {
    await sql.end();
  }
}

export async function runEdiktePhase(options: EdiktePhaseOptions): Promise<EdiktePhaseResult> {
  const { databaseUrl, catalogue, loadSeconds } = await prepareCompanies(options.serverUrl, options.companies);
  const dir = await mkdtemp(join(tmpdir(), 'edikte-bench-'));
  try {
    say(`writing ${options.edicts} synthetic edicts ...`);
    const labels = await writeEdicts(dir, options.edicts, options.companies, catalogue);
    const fake = await startFake(dir);
    let report: { durationMs: number; changes: number; failures: number; failed: unknown[]; workerCpuMs: number; postgresCpuMs: number };
    let fakeCpuMs = 0;
    try {
      say('first full page-through through the fake IWG interface, BullMQ and Postgres (worker in its own process) ...');
      const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--worker-child'], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, BENCH_EDIKTE_OPTIONS: JSON.stringify({ databaseUrl, redisUrl: options.redisUrl, url: fake.url, dir } satisfies ChildOptions) },
      });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) throw new Error(`edikte worker exited with ${code}: ${out.slice(-2000)}`);
      report = JSON.parse(last) as typeof report;
      fakeCpuMs = fake.child.pid ? procCpuMs(fake.child.pid) : 0;
    } finally {
      const exited = new Promise((resolve) => fake.child.once('exit', resolve));
      fake.child.kill();
      await exited;
    }
    const sql = createSql(databaseUrl, { max: 1 });
    try {
      const rows = await sql<{ ediktId: string; unid: string; fnr: string | null; evidence: string | null }[]>`
        SELECT edikt_id, unid, fnr, link_evidence AS evidence FROM court_notice`;
      const byEvidence: Record<string, number> = {};
      for (const r of rows) if (r.evidence) byEvidence[r.evidence] = (byEvidence[r.evidence] ?? 0) + 1;
      // Edict i's unid is not its index: match by the debtor's linked fnr per kind instead.
      const named = labels.filter((l) => l.kind === 'fn' || l.kind === 'name-address');
      const linkedFnrs = new Map<string, number>();
      for (const r of rows) if (r.fnr) linkedFnrs.set(r.fnr, (linkedFnrs.get(r.fnr) ?? 0) + 1);
      const expected = new Map<string, number>();
      for (const l of named) expected.set(l.fnr!, (expected.get(l.fnr!) ?? 0) + 1);
      let found = 0;
      let wrong = 0;
      for (const [fnr, n] of linkedFnrs) {
        const want = expected.get(fnr) ?? 0;
        found += Math.min(n, want);
        wrong += Math.max(0, n - want);
      }
      const seconds = report.durationMs / 1000;
      const perEdict = (ms: number) => Number((ms / Math.max(1, rows.length)).toFixed(3));
      return {
        edicts: options.edicts, companies: options.companies, durationSeconds: Number(seconds.toFixed(1)), edictsPerSecond: Math.round(rows.length / seconds),
        notices: rows.length, changeRows: report.changes, failures: report.failures, linksByEvidence: byEvidence,
        linkedOfNamed: Number((found / Math.max(1, named.length)).toFixed(4)), wrongLinks: wrong,
        workerCpuMsPerEdict: perEdict(report.workerCpuMs), postgresCpuMsPerEdict: perEdict(report.postgresCpuMs), fakeUpstreamCpuMsPerEdict: perEdict(fakeCpuMs),
        companyLoadSeconds: loadSeconds === null ? null : Number(loadSeconds.toFixed(1)),
      };
    } finally {
      await sql.end();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function printEdiktePhase(r: EdiktePhaseResult): void {
  console.log(`Ediktsdatei: ${r.edictsPerSecond} edicts/s end to end (${r.notices} of ${r.edicts} edicts in ${r.durationSeconds} s: fetch, parse, link against ${r.companies} companies, store with ${r.changeRows} change rows; ${r.failures} failures)`);
  console.log(`Ediktsdatei links: ${Object.entries(r.linksByEvidence).map(([k, v]) => `${k} ${v}`).join(', ')}; ${(r.linkedOfNamed * 100).toFixed(1)} % of the edicts naming a company by FN or name + address linked to it, ${r.wrongLinks} to another`);
  console.log(`Ediktsdatei CPU per edict: worker ${r.workerCpuMsPerEdict} ms, its Postgres backends ${r.postgresCpuMsPerEdict} ms, fake upstream ${r.fakeUpstreamCpuMsPerEdict} ms`);
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      edicts: { type: 'string', default: '90000' }, companies: { type: 'string', default: '640000' }, json: { type: 'boolean', default: false },
      'worker-child': { type: 'boolean', default: false },
    },
  });
  const main = async () => {
    if (values['worker-child']) return workerChild();
    const { loadConfig } = await import('../runtime/config.js');
    const { resolvePostgresServer, resolveRedisUrl } = await import('../runtime/services.js');
    const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
    const log = createLogger('warn', { stderr: true });
    const server = await resolvePostgresServer(config, log);
    try {
      const result = await runEdiktePhase({ serverUrl: server.url, redisUrl: await resolveRedisUrl(config, log), edicts: Number(values.edicts), companies: Number(values.companies) });
      printEdiktePhase(result);
      if (values.json) console.log(JSON.stringify(result));
    } finally {
      await server.stop();
    }
  };
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
