// npm run bench:oenace [-- --companies N --classifier-only --skip-classifier --json]
//
// The ÖNACE derivation at scale. Business purposes are the evaluation set's texts (fixtures/oenace/)
// varied by a seeded generator so no two companies share one: joined in pairs, wrapped in articles-of-
// association boilerplate, given a place name or a typo; a third of the companies hold one or two trade
// licences. Prints
//   - the classifier alone (companies/s on one core after a warm-up, by wall time and by CPU time), and
//   - the re-derivation `npm run reparse` runs (pipeline/oenace/rederive.ts) over N companies (default
//     640,000) in a database of its own (companydata_bench_oenace): first from scratch (every company's
//     rows and change written), then again with nothing to change; each with companies/s and seconds.
// The database runs with synchronous_commit=off (bench only): the figures are the code path's, not fsync's;
// it is dropped afterwards unless OENACE_BENCH_KEEP=1.
// With --json the figures are one JSON object on the last stdout line; progress goes to stderr.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { OenaceClassifier, type OenaceInput } from '../pipeline/oenace/classify.js';
import { rederiveAllOenaces } from '../pipeline/oenace/rederive.js';
import { loadTradeKeyMap } from '../pipeline/oenace/tradeKeys.js';
import { commandLine } from '../runtime/cli/args.js';
import { loadConfig } from '../runtime/config.js';
import { createSql, withDatabase } from '../runtime/db.js';
import { createLogger } from '../runtime/logger.js';
import { migrate } from '../runtime/migrate.js';
import { dropDatabase, ensureDatabase, resolvePostgresServer } from '../runtime/services.js';
import { fnrCheckLetter } from '../schemas/identifiers.js';

const BENCH_DATABASE = 'companydata_bench_oenace';
const { values } = commandLine({
  usage: 'usage: npm run bench:oenace -- [--companies N] [--classifier-only] [--skip-classifier] [--json]\n'
    + '  The ÖNACE classifier alone (companies/s by wall and CPU time) and the re-derivation over N companies (default 640,000).',
  options: {
    companies: { type: 'string', default: '640000' },
    'classifier-only': { type: 'boolean', default: false },
    'skip-classifier': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const companies = Number(values.companies);
const say = (line: string) => process.stderr.write(`${line}\n`);
const round = (n: number, digits = 0) => Number(n.toFixed(digits));

/** mulberry32: a small seeded PRNG, so every run classifies the same texts. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLACES = ['Wien', 'Graz', 'Linz', 'Salzburg', 'Innsbruck', 'Klagenfurt', 'Villach', 'Wels', 'St. Pölten', 'Dornbirn', 'Steyr', 'Leoben'];

function typo(text: string, r: () => number): string {
  const words = text.split(' ');
  const i = words.findIndex((w) => w.length > 7);
  if (i < 0) return text;
  const w = words[i]!;
  const at = 2 + Math.floor(r() * (w.length - 4));
  words[i] = w.slice(0, at) + w.slice(at + 1); // one letter dropped
  return words.join(' ');
}

/** N company inputs from the evaluation texts, each varied. */
function corpus(n: number): OenaceInput[] {
  const texts = (parse(readFileSync(new URL('../fixtures/oenace/business_purposes.csv', import.meta.url), 'utf8'), { columns: true }) as Array<{ text: string }>)
    .map((r) => r.text);
  const keys = [...loadTradeKeyMap().keys(), '999001', '999002'];
  const r = prng(20);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const out: OenaceInput[] = [];
  for (let i = 0; i < n; i++) {
    const k = r();
    let text: string | null = pick(texts);
    if (k < 0.05) text = null;
    else if (k < 0.25) text = `${text}, ${pick(['sowie', 'und', ''])} ${pick(texts)}`.replace(/ {2}/g, ' ');
    else if (k < 0.35) text = `Gegenstand des Unternehmens ist ${text}. Die Gesellschaft ist zu allen Geschäften und Maßnahmen berechtigt, die dem Gesellschaftszweck dienlich sind.`;
    else if (k < 0.45) text = typo(text, r);
    // A place name (and a number) makes every text unique, as register texts are.
    if (text !== null) text = `${text} in ${pick(PLACES)} ${i % 97}`;
    const tradeKeys = r() < 0.33 ? [...new Set([pick(keys), ...(r() < 0.3 ? [pick(keys)] : [])])] : [];
    out.push({ purposeText: text, tradeKeys });
  }
  return out;
}

/** Companies per second of wall time, and per second of this process's CPU time (on a busy machine they differ). */
function classifierRate(inputs: OenaceInput[]) {
  const classifier = new OenaceClassifier();
  for (const input of inputs.slice(0, 2000)) classifier.classify(input); // warm-up
  let assignments = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (const input of inputs) assignments += classifier.classify(input).length;
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  return {
    companiesPerSecond: Math.round(inputs.length / seconds), companiesPerCpuSecond: Math.round(inputs.length / cpuSeconds),
    seconds: round(seconds, 1), cpuSeconds: round(cpuSeconds, 1), assignments,
  };
}

async function loadDatabase(url: string, inputs: OenaceInput[]): Promise<void> {
  const sql = createSql(url, { max: 1, applicationName: 'oenace-bench-load' });
  try {
    await migrate(sql);
    const chunk = 20_000;
    let licence = 100_000_000;
    for (let i = 0; i < inputs.length; i += chunk) {
      const part = inputs.slice(i, i + chunk).map((input, j) => ({ ...input, fnr: `${i + j + 1}${fnrCheckLetter(i + j + 1)}` }));
      await sql`
        INSERT INTO company (fnr, name, business_purpose)
        SELECT fnr, 'Bench ' || fnr, purpose FROM unnest(${part.map((p) => p.fnr)}::text[], ${part.map((p) => p.purposeText)}::text[]) AS u (fnr, purpose)`;
      const licences = part.flatMap((p) => p.tradeKeys.map((key) => ({ zahl: String(licence++), fnr: p.fnr, key })));
      if (licences.length > 0) {
        await sql`
          INSERT INTO trade_license (gisa_zahl, fnr, trade_key)
          SELECT * FROM unnest(${licences.map((l) => l.zahl)}::text[], ${licences.map((l) => l.fnr)}::text[], ${licences.map((l) => l.key)}::text[])`;
      }
    }
    await sql`ANALYZE`;
  } finally {
    await sql.end();
  }
}

async function main(): Promise<void> {
  say(`generating ${companies} business purposes ...`);
  const inputs = corpus(companies);
  const result: Record<string, unknown> = { companies };
  if (!values['skip-classifier']) {
    say('classifier alone ...');
    const classifier = classifierRate(inputs);
    say(`classifier: ${classifier.companiesPerSecond} companies/s, ${classifier.companiesPerCpuSecond} per CPU second (${classifier.seconds} s for ${companies})`);
    result.classifier = classifier;
  }

  if (!values['classifier-only']) {
    const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
    const log = createLogger('warn', { stderr: true });
    const server = await resolvePostgresServer(config, log);
    await dropDatabase(server.url, BENCH_DATABASE);
    await ensureDatabase(server.url, BENCH_DATABASE);
    const url = withDatabase(server.url, BENCH_DATABASE);
    const admin = createSql(url, { max: 1 });
    await admin.unsafe(`ALTER DATABASE ${BENCH_DATABASE} SET synchronous_commit = off`);
    await admin.end();
    say(`loading ${companies} companies into ${BENCH_DATABASE} ...`);
    await loadDatabase(url, inputs);
    const sql = createSql(url, { max: 4, applicationName: 'oenace-bench' });
    try {
      for (const run of ['first', 'again'] as const) {
        say(`re-deriving every company (${run}) ...`);
        const s = await rederiveAllOenaces(sql, log);
        const rate = Math.round(s.companies / s.seconds);
        say(`re-derivation ${run}: ${s.companies} companies, ${s.changed} changed, ${round(s.seconds, 1)} s, ${rate} companies/s`);
        result[`rederive_${run}`] = { companies: s.companies, changed: s.changed, seconds: round(s.seconds, 1), companiesPerSecond: rate };
      }
    } finally {
      await sql.end();
      if (!process.env.OENACE_BENCH_KEEP) await dropDatabase(server.url, BENCH_DATABASE);
    }
  }
  if (values.json) console.log(JSON.stringify(result));
  else console.log(result);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
