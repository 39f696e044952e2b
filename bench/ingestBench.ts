// npm run bench:ingest [-- --companies N --json]
// Generates N synthetic companies with one typical filing each in the upstream formats, serves them
// through the fake upstream and replays them through the real pipeline into a fresh Postgres
// database. Prints companies/s and filings/s end to end, the annual-account parser alone (filings/s
// and MB/s on one core), PDF text extraction (ten-page documents/s) and the peak RSS of this process
// (which runs the workers). With --json the figures are one JSON object on the last line.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { extractPdfText } from '../pipeline/documents/pdfText.js';
import { parseAnnualAccount } from '../pipeline/firmenbuch/annualAccountParser.js';
import { simplePdf, writeSyntheticCorpus } from '../pipeline/firmenbuch/syntheticCorpus.js';
import { replay } from '../pipeline/replay/replay.js';
import { loadConfig } from '../runtime/config.js';
import { createSql, withDatabase } from '../runtime/db.js';
import { createLogger } from '../runtime/logger.js';
import { migrate } from '../runtime/migrate.js';
import { ensureDatabase, resolvePostgresServer, resolveRedisUrl } from '../runtime/services.js';
import { dropDatabase } from '../test/helpers/testDatabase.js';

const { values } = parseArgs({ options: { companies: { type: 'string', default: '1000' }, json: { type: 'boolean', default: false } } });
const companies = Number(values.companies);
const log = createLogger('warn', { stderr: true });
const say = (line: string) => process.stderr.write(`${line}\n`);

async function parserBench(xmls: string[]) {
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

async function pdfBench() {
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
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('../pipeline/firmenbuch/fakeUpstreamCli.ts', import.meta.url).pathname, '--fixtures', dir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(http:\/\/\S+)$/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`fake upstream exited with ${code}`)));
  });
  return { url, child };
}

async function main() {
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

    await dropDatabase(server.url, database);
    await ensureDatabase(server.url, database);
    const sql = createSql(withDatabase(server.url, database), { max: 10 });
    await migrate(sql);
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 100);
    say('end to end through the fake upstream, BullMQ and Postgres ...');
    const fake = await startFakeProcess(dir);
    const summary = await replay({ sql, redisUrl, log, fixturesDir: dir, upstreamUrl: fake.url, prefix: 'bench-ingest', concurrency: 16 });
    fake.child.kill();
    clearInterval(sampler);
    await sql.end();
    const seconds = summary.durationMs / 1000;
    const result = {
      companies,
      durationSeconds: Number(seconds.toFixed(1)),
      companiesPerSecond: Math.round(summary.companies / seconds),
      filingsPerSecond: Math.round(summary.filings / seconds),
      failures: summary.failures,
      ...parser,
      ...pdf,
      peakRssMB: Math.round(peakRss / 1024 / 1024),
    };
    console.log(`end to end: ${result.companiesPerSecond} companies/s, ${result.filingsPerSecond} filings/s (${companies} companies in ${result.durationSeconds} s, ${result.failures} failures)`);
    console.log(`parser alone: ${result.parserFilingsPerSecond} filings/s, ${result.parserMBPerSecond} MB/s (average filing ${result.averageFilingKB} KB, one core)`);
    console.log(`PDF text: ${result.pdfTenPageDocsPerSecond} ten-page documents/s`);
    console.log(`peak RSS of the worker process: ${result.peakRssMB} MB`);
    if (values.json) console.log(JSON.stringify(result));
  } finally {
    await rm(dir, { recursive: true, force: true });
    await dropDatabase(server.url, database);
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
