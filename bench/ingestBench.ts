// npm run bench:ingest [-- --companies N --edicts E --edikte-companies M --large-documents MB --json]
// --large-documents MB pads every filing so its URKUNDE answer is about MB megabytes (the document is
// 3/4 of it: base64), with an XML comment the parser skips: the pipeline's peak RSS with large answers
// (issue 22 finding 6: 32 companies, MB 60, BENCH_WORKERS=1 gives 32 concurrent 60 MB answers).
// Then the Ediktsdatei phase (bench/edikteIngest.ts): a first page-through of E synthetic edicts
// (default 90,000; 0 skips it) against M companies (default 640,000).
// Generates N synthetic companies with one typical filing each in the upstream formats, serves them
// through the fake upstream and replays them through the real pipeline into a fresh Postgres
// database. Prints companies/s and filings/s end to end, the annual-account parser alone (filings/s
// and MB/s on one core), PDF text extraction (ten-page documents/s) and the peak RSS of the worker
// process. With --json the figures are one JSON object on the last line.
//
// Processes as in production: this one (corpus, micro-benchmarks, database setup), the fake register,
// and the pipeline worker (`--worker-child`: the replay, i.e. startPipeline plus the change-feed
// windows), whose peak RSS (VmHWM) is the reported figure. BENCH_WORKERS=N (default 2) adds N - 1
// worker processes on the same queues (`--helper-child`), as a deployment would run two pipeline
// processes on two cores: their CPU counts with the worker's, their peak RSS is printed beside it.
// BENCH_CONCURRENCY sets each worker's job concurrency (default 32). BENCH_CPU_PROF=<dir> writes a
// CPU profile of the worker child there (and one of the fake upstream under <dir>/fake-upstream).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replay } from '../pipeline/replay/replay.js';
import { firmenbuch } from '../pipeline/firmenbuch/index.js';
import { commandLine } from '../runtime/cli/args.js';
import { loadConfig } from '../runtime/config.js';
import { createSql, withDatabase } from '../runtime/db.js';
import { createLogger } from '../runtime/logger.js';
import { dropDatabase, ensureDatabase, resolvePostgresServer, resolveRedisUrl } from '../runtime/services.js';
import { startUrlChild } from './urlChild.js';

const { values } = commandLine({
  usage: 'usage: npm run bench:ingest -- [--companies N] [--edicts N] [--edikte-companies N] [--large-documents MB] [--json]\n' +
    '  Replays N synthetic companies (default 1000) through the fake Firmenbuch and the real pipeline, then the Ediktsdatei phase ' +
    '(--edicts, default 90000, 0 skips it) against --edikte-companies stored companies (docs/benchmarks.md).',
  options: {
    companies: { type: 'string', default: '1000' },
    edicts: { type: 'string', default: '90000' },
    'edikte-companies': { type: 'string', default: '640000' },
    json: { type: 'boolean', default: false },
    'large-documents': { type: 'string', default: '0' },
    // Internal: run as the pipeline worker child (options as JSON in BENCH_WORKER_OPTIONS).
    'worker-child': { type: 'boolean', default: false },
    // Internal: run as an extra worker process on the same queues (BENCH_WORKERS > 1), until SIGTERM.
    'helper-child': { type: 'boolean', default: false },
  },
});
const companies = Number(values.companies);
const log = createLogger('warn', { stderr: true });
const say = (line: string) => process.stderr.write(`${line}\n`);

// The micro-benchmarks, corpus writer and database setup are imported dynamically, in this (parent)
// process only: loaded in the worker child they would count towards the worker's RSS.
async function parserBench(xmls: string[]) {
  const { parseAnnualAccount } = await import('../pipeline/firmenbuch/annualAccountParser.js');
  const bytes = xmls.reduce((s, x) => s + Buffer.byteLength(x), 0);
  for (const xml of xmls.slice(0, 50)) parseAnnualAccount(xml); // warm-up
  const rounds = Math.max(1, Math.ceil(2000 / xmls.length));
  const started = performance.now();
  for (let r = 0; r < rounds; r++) for (const xml of xmls) parseAnnualAccount(xml);
  const seconds = (performance.now() - started) / 1000;
  return {
    parserFilingsPerSecond: Math.round((rounds * xmls.length) / seconds),
    parserMBPerSecond: Number(((rounds * bytes) / 1e6 / seconds).toFixed(1)),
    averageFilingKB: Number((bytes / xmls.length / 1024).toFixed(1)),
  };
}

/** Pads each XML filing of the corpus so its URKUNDE answer (base64) is about `answerMB` MB. */
async function padDocuments(docDir: string, answerMB: number): Promise<number> {
  const { writeFile } = await import('node:fs/promises');
  const files = (await readdir(docDir)).filter((f) => f.endsWith('.xml'));
  for (const f of files) {
    const xml = await readFile(join(docDir, f), 'utf8');
    const declarationEnd = xml.indexOf('?>') + 2;
    const pad = Math.max(0, Math.floor((answerMB * 1e6 * 3) / 4) - Buffer.byteLength(xml) - 7);
    await writeFile(join(docDir, f), `${xml.slice(0, declarationEnd)}<!--${'x'.repeat(pad)}-->${xml.slice(declarationEnd)}`);
  }
  return files.length;
}

async function pdfBench() {
  const { extractPdfText } = await import('../pipeline/documents/pdfText.js');
  const { simplePdf } = await import('../pipeline/firmenbuch/fake/synthetic/simplePdf.js');
  const pages = Array.from({ length: 10 }, (_, p) =>
    Array.from({ length: 45 }, (_, l) => `Seite ${p + 1}, Zeile ${l + 1}: Anhang zum Jahresabschluss, Erläuterungen zur Bilanz und GuV.`),
  );
  const pdf = simplePdf(pages, { title: 'Jahresabschluss', created: '2026-01-01' });
  await extractPdfText(pdf);
  const runs = 30;
  const started = performance.now();
  for (let i = 0; i < runs; i++) await extractPdfText(pdf);
  return { pdfTenPageDocsPerSecond: Number((runs / ((performance.now() - started) / 1000)).toFixed(1)) };
}

/** The fake upstream in its own process: in production the register is another machine, and sharing
 * this process's event loop with it would measure the fake, not the pipeline. */
async function startFakeProcess(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const profDir = process.env.BENCH_CPU_PROF;
  return startUrlChild([
    ...(profDir ? ['--cpu-prof', '--cpu-prof-dir', join(profDir, 'fake-upstream')] : []),
    '--import', 'tsx', new URL('../pipeline/firmenbuch/fake/fakeUpstreamCli.ts', import.meta.url).pathname, '--fixtures', dir, '--port', '0',
  ], 'fake upstream');
}

/**
 * Concurrency of the worker's BullMQ worker (BENCH_CONCURRENCY overrides it) and size of its Postgres
 * pool. 32 rather than 16: concurrent jobs share store transactions (group commit), and more jobs in
 * flight give larger batches and less worker and Postgres CPU per company. The pool stays small: each
 * kind of store uses one connection at a time.
 */
const WORKER_CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const WORKER_POOL = 10;

interface WorkerChildOptions {
  databaseUrl: string;
  redisUrl: string;
  fixturesDir: string;
  upstreamUrl: string;
}

/** kB from a `/proc/<pid>/status` line such as `VmHWM:  123456 kB`, or 0. */
function procStatusKb(pid: number | 'self', field: 'VmHWM' | 'VmRSS'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** CPU time (user + system) a process has used so far, in ms; 0 when it cannot be read. */
function procCpuMs(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/** The worker child: runs the replay (startPipeline with the replay's options) and reports on stdout. */
async function workerChild() {
  const opts = JSON.parse(process.env.BENCH_WORKER_OPTIONS ?? '') as WorkerChildOptions;
  const sql = createSql(opts.databaseUrl, { max: WORKER_POOL, applicationName: 'ingest-bench-worker' });
  try {
    const summary = await replay({
      sql, redisUrl: opts.redisUrl, log, fixturesDir: opts.fixturesDir, upstreams: { firmenbuch: { baseUrl: opts.upstreamUrl } },
      prefix: 'bench-ingest', concurrency: WORKER_CONCURRENCY,
    });
    (globalThis as { gc?: () => void }).gc?.(); // with --expose-gc (BENCH_EXPOSE_GC=1): the live heap, not garbage
    const peakRssKb = Math.max(procStatusKb('self', 'VmHWM'), Math.round(process.memoryUsage().rss / 1024));
    const usage = process.cpuUsage();
    // The CPU the worker's Postgres backends used (same machine): the database's share of the budget.
    const backends = await sql<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE application_name = 'ingest-bench-worker'`;
    const postgresCpuMs = backends.reduce((sum, b) => sum + procCpuMs(b.pid), 0);
    process.stdout.write(`${JSON.stringify({
      summary: { ...summary, failed: summary.failed.slice(0, 20) }, peakRssKb, memory: process.memoryUsage(), workerCpuMs: (usage.user + usage.system) / 1000, postgresCpuMs,
    })}\n`);
  } finally {
    await sql.end();
  }
}

/** An extra worker process: the pipeline's BullMQ worker on the replay's queues, nothing else. */
async function helperChild() {
  const opts = JSON.parse(process.env.BENCH_WORKER_OPTIONS ?? '') as WorkerChildOptions;
  const sql = createSql(opts.databaseUrl, { max: WORKER_POOL, applicationName: 'ingest-bench-worker' });
  const { startPipeline } = await import('../pipeline/pipelineWorker.js');
  const pipeline = await startPipeline({
    sql, redisUrl: opts.redisUrl, log, prefix: 'bench-ingest', concurrency: WORKER_CONCURRENCY, backoffDelayMs: 200,
    registers: [firmenbuch], upstreams: { firmenbuch: { baseUrl: opts.upstreamUrl, timeoutMs: 30_000, ratePerSecond: 1000 } },
  });
  process.stdout.write('started\n');
  process.once('SIGTERM', () => {
    void pipeline.close().then(() => sql.end()).then(() => process.exit(0));
  });
}

/** BENCH_WORKERS - 1 extra worker processes; resolves once they listen. */
async function startHelpers(opts: WorkerChildOptions): Promise<ChildProcess[]> {
  const count = Math.max(0, Number(process.env.BENCH_WORKERS ?? 2) - 1);
  return Promise.all(Array.from({ length: count }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--helper-child'], {
      stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_WORKER_OPTIONS: JSON.stringify(opts) },
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => d.toString().includes('started') && resolve());
      child.once('exit', (code) => reject(new Error(`helper worker exited with ${code}`)));
    });
    return child;
  }));
}

async function runWorkerChild(opts: WorkerChildOptions) {
  const profDir = process.env.BENCH_CPU_PROF;
  const child = spawn(process.execPath, [
    ...(profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []),
    ...(process.env.BENCH_EXPOSE_GC ? ['--expose-gc'] : []),
    '--import', 'tsx', new URL(import.meta.url).pathname, '--worker-child',
  ], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_WORKER_OPTIONS: JSON.stringify(opts) } });
  // VmHWM is read at the end by the child itself; VmRSS sampled from here is the fallback.
  let sampledKb = 0;
  const sampler = setInterval(() => {
    if (child.pid) sampledKb = Math.max(sampledKb, procStatusKb(child.pid, 'VmRSS'));
  }, 100);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(sampler);
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{')) throw new Error(`worker child exited with ${code}: ${out.slice(-2000)}`);
  const report = JSON.parse(last) as { summary: Awaited<ReturnType<typeof replay>>; peakRssKb: number; workerCpuMs: number; postgresCpuMs: number };
  const mb = (n: number) => Math.round(n / 1024 / 1024);
  const m = (report as { memory?: NodeJS.MemoryUsage }).memory;
  if (m) say(`worker memory at the end: rss ${mb(m.rss)} MB, heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} MB, external ${mb(m.external)} MB, array buffers ${mb(m.arrayBuffers)} MB`);
  return { ...report, peakRssBytes: Math.max(report.peakRssKb, sampledKb) * 1024 };
}

async function main() {
  const { writeSyntheticCorpus } = await import('../pipeline/firmenbuch/fake/syntheticCorpus.js');
  const { migrate } = await import('../runtime/migrate.js');
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const server = await resolvePostgresServer(config, log);
  const redisUrl = await resolveRedisUrl(config, log);
  const dir = await mkdtemp(join(tmpdir(), 'ingest-bench-'));
  const database = 'companydata_bench_ingest';
  try {
    say(`generating ${companies} synthetic companies with one filing each ...`);
    await writeSyntheticCorpus(dir, { companies, seed: 42 });
    const docDir = join(dir, 'firmenbuch/dokumente');
    const xmls = await Promise.all((await readdir(docDir)).filter((f) => f.endsWith('.xml')).slice(0, 500).map((f) => readFile(join(docDir, f), 'utf8')));

    say('parser alone ...');
    const parser = await parserBench(xmls);
    say('PDF text ...');
    const pdf = await pdfBench();
    const largeMB = Number(values['large-documents']);
    if (largeMB > 0) say(`padded ${await padDocuments(docDir, largeMB)} filings to answers of about ${largeMB} MB`);

    await dropDatabase(server.url, database);
    await ensureDatabase(server.url, database);
    const databaseUrl = withDatabase(server.url, database);
    const sql = createSql(databaseUrl, { max: 1 });
    await migrate(sql);
    await sql.end();
    say('end to end through the fake upstream, BullMQ and Postgres (worker in its own process) ...');
    const fake = await startFakeProcess(dir);
    let worker;
    let fakeCpuMs = 0;
    let helperCpuMs = 0;
    let helperPeakKb = 0;
    try {
      const opts = { databaseUrl, redisUrl, fixturesDir: dir, upstreamUrl: fake.url };
      const helpers = await startHelpers(opts);
      try {
        worker = await runWorkerChild(opts);
      } finally {
        for (const h of helpers) {
          // The extra workers' CPU and peak RSS count with the worker's (their Postgres backends share its application name).
          if (h.pid) {
            helperCpuMs += procCpuMs(h.pid);
            helperPeakKb = Math.max(helperPeakKb, procStatusKb(h.pid, 'VmHWM'));
          }
          const exited = new Promise((resolve) => h.once('exit', resolve));
          h.kill();
          await exited;
        }
      }
      fakeCpuMs = fake.child.pid ? procCpuMs(fake.child.pid) : 0;
    } finally {
      // SIGTERM: the fake closes and exits, which also writes its CPU profile when one was asked for.
      const exited = new Promise((resolve) => fake.child.once('exit', resolve));
      fake.child.kill();
      await exited;
    }
    const { summary, peakRssBytes: peakRss } = worker;
    // CPU per company: the box is shared, so wall-clock rates move with its load; CPU per company does not.
    const perCompany = (ms: number) => Number((ms / Math.max(1, summary.companies)).toFixed(2));
    if (summary.failed.length > 0) say(`failed jobs (first ${summary.failed.length}): ${JSON.stringify(summary.failed.slice(0, 5))}`);
    const seconds = summary.durationMs / 1000;
    const result = {
      companies,
      ...(largeMB > 0 ? {
        largeDocumentAnswerMB: largeMB, filingsStored: summary.filings,
        jobsRetried: Object.values(summary.sources).reduce((n, s) => n + (s.jobsRetried ?? 0), 0),
      } : {}),
      durationSeconds: Number(seconds.toFixed(1)),
      companiesPerSecond: Math.round(summary.companies / seconds),
      filingsPerSecond: Math.round(summary.filings / seconds),
      failures: summary.failures,
      ...parser,
      ...pdf,
      peakRssMB: Math.round(peakRss / 1024 / 1024),
      workers: 1 + Math.max(0, Number(process.env.BENCH_WORKERS ?? 2) - 1),
      helperPeakRssMB: Math.round(helperPeakKb / 1024),
      workerCpuMsPerCompany: perCompany(worker.workerCpuMs + helperCpuMs),
      postgresCpuMsPerCompany: perCompany(worker.postgresCpuMs),
      fakeUpstreamCpuMsPerCompany: perCompany(fakeCpuMs),
      loadAverage: Number(loadavg()[0]!.toFixed(1)),
    };
    console.log(`end to end: ${result.companiesPerSecond} companies/s, ${result.filingsPerSecond} filings/s (${companies} companies in ${result.durationSeconds} s, ${result.failures} failures)`);
    console.log(`parser alone: ${result.parserFilingsPerSecond} filings/s, ${result.parserMBPerSecond} MB/s (average filing ${result.averageFilingKB} KB, one core)`);
    console.log(`PDF text: ${result.pdfTenPageDocsPerSecond} ten-page documents/s`);
    if (largeMB > 0) console.log(`large documents: answers of about ${largeMB} MB, ${result.filingsStored} filings stored, ${result.jobsRetried} job retries, concurrency ${WORKER_CONCURRENCY}`);
    console.log(`peak RSS of the worker process: ${result.peakRssMB} MB${result.workers > 1 ? ` (extra worker processes: ${result.helperPeakRssMB} MB each at most)` : ''}`);
    console.log(`CPU per company: worker ${result.workerCpuMsPerCompany} ms, its Postgres backends ${result.postgresCpuMsPerCompany} ms, fake upstream ${result.fakeUpstreamCpuMsPerCompany} ms (load average ${result.loadAverage})`);
    let edikte;
    if (Number(values.edicts) > 0) {
      const { runEdiktePhase, printEdiktePhase } = await import('./edikteIngest.js');
      edikte = await runEdiktePhase({ serverUrl: server.url, redisUrl, edicts: Number(values.edicts), companies: Number(values['edikte-companies']) });
      printEdiktePhase(edikte);
    }
    if (values.json) console.log(JSON.stringify({ ...result, edikte }));
  } finally {
    await rm(dir, { recursive: true, force: true });
    await dropDatabase(server.url, database);
    await server.stop();
  }
}

(values['worker-child'] ? workerChild() : values['helper-child'] ? helperChild() : main()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
