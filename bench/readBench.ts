// npm run bench:read [-- --companies N --json --reuse --loaders 8 --concurrency 4,1 --scale 1]
//
// The read side at scale: loads N (default 640,000) synthetic companies (bench/syntheticCompanies.ts)
// into a database of its own (companydata_bench_read) through the pipeline's store functions
// (storeCompanyExtract, storeDocumentListings, storeAnnualAccount; ÖNACE rows as the seed helper
// writes them) and ~1.6 trade licences each (bench/syntheticLicences.ts), rebuilds the search read model with rebuildReadModel(), starts the real API in a
// child process with the normal access chain (an `api` plan key; burst limit raised so the bench is
// not refused), and drives it over HTTP with a fixed, seeded mix of requests, once per --concurrency
// value: 4 clients as issue 4 specifies, then a single client (the condition performance-notes §7
// states the targets for, see printPhase). Prints p50/p95/p99 per request class, requests/s, load and
// rebuild times, and the API process's peak RSS (VmHWM / sampled VmRSS of the child).
//
// --reuse keeps an already loaded database when it holds the same N (and generator seed); the read
// model is rebuilt on every run, because its build time is one of the figures, unless --skip-rebuild
// (iterating on the read side: then rebuildSeconds is null). --only typical,page1000 measures just
// those classes (same seeded requests as in the full mix); page1000fields (the same pages with
// `fields=`), page1000gzip and page1000br (compressed) run only when --only names them. The bench database
// runs with synchronous_commit=off (a database-level setting, bench only): the load measures the
// store code paths, not fsync latency.
//
// With --json the figures are one JSON object on the last stdout line; progress goes to stderr.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { createAccount, createApiKey } from '../api/accounts/accountStore.js';
import { connectApiRedis, startApi } from '../api/server.js';
import { READ_MODEL } from '../indexer/companySearchTable.js';
import { rebuildReadModel } from '../indexer/indexer.js';
import { createSearchBackend } from '../indexer/searchRuntime.js';
import { loadCatalogues } from '../pipeline/catalogues/catalogueLoader.js';
import { changedFields, storeCompanyExtract } from '../pipeline/store/companyStore.js';
import { storeAnnualAccount, storeDocumentListings } from '../pipeline/store/documentStore.js';
import { sealChangeBlocks } from '../runtime/changeLog.js';
import { commandLine } from '../runtime/cli/args.js';
import { loadConfig } from '../runtime/config.js';
import { createSql, withDatabase, type Sql } from '../runtime/db.js';
import { createLogger } from '../runtime/logger.js';
import { migrate } from '../runtime/migrate.js';
import { dropDatabase, ensureDatabase, resolvePostgresServer, resolveRedisUrl } from '../runtime/services.js';
import type { CompanyExtract } from '../schemas/firmenbuchRecords.js';
import { KEY_FIGURES, figureColumn, figureParam, type KeyFigureDefinition } from '../schemas/keyFigures.js';
import { benchServerNodeArgs, spawnBenchServer, type BenchServer } from './benchServer.js';
import { KeepAliveConnection } from './keepAliveClient.js';
import { digitsOf, fnrOf, normal, pick, rng, syntheticCompany, type Catalogue, type Rand, type SyntheticCompany } from './syntheticCompanies.js';
import { ensureLicences, popularTradeKey, SYNTHETIC_TRADE_KEYS } from './syntheticLicences.js';

/** BENCH_READ_DATABASE names another, so benches of different sizes on one server do not drop each other's. */
const BENCH_DATABASE = process.env.BENCH_READ_DATABASE ?? 'companydata_bench_read';
/** Node flags of the API child unless BENCH_SERVER_NODE_ARGS says otherwise ('' for none). */
const API_NODE_ARGS = '--max-old-space-size=384 --initial-old-space-size=96';
/** As pipeline/store/companyStore.ts tracks them (the stored extract snapshot). */
const TRACKED_FIELDS = [
  'name', 'formerNames', 'addresses', 'seat', 'municipalityCode', 'municipality', 'legalForm', 'capital',
  'businessPurpose', 'status', 'court', 'euid', 'kur', 'registerEntries', 'functions', 'parties', 'holdings',
] as const satisfies ReadonlyArray<keyof CompanyExtract>;
const GENERATOR_SEED = 1;
const say = (line: string) => process.stderr.write(`${line}\n`);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------------------------------------
// Server mode: the API in its own process, so the load generator does not share its event loop and
// its RSS is the API's alone.

async function serve(args: { db: string; redis: string; prefix: string }): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const log = createLogger('silent');
  const sql = createSql(args.db, { max: config.DATABASE_POOL_SIZE, applicationName: 'read-bench-api' });
  const redis = connectApiRedis(args.redis);
  // The search backend as `npm start` builds it; the screener columns load before READY, as a
  // production API would finish loading before its readiness check passes.
  const search = await createSearchBackend(sql, { elasticsearchUrl: undefined, screenerColumns: config.SCREENER_COLUMNS, log });
  const loadStarted = performance.now();
  await search.ready;
  process.stderr.write(`  API search: ${config.SCREENER_COLUMNS ? `screener columns loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s` : 'SQL only'}\n`);
  const api = await startApi({ sql, log, port: 0, host: '127.0.0.1', search, access: { redis, redisPrefix: args.prefix, burstLimit: 1_000_000_000 } });
  console.log(`READY ${new URL(api.baseUrl).port}`);
  process.once('SIGTERM', () => {
    void api.close().then(async () => {
      redis.disconnect();
      await sql.end({ timeout: 2 });
      process.exit(0);
    });
  });
}

function startServer(db: string, redis: string, prefix: string): Promise<BenchServer> {
  // The API runs as docs/memory.md recommends for the Postgres backend: a capped heap makes V8 collect
  // before it grows, and a floor under its collection limit keeps large Postgres answers from starting
  // a full collection every few MB of them.
  return spawnBenchServer(new URL(import.meta.url).pathname, ['--serve', '--db', db, '--redis', redis, '--prefix', prefix], benchServerNodeArgs(API_NODE_ARGS));
}

/** VmRSS and VmHWM (peak) of a process in MB. */
function rssOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: round(kb('VmRSS') / 1024, 1), hwm: round(kb('VmHWM') / 1024, 1) };
}

// ---------------------------------------------------------------------------------------------
// Database: create, migrate, load.

async function readCatalogue(sql: Sql): Promise<Catalogue> {
  const oenace = await sql<{ code: string }[]>`SELECT code FROM oenace_class WHERE version = '2008' AND level = 5 ORDER BY code`;
  const localities = await sql<{ zipCode: string; place: string; municipalityCode: string | null }[]>`
    SELECT zip_code, place, municipality_code FROM postal_locality ORDER BY id`;
  const courts = await sql<{ code: string }[]>`SELECT code FROM court ORDER BY code`;
  if (oenace.length === 0 || localities.length === 0 || courts.length === 0) throw new Error('catalogues are empty: loadCatalogues failed?');
  return { oenaceCodes: oenace.map((r) => r.code), localities: [...localities], courts: courts.map((r) => r.code) };
}

async function storeOne(sql: Sql, index: number, catalogue: Catalogue): Promise<number> {
  const c = syntheticCompany(index, catalogue, GENERATOR_SEED);
  await storeCompanyExtract(sql, c.extract);
  if (c.oenace.length > 0) {
    // As test/helpers/seedCompanies.ts does it: the ÖNACE rows plus their business change row.
    await sql`
      WITH o AS (
        INSERT INTO company_oenace (fnr, version, code, is_primary, source)
        SELECT ${c.fnr}, '2008', code, ord = 1, 'bench' FROM unnest(${c.oenace}::text[]) WITH ORDINALITY AS u(code, ord))
      INSERT INTO change_log (type, fnr, action, changed_fields) VALUES ('business', ${c.fnr}, 'updated', '{oenaces}')`;
  }
  for (const f of c.filings) {
    await storeDocumentListings(sql, c.fnr, [f.listing]);
    await storeAnnualAccount(sql, { documentKey: f.listing.key, fnr: c.fnr, parsed: f.parsed, rawXml: '<synthetic/>', filedOn: f.listing.filedOn, parserVersion: 1 });
  }
  return c.filings.length;
}

/**
 * The fast path for the rows beyond --store-companies: the same rows the store functions write
 * (company with its extract snapshot, names, address, register entry, ÖNACE rows, documents, annual
 * accounts and the change rows, in the store functions' column shapes), but 1000 companies per
 * transaction with multi-row inserts instead of ~15 round trips per company.
 */
async function bulkStore(sql: Sql, from: number, to: number, catalogue: Catalogue): Promise<number> {
  const cs: SyntheticCompany[] = [];
  for (let i = from; i < to; i++) cs.push(syntheticCompany(i, catalogue, GENERATOR_SEED));
  const now = new Date();
  let filings = 0;
  await sql.begin(async (tx) => {
    const snapshot = (e: CompanyExtract) => Object.fromEntries(TRACKED_FIELDS.map((f) => [f, e[f] ?? null]));
    await tx`INSERT INTO company ${tx(cs.map(({ extract: e }) => ({
      fnr: e.fnr, fnr_check_letter_ok: e.fnrCheckLetterValid, name: e.name ?? e.fnr, legal_form_code: e.legalForm?.code ?? null,
      legal_form_text: e.legalForm?.text ?? null, court_code: e.court?.code ?? null, status: e.status, euid: e.euid, kur: e.kur,
      seat: e.seat, municipality_code: e.municipalityCode, municipality_text: e.municipality, capital_amount: null, capital_currency: null,
      business_purpose: e.businessPurpose, register_checksum: e.checksum, extract_queried_at: e.queriedAt,
      extract: tx.json(snapshot(e) as never), updated_at: now, last_crawled_at: now,
    })))}`;
    // Deduplicated by (vnr, name) as writeChildren does.
    await tx`INSERT INTO company_name ${tx(cs.flatMap(({ extract: e }) => [...new Map([
      { fnr: e.fnr, vnr: '001', name: e.name!, is_current: true },
      ...e.formerNames.map((n) => ({ fnr: e.fnr, vnr: n.vnr ?? '', name: n.name, is_current: false })),
    ].map((n) => [`${n.vnr}|${n.name}`, n])).values()]))}`;
    await tx`INSERT INTO company_address ${tx(cs.flatMap(({ extract: e }) => e.addresses.map((a, i) => ({
      fnr: e.fnr, vnr: a.vnr ?? '', position: i, is_current: a.isCurrent, line: null, street: a.street, house_number: a.houseNumber,
      staircase: a.staircase, door: a.door, delivery_note: a.deliveryNote, zip_code: a.zipCode, city: a.city, country: a.country, deliverable: a.deliverable,
    }))))}`;
    await tx`INSERT INTO register_entry ${tx(cs.flatMap(({ extract: e }) => e.registerEntries.map((r) => ({
      fnr: e.fnr, vnr: r.vnr, executed_on: r.executedOn, court_code: null, court_text: null, az: r.az, application_texts: r.applicationTexts, received_on: r.receivedOn,
    }))))}`;
    const change = (type: string, fnr: string, action: string, fields: string[], extra: { vnr?: string; document_key?: string } = {}) => ({
      type, fnr, action, changed_fields: fields, vnr: extra.vnr ?? null, document_key: extra.document_key ?? null, edikt_id: null, gisa_zahl: null, snapshot: null,
    });
    const changes = cs.map((c) => change('business', c.fnr, 'created', changedFields(null, snapshot(c.extract) as never), { vnr: '001' }));
    const oenace = cs.flatMap((c) => c.oenace.map((code, i) => ({ fnr: c.fnr, version: '2008', code, is_primary: i === 0, source: 'bench' })));
    if (oenace.length > 0) await tx`INSERT INTO company_oenace ${tx(oenace)}`;
    for (const c of cs) if (c.oenace.length > 0) changes.push(change('business', c.fnr, 'updated', ['oenaces']));
    const docs = cs.flatMap((c) => c.filings.map((f) => ({ c, f })));
    filings = docs.length;
    if (docs.length > 0) {
      await tx`INSERT INTO document ${tx(docs.map(({ c, f: { listing: l } }) => ({
        document_key: l.key, fnr: c.fnr, az: l.az, document_type_code: l.documentType?.code ?? null, document_type_text: l.documentType?.text ?? null,
        document_date: l.documentDate, balance_sheet_date: l.balanceSheetDate, size_class: l.sizeClass, vnr: l.vnr, filed_on: l.filedOn,
        content_type: l.contentType, file_extension: l.fileExtension, size_bytes: l.sizeBytes, remark: l.remark,
      })))}`;
      await tx`INSERT INTO annual_account ${tx(docs.map(({ c, f: { listing: l, parsed: p } }) => ({
        document_key: l.key, fnr: c.fnr, document_date: p.documentDate, fiscal_year_start: p.fiscalYearStart, fiscal_year_end: p.fiscalYearEnd,
        currency: p.currency, unit: p.unit, unit_factor: p.unitFactor, size_class: p.sizeClass, format: p.format, pnl_method: p.pnlMethod,
        kind: p.kind, filed_on: l.filedOn, has_positions: p.hasPositions,
        figures: tx.json(Object.fromEntries(Object.entries(p.figures).map(([k, v]) => [k, v === null ? null : Number(v)])) as never),
        warnings: p.warnings, raw_xml: '<synthetic/>', parser_version: 1, parsed_at: now,
      })))}`;
      for (const { c, f } of docs) {
        changes.push(change('document', c.fnr, 'created', [], { document_key: f.listing.key }));
        changes.push(change('business', c.fnr, 'updated', f === c.filings[0] ? ['latestKeyFigures', 'parsedJahresabschluesse'] : ['parsedJahresabschluesse']));
      }
    }
    await tx`INSERT INTO change_log ${tx(changes as never)}`;
  });
  return filings;
}

interface LoadFigures { ms: number; filings: number; storeCompanies: number; storeMs: number; bulkMs: number }

async function loadCompanies(sql: Sql, n: number, storeCount: number, loaders: number, catalogue: Catalogue): Promise<LoadFigures> {
  const started = performance.now();
  let next = 0;
  let done = 0;
  let filings = 0;
  const progress = setInterval(() => {
    const s = (performance.now() - started) / 1000;
    say(`  loaded ${done}/${n} companies (${filings} filings), ${Math.round(s)} s`);
  }, 15_000);
  try {
    // Phase 1: through the store functions, one company per worker at a time.
    const stores = Math.min(n, storeCount);
    await Promise.all(Array.from({ length: loaders }, async () => {
      for (let i = next++; i < stores; i = next++) {
        const k = await storeOne(sql, i, catalogue);
        filings += k;
        done++;
      }
    }));
    const storeMs = performance.now() - started;
    if (stores > 0) say(`  store path: ${stores} companies in ${round(storeMs / 1000, 1)} s = ${Math.round(stores / (storeMs / 1000))} companies/s`);
    // Phase 2: the rest in bulk, two batches in flight (one generates while the other writes).
    const BULK = 1000;
    let batch = stores;
    await Promise.all(Array.from({ length: 2 }, async () => {
      for (let from = batch, to = Math.min(n, from + BULK); from < n; from = batch, to = Math.min(n, from + BULK)) {
        batch = to;
        const k = await bulkStore(sql, from, to, catalogue);
        filings += k;
        done += to - from;
      }
    }));
    const ms = performance.now() - started;
    return { ms, filings, storeCompanies: stores, storeMs, bulkMs: ms - storeMs };
  } finally {
    clearInterval(progress);
  }
}

interface LoadInfo { companies: number; filings: number; loadMs: number; reused: boolean; storeCompanies: number; storeMs: number; bulkMs: number }

async function prepareDatabase(serverUrl: string, n: number, storeCount: number, loaders: number, reuse: boolean): Promise<LoadInfo> {
  const db = withDatabase(serverUrl, BENCH_DATABASE);
  if (reuse) {
    await ensureDatabase(serverUrl, BENCH_DATABASE);
    const sql = createSql(db, { max: 1 });
    try {
      const [meta] = await sql<{ companies: number; seed: number; filings: number; loadMs: number; storeCompanies: number; storeMs: number; bulkMs: number }[]>`
        SELECT companies, seed, filings, load_ms, store_companies, store_ms, bulk_ms FROM bench_read_meta`.catch(() => []);
      if (meta && meta.companies === n && meta.seed === GENERATOR_SEED) {
        await migrate(sql);
        say(`reusing ${BENCH_DATABASE}: ${n} companies loaded earlier in ${round(meta.loadMs / 1000, 1)} s`);
        return { companies: n, filings: meta.filings, loadMs: meta.loadMs, reused: true, storeCompanies: meta.storeCompanies, storeMs: meta.storeMs, bulkMs: meta.bulkMs };
      }
    } finally {
      await sql.end();
    }
  }
  await dropDatabase(serverUrl, BENCH_DATABASE);
  await ensureDatabase(serverUrl, BENCH_DATABASE);
  const admin = createSql(db, { max: 1 });
  await admin.unsafe(`ALTER DATABASE ${BENCH_DATABASE} SET synchronous_commit = off`);
  await admin.end();
  const sql = createSql(db, { max: loaders, applicationName: 'read-bench-load' });
  try {
    await migrate(sql);
    await loadCatalogues(sql);
    const catalogue = await readCatalogue(sql);
    say(`loading ${n} synthetic companies with ${loaders} connections ...`);
    const f = await loadCompanies(sql, n, storeCount, loaders, catalogue);
    say(`loaded ${n} companies and ${f.filings} filings in ${round(f.ms / 1000, 1)} s`);
    await sql`CREATE TABLE bench_read_meta (companies int NOT NULL, seed int NOT NULL, filings int NOT NULL, load_ms int NOT NULL,
      store_companies int NOT NULL, store_ms int NOT NULL, bulk_ms int NOT NULL, loaded_at timestamptz NOT NULL DEFAULT now())`;
    await sql`INSERT INTO bench_read_meta (companies, seed, filings, load_ms, store_companies, store_ms, bulk_ms)
      VALUES (${n}, ${GENERATOR_SEED}, ${f.filings}, ${Math.round(f.ms)}, ${f.storeCompanies}, ${Math.round(f.storeMs)}, ${Math.round(f.bulkMs)})`;
    await sql`VACUUM ANALYZE`;
    return { companies: n, filings: f.filings, loadMs: f.ms, reused: false, storeCompanies: f.storeCompanies, storeMs: f.storeMs, bulkMs: f.bulkMs };
  } finally {
    await sql.end();
  }
}

// ---------------------------------------------------------------------------------------------
// The request mix.

type ClassName = 'typical' | 'arbitrary' | 'page1000' | 'count' | 'autocomplete' | 'resolve100' | 'profile' | 'feed100' | 'feed1000' | 'graph2' | 'feedTyped'
  | 'tradesCompany' | 'tradesLicenses' | OptInClass;
/**
 * Variants of page1000, measured only when --only names them (added to the mix they would change the
 * load every other figure was taken under): page1000fields asks for 5 columns (`fields=`);
 * page1000gzip and page1000br send Accept-Encoding (the API compresses; the client does not decode, so
 * KB is the size on the wire).
 */
type OptInClass = 'page1000fields' | 'page1000gzip' | 'page1000br';
const OPT_IN: ReadonlySet<string> = new Set<OptInClass>(['page1000fields', 'page1000gzip', 'page1000br']);

interface Target { p50?: number; p95?: number; p99?: number }
const TARGETS: Record<ClassName, Target> = {
  typical: { p50: 10, p99: 30 },
  arbitrary: { p50: 100, p99: 250 },
  page1000: { p50: 60, p99: 150 },
  page1000fields: { p50: 60, p99: 150 },
  page1000gzip: { p50: 60, p99: 150 },
  page1000br: { p50: 60, p99: 150 },
  count: { p50: 100 },
  autocomplete: { p50: 2, p99: 20 },
  resolve100: { p95: 300 },
  profile: { p99: 10 },
  feed100: { p50: 2, p99: 10 },
  feed1000: { p99: 30 },
  // "graph of depth 2 <= 50 ms": read as p99.
  graph2: { p99: 50 },
  // A typed feed's page of 100 (/businesses/changes, /documents/changes), deep pages included: the
  // same target as feed100. Their counts once read on to the last row of the type (migration 0016).
  feedTyped: { p50: 2, p99: 10 },
  // Issue 20: a company's licences, and a page of one trade's (1M licences over 640k companies).
  tradesCompany: { p99: 10 },
  tradesLicenses: { p99: 10 },
};

/** Requests per class at --scale 1 (resolve-names batches are few: each is 100 lookups). */
const COUNTS: Record<ClassName, number> = {
  typical: 600, arbitrary: 200, page1000: 120, page1000fields: 120, page1000gzip: 120, page1000br: 120, count: 200, autocomplete: 1000, resolve100: 8, profile: 500, feed100: 400, feed1000: 150, graph2: 300, feedTyped: 200,
  tradesCompany: 300, tradesLicenses: 300,
};

interface Req { cls: ClassName; method: 'GET' | 'POST'; path: string; body?: string; /** More header lines, each ending in CRLF. */ headers?: string }

interface Quantiles { [column: string]: number[] } // figure column -> [p10, p25, p50, p75, p90, p99]
const QUANTILES = [0.1, 0.25, 0.5, 0.75, 0.9, 0.99];

async function figureQuantiles(sql: Sql): Promise<Quantiles> {
  const selects = KEY_FIGURES.map((f) => `percentile_disc(ARRAY[${QUANTILES.join(',')}]) WITHIN GROUP (ORDER BY ${figureColumn(f)}) AS ${figureColumn(f)}`).join(', ');
  const [row] = await sql.unsafe<Record<string, string[] | null>[]>(`SELECT ${selects} FROM company_search`);
  const out: Quantiles = {};
  for (const f of KEY_FIGURES) {
    const key = figureColumn(f).replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
    out[figureColumn(f)] = (row?.[key] ?? []).map(Number);
  }
  return out;
}

/** A threshold as the decimal the API accepts. */
const dec = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));

function buildMix(r: Rand, n: number, q: Quantiles, maxChangeId: number, scale: number, catalogue: Catalogue, optIn: ReadonlySet<string> = new Set()): Req[] {
  const reqs: Req[] = [];
  // Figures with enough non-null values to filter and sort on (the long tail of rarely reported ones
  // is still used for "arbitrary" sorts).
  const usable = KEY_FIGURES.filter((f) => (q[figureColumn(f)]?.length ?? 0) === QUANTILES.length);
  const common = usable.filter((f) => ['bilanzSumme', 'eigenkapital', 'umsatzerloese', 'liquideMittel', 'verbindlichkeiten', 'employees', 'jahresueberschuss', 'anlageVermoegen', 'umlaufvermoegen', 'bilanzGewinn', 'rueckstellungen', 'sachanlagen'].includes(f.name.charAt(0).toLowerCase() + f.name.slice(1)));
  const qv = (f: KeyFigureDefinition, i: number) => q[figureColumn(f)]![i]!;
  const randomFnr = () => fnrOf(digitsOf(Math.floor(r() * n)));
  const realName = () => syntheticCompany(Math.floor(r() * n), catalogue, GENERATOR_SEED).extract.name!;
  const legalForms = ['GES', 'GES', 'GES', 'KG', 'AG', 'EU', 'OG'];
  const cities = ['Wien', 'Graz', 'Linz', 'Salzburg', 'Innsbruck', 'Klagenfurt am Wörthersee', 'Villach', 'Wels', 'Sankt Pölten', 'Dornbirn'];
  const otherFilter = (params: URLSearchParams) => {
    const k = r();
    if (k < 0.4) params.set('legalFormCode', pick(r, legalForms));
    else if (k < 0.6) params.set('active', 'true');
    else if (k < 0.75) params.set('oenaceCode', pick(r, ['C', 'F', 'G', 'I', 'L', 'M', 'F 41', 'G 46', 'C 10', 'M 70']));
    else if (k < 0.85) params.set('courtCode', pick(r, catalogue.courts));
    else params.set('city', pick(r, cities));
  };
  const range = (params: URLSearchParams, f: KeyFigureDefinition) => {
    const base = figureParam(f);
    const k = r();
    // Thresholds from the figure's own distribution: "top decile", "between quartiles", "above median"...
    if (k < 0.4) params.set(`${base}_gte`, dec(qv(f, pick(r, [2, 3, 4, 5]))));
    else if (k < 0.7) {
      const lo = Math.floor(r() * 3);
      params.set(`${base}_gte`, dec(qv(f, lo)));
      params.set(`${base}_lte`, dec(qv(f, lo + 2 + Math.floor(r() * 2))));
    } else params.set(`${base}_lte`, dec(qv(f, pick(r, [0, 1, 2]))));
  };

  const add = (cls: ClassName, make: () => Omit<Req, 'cls'>) => {
    for (let i = 0; i < Math.max(1, Math.round(COUNTS[cls] * scale)); i++) reqs.push({ cls, ...make() });
  };

  add('typical', () => {
    // 1-3 filters, sorted by a filtered figure, pageSize 10.
    const p = new URLSearchParams();
    const f = pick(r, common);
    range(p, f);
    const filters = 1 + Math.floor(r() * 3);
    if (filters >= 2) otherFilter(p);
    if (filters >= 3) {
      const g = pick(r, common);
      if (g !== f) range(p, g);
      else otherFilter(p);
    }
    p.set('orderBy', figureParam(f));
    p.set('orderByDescending', r() < 0.7 ? 'true' : 'false');
    p.set('pageSize', '10');
    return { method: 'GET', path: `/businesses?${p}` };
  });
  add('arbitrary', () => {
    // Up to 6 ranges on any figures, sorted by a figure that is not filtered.
    const p = new URLSearchParams();
    const k = 2 + Math.floor(r() * 5);
    const chosen = new Set<KeyFigureDefinition>();
    while (chosen.size < k) chosen.add(pick(r, usable));
    for (const f of chosen) range(p, f);
    if (r() < 0.3) otherFilter(p);
    let sort = pick(r, KEY_FIGURES);
    while (chosen.has(sort)) sort = pick(r, KEY_FIGURES);
    p.set('orderBy', figureParam(sort));
    p.set('orderByDescending', r() < 0.6 ? 'true' : 'false');
    p.set('pageSize', String(pick(r, [10, 10, 50, 100])));
    return { method: 'GET', path: `/businesses?${p}` };
  });
  const page1000 = () => {
    // 1-2 filters wide enough to fill the page, every figure in each row.
    const p = new URLSearchParams();
    const f = pick(r, common);
    p.set(`${figureParam(f)}_gte`, dec(qv(f, pick(r, [0, 1, 2]))));
    if (r() < 0.5) otherFilter(p);
    p.set('orderBy', figureParam(r() < 0.5 ? f : pick(r, common)));
    p.set('orderByDescending', 'true');
    p.set('pageSize', '1000');
    return { params: p, filtered: figureParam(f) };
  };
  add('page1000', () => ({ method: 'GET', path: `/businesses?${page1000().params}` }));
  add('count', () => {
    const p = new URLSearchParams();
    const k = 1 + Math.floor(r() * 4);
    for (let i = 0; i < k; i++) {
      if (r() < 0.7) range(p, pick(r, usable));
      else otherFilter(p);
    }
    if (r() < 0.5) return { method: 'GET', path: `/businesses/count?${p}` };
    p.set('countOnly', 'true');
    return { method: 'GET', path: `/businesses?${p}` };
  });
  add('autocomplete', () => {
    const name = realName();
    const len = 1 + Math.floor(r() * 6);
    return { method: 'GET', path: `/businesses/names?${new URLSearchParams({ search: name.slice(0, len), pageSize: '10' })}` };
  });
  add('resolve100', () => {
    const names: string[] = [];
    for (let i = 0; i < 100; i++) {
      const name = realName();
      const k = r();
      // As customers send them: exact, other suffix spelling, umlauts spelled out, lower case, no suffix, typos, unknown.
      if (k < 0.35) names.push(name);
      else if (k < 0.5) names.push(name.replace(/ (GmbH|Ges\.m\.b\.H\.|GesmbH|G\.m\.b\.H\.|Gesellschaft m\.b\.H\.)$/, ' Gesellschaft mit beschränkter Haftung'));
      else if (k < 0.6) names.push(name.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss'));
      else if (k < 0.7) names.push(name.toLowerCase());
      else if (k < 0.8) names.push(name.replace(/ \S+$/, ''));
      else if (k < 0.92) {
        const at = 2 + Math.floor(r() * Math.max(1, name.length - 4));
        names.push(name.slice(0, at) + name.slice(at + 1));
      } else names.push(`Unbekannte ${pick(r, ['Handels', 'Bau', 'Holding'])} ${Math.floor(normal(r) * 1e6)} GmbH`);
    }
    return { method: 'POST', path: '/businesses/resolve-names', body: JSON.stringify({ names }) };
  });
  add('profile', () => ({ method: 'GET', path: `/businesses/${randomFnr()}` }));
  const sinceId = (pageSize: number) => Math.floor(r() * Math.max(1, maxChangeId - pageSize));
  add('feed100', () => ({ method: 'GET', path: `/globalchanges?sinceId=${sinceId(100)}&pageSize=100` }));
  add('feed1000', () => ({ method: 'GET', path: `/globalchanges?sinceId=${sinceId(1000)}&pageSize=1000` }));
  add('graph2', () => ({ method: 'GET', path: `/graph?fnr=${randomFnr()}&depth=2` }));
  add('tradesCompany', () => ({ method: 'GET', path: `/trades/company/${randomFnr()}` }));
  add('tradesLicenses', () => {
    // Half the requests on keys by their popularity (the long lists), half on any key; the first pages.
    const p = new URLSearchParams({ page: String(1 + Math.floor(r() * 20)), pageSize: String(pick(r, [10, 10, 50, 100])) });
    if (r() < 0.3) p.set('active', 'true');
    if (r() < 0.2) p.set('zipCode', pick(r, catalogue.localities).zipCode);
    const tradeKey = r() < 0.5 ? popularTradeKey(r) : pick(r, SYNTHETIC_TRADE_KEYS);
    return { method: 'GET', path: `/trades/${tradeKey}/licenses?${p}` };
  });
  add('feedTyped', () => {
    const feed = pick(r, ['/businesses/changes', '/documents/changes']);
    return { method: 'GET', path: `${feed}?sinceId=${sinceId(100)}&page=${1 + Math.floor(r() * 40)}&pageSize=100` };
  });

  if (optIn.has('page1000fields')) {
    add('page1000fields', () => {
      // The same pages, as a client that shows a table would ask: names, city, the sorted and filtered figures, headcount.
      const { params, filtered } = page1000();
      params.set('fields', [...new Set(['name', 'city', params.get('orderBy')!, filtered, 'employees'])].join(','));
      return { method: 'GET', path: `/businesses?${params}` };
    });
  }
  for (const encoding of ['gzip', 'br'] as const) {
    const cls = `page1000${encoding}` as const;
    if (optIn.has(cls)) add(cls, () => ({ method: 'GET', path: `/businesses?${page1000().params}`, headers: `accept-encoding: ${encoding}\r\n` }));
  }

  // Seeded shuffle, so the classes interleave as they would in production.
  for (let i = reqs.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [reqs[i], reqs[j]] = [reqs[j]!, reqs[i]!];
  }
  return reqs;
}

interface Sample { cls: ClassName; ms: number; status: number; bytes: number }

async function runMix(server: { host: string; port: number; prefix: string }, key: string, reqs: Req[], concurrency: number, onError: (r: Req, status: number, body: string) => void): Promise<{ samples: Sample[]; seconds: number }> {
  const samples: Sample[] = [];
  let next = 0;
  const headers = `x-api-key: ${key}\r\n`;
  const jsonHeaders = `${headers}content-type: application/json\r\n`;
  const started = performance.now();
  // One keep-alive connection per stream of requests (bench/keepAliveClient.ts: why not node:http).
  await Promise.all(Array.from({ length: concurrency }, async () => {
    const connection = new KeepAliveConnection(server.host, server.port);
    try {
      for (let i = next++; i < reqs.length; i = next++) {
        const req = reqs[i]!;
        const t0 = performance.now();
        const res = await connection.request(req.method, server.prefix + req.path, (req.body ? jsonHeaders : headers) + (req.headers ?? ''), req.body);
        const ms = performance.now() - t0;
        if (res.status !== 200) onError(req, res.status, res.body.toString('utf8').slice(0, 300));
        samples.push({ cls: req.cls, ms, status: res.status, bytes: res.body.byteLength });
      }
    } finally {
      connection.close();
    }
  }));
  return { samples, seconds: (performance.now() - started) / 1000 };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Latency { p50: number; p95: number; p99: number; rps: number }
interface ClassFigures { n: number; non200: number; p50: number; p95: number; p99: number; max: number; avgKB: number; target: Target; met: boolean; alone: Latency; metAlone: boolean }
/** One measurement at one concurrency: the mix, then each class alone. */
interface Phase { concurrency: number; requests: number; requestsPerSecond: number; classes: Partial<Record<ClassName, ClassFigures>> }

function quantilesOf(sortedMs: number[]): { p50: number; p95: number; p99: number } {
  return { p50: round(percentile(sortedMs, 50)), p95: round(percentile(sortedMs, 95)), p99: round(percentile(sortedMs, 99)) };
}

function meets(figures: { p50: number; p95: number; p99: number }, target: Target): boolean {
  return (Object.keys(target) as Array<keyof Target>).every((k) => figures[k] <= target[k]!);
}

function classFigures(samples: Sample[], isolated: Record<ClassName, Latency>): Phase['classes'] {
  const classes: Phase['classes'] = {};
  for (const cls of Object.keys(COUNTS) as ClassName[]) {
    const mine = samples.filter((s) => s.cls === cls);
    if (mine.length === 0) continue;
    const ok = mine.filter((s) => s.status === 200);
    const ms = ok.map((s) => s.ms).sort((a, b) => a - b);
    const p = quantilesOf(ms);
    const target = TARGETS[cls];
    const alone = isolated[cls];
    classes[cls] = {
      n: mine.length, non200: mine.length - ok.length, ...p, max: round(ms.at(-1) ?? Number.NaN),
      avgKB: round(ok.reduce((s, x) => s + x.bytes, 0) / Math.max(1, ok.length) / 1024, 1),
      target, met: meets(p, target) && ok.length === mine.length, alone, metAlone: meets(alone, target),
    };
  }
  return classes;
}

/**
 * Every phase is printed against the targets. Issue 4 drives the mix at concurrency 4; there the
 * client, API, Postgres and Redis saturate the two cores, so its figures include waiting for a core.
 * shared/notes/performance-notes.md §7 states the targets "for a warm cache with a single client
 * unless stated", which the concurrency-1 phase measures.
 */
function printPhase(phase: Phase): void {
  const fmtTarget = (t: Target) => (Object.entries(t) as Array<[string, number]>).map(([k, v]) => `${k}<=${v}`).join(' ');
  say('');
  say(phase.concurrency === 1
    ? 'single client (concurrency 1): each request on an otherwise idle box, the targets\' condition in performance-notes §7'
    : `load (concurrency ${phase.concurrency}): client, API, Postgres and Redis share 2 cores; figures include waiting for a core`);
  say(`latency in ms; "mixed" = all classes interleaved, "alone" = the class by itself, both at concurrency ${phase.concurrency}`);
  say(`${'class'.padEnd(13)} ${'n'.padStart(5)} | mixed ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)} ${'KB'.padStart(7)} | alone ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'p99'.padStart(8)} ${'req/s'.padStart(7)} | target`);
  for (const [cls, c] of Object.entries(phase.classes)) {
    say(`${cls.padEnd(13)} ${String(c.n).padStart(5)} |       ${c.p50.toFixed(2).padStart(8)} ${c.p95.toFixed(2).padStart(8)} ${c.p99.toFixed(2).padStart(8)} ${c.max.toFixed(1).padStart(8)} ${c.avgKB.toFixed(1).padStart(7)} |       ${c.alone.p50.toFixed(2).padStart(8)} ${c.alone.p95.toFixed(2).padStart(8)} ${c.alone.p99.toFixed(2).padStart(8)} ${c.alone.rps.toFixed(1).padStart(7)} | ${fmtTarget(c.target).padEnd(18)} mixed ${c.met ? 'ok  ' : 'MISS'} alone ${c.metAlone ? 'ok' : 'MISS'}${c.non200 ? ` (${c.non200} non-200)` : ''}`);
  }
  const missed = Object.entries(phase.classes).filter(([, c]) => !c.met || !c.metAlone).map(([cls]) => cls);
  say(`concurrency ${phase.concurrency}: ${missed.length === 0 ? 'every target met, mixed and alone' : `targets missed by ${missed.join(', ')}`}`);
}

/**
 * The targets are for a warm cache (performance-notes §7), and this VM evicts page cache that has been
 * idle for about a minute (a DAMON `pageout` scheme, /sys/kernel/mm/damon): between runs, and between
 * the load and a phase, most of the database left memory, and fresh requests read it from disk. So
 * before each phase every relation is read into the OS cache, and the change log's into Postgres' own
 * buffers when they hold it (production's 2 GB do; memory Postgres holds is not paged out without
 * swap). What it changed is in docs/benchmarks.md.
 */
async function warmCache(sql: Sql): Promise<void> {
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_prewarm`;
  } catch (e) {
    say(`cache not warmed (pg_prewarm unavailable: ${(e as Error).message})`);
    return;
  }
  const started = performance.now();
  const [os] = await sql<{ blocks: number }[]>`
    SELECT coalesce(sum(pg_prewarm(c.oid, 'read')), 0)::bigint AS blocks
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname IN ('public', 'pg_toast') AND c.relkind IN ('r', 'i', 'm', 't') AND c.relpersistence = 'p'`;
  const feedRelations = ['change_log', 'change_log_pkey', 'change_log_type_id', 'change_log_block_count', 'change_log_block_count_pkey'];
  const [fit] = await sql<{ fits: boolean }[]>`
    SELECT coalesce(sum(pg_relation_size(c.oid)), 0) * 2 <= pg_size_bytes(current_setting('shared_buffers')) AS fits
      FROM pg_class c WHERE c.relname = ANY(${feedRelations}) AND c.relnamespace = 'public'::regnamespace`;
  let buffered = 0;
  if (fit?.fits) {
    const [row] = await sql<{ blocks: number }[]>`
      SELECT coalesce(sum(pg_prewarm(c.oid, 'buffer')), 0)::bigint AS blocks
        FROM pg_class c WHERE c.relname = ANY(${feedRelations}) AND c.relnamespace = 'public'::regnamespace`;
    buffered = Number(row?.blocks ?? 0);
  }
  say(`cache warmed in ${round((performance.now() - started) / 1000, 1)} s: ${Math.round(Number(os?.blocks ?? 0) * 8 / 1024)} MB read into the OS cache, ` +
    `${fit?.fits ? `the change log's ${Math.round(buffered * 8 / 1024)} MB into shared buffers` : 'the change log left out of shared buffers (less than twice its size)'}`);
}

/** --concurrency 4,1: one phase per value, in that order. */
function parseConcurrency(value: string): number[] {
  const list = value.split(',').map((v) => Number(v.trim()));
  if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--concurrency: expected positive integers such as 4,1, got ${value}`);
  return list;
}

// ---------------------------------------------------------------------------------------------

async function drive(options: { skipRebuild: boolean; only: string | undefined; storeCompanies: number; companies: number; json: boolean; reuse: boolean; loaders: number; concurrency: number[]; scale: number }): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const log = createLogger('warn', { stderr: true });
  const server = await resolvePostgresServer(config, log);
  const load = await prepareDatabase(server.url, options.companies, options.storeCompanies, options.loaders, options.reuse);
  const db = withDatabase(server.url, BENCH_DATABASE);
  const sql = createSql(db, { max: 2, applicationName: 'read-bench' });
  const redisUrl = await resolveRedisUrl(config, log);
  const prefix = `bench-read-${randomBytes(4).toString('hex')}:`;
  let child: ChildProcess | undefined;
  try {
    // Trade licences (issue 20) before the read model, whose trade_keys they fill.
    const licences = await ensureLicences(sql, say);
    let rebuild: { rows: number; ms: number | null; table: string };
    if (options.skipRebuild && load.reused) {
      const [live] = await sql<{ liveTable: string }[]>`SELECT live_table FROM read_model_version WHERE name = ${READ_MODEL}`;
      if (!live) throw new Error('--skip-rebuild: no read model yet; run once without it');
      rebuild = { rows: options.companies, ms: null, table: live.liveTable };
      say(`read model kept: ${live.liveTable}`);
    } else {
      say('rebuilding the read model ...');
      rebuild = await rebuildReadModel(sql, log);
      say(`rebuilt ${rebuild.rows} rows in ${round(rebuild.ms! / 1000, 1)} s`);
    }
    // A running indexer seals the change log's id blocks on every poll (256 a poll, so a bulk load is
    // sealed within seconds); the bench runs none, so it seals them as the indexer would have. Unsealed,
    // each feed page counted the whole log row by row until reads had sealed it 16 blocks at a time.
    await sealChangeBlocks(sql, null);
    // The load and rebuild leave many dirty pages; written back during the measurement they
    // would slow whichever class happens to run then.
    await sql`CHECKPOINT`.catch((e: Error) => say(`CHECKPOINT skipped: ${e.message}`));
    const [sizes] = await sql<{ tableMb: number; indexMb: number; changes: number; maxChangeId: number }[]>`
      SELECT round(pg_table_size(${rebuild.table}::regclass) / 1048576.0)::int AS table_mb,
             round(pg_indexes_size(${rebuild.table}::regclass) / 1048576.0)::int AS index_mb,
             (SELECT count(*) FROM change_log)::int AS changes, (SELECT max(id) FROM change_log)::int AS max_change_id`;
    // The figures depend on the server's memory settings (bench/tuned-postgres.sh runs production's).
    const [settings] = await sql<{ sharedBuffers: string; effectiveCacheSize: string }[]>`
      SELECT current_setting('shared_buffers') AS shared_buffers, current_setting('effective_cache_size') AS effective_cache_size`;
    const quantiles = await figureQuantiles(sql);
    const catalogue = await readCatalogue(sql);

    const account = await createAccount(sql, { email: `bench-read-${randomBytes(4).toString('hex')}@example.org`, plan: 'api' });
    const { key } = await createApiKey(sql, { accountId: account.id, label: 'bench:read' });
    const started = await startServer(db, redisUrl, prefix);
    child = started.child;
    const pid = child.pid!;
    const base = { host: '127.0.0.1', port: started.port, prefix: '/api/v1' };
    let peakRss = 0;
    const sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, rssOf(pid).rss);
      } catch {
        /* exited */
      }
    }, 100);

    const errors: string[] = [];
    let phaseConcurrency = 0;
    const onError = (r: Req, status: number, body: string) => {
      if (errors.length < 10) errors.push(`concurrency ${phaseConcurrency}: ${r.cls} ${status} ${r.method} ${r.path.slice(0, 160)}: ${body}`);
    };
    const r = rng(0x5eed);
    const only = options.only ? new Set(options.only.split(',')) : null;
    const optIn = new Set([...(only ?? [])].filter((cls) => OPT_IN.has(cls)));
    const phases: Phase[] = [];
    for (const concurrency of options.concurrency) {
      phaseConcurrency = concurrency;
      await warmCache(sql);
      const warm = buildMix(r, options.companies, quantiles, sizes!.maxChangeId, 0.1, catalogue);
      say(`warm-up: ${warm.length} requests at concurrency ${concurrency} ...`);
      await runMix(base, key, warm, concurrency, onError);
      const reqs = buildMix(r, options.companies, quantiles, sizes!.maxChangeId, options.scale, catalogue, optIn).filter((q) => !only || only.has(q.cls));
      say(`measuring: ${reqs.length} requests at concurrency ${concurrency} ...`);
      const { samples, seconds } = await runMix(base, key, reqs, concurrency, onError);
      // Then each class alone at the same concurrency: in the mix, slow classes (resolve-names batches
      // of 100 sequential lookups) hold pool connections and queue everything else behind them. Fresh
      // requests of the same distribution (the generator drawn on), not the mix's again: replayed, the
      // same companies and change ids would find their pages in Postgres' buffers and flatter the class.
      const fresh = buildMix(r, options.companies, quantiles, sizes!.maxChangeId, options.scale, catalogue, optIn).filter((q) => !only || only.has(q.cls));
      const isolated = {} as Record<ClassName, Latency>;
      for (const cls of Object.keys(COUNTS) as ClassName[]) {
        const mine = fresh.filter((q) => q.cls === cls);
        if (mine.length === 0) continue;
        const run = await runMix(base, key, mine, concurrency, onError);
        const ms = run.samples.filter((x) => x.status === 200).map((x) => x.ms).sort((a, b) => a - b);
        isolated[cls] = { ...quantilesOf(ms), rps: round(mine.length / run.seconds, 1) };
      }
      phases.push({ concurrency, requests: samples.length, requestsPerSecond: round(samples.length / seconds, 1), classes: classFigures(samples, isolated) });
    }
    clearInterval(sampler);
    const rss = rssOf(pid);
    peakRss = Math.max(peakRss, rss.rss);

    const figures = {
      postgres: settings!,
      companies: options.companies,
      filings: load.filings,
      loadSeconds: round(load.loadMs / 1000, 1),
      loadCompaniesPerSecond: Math.round(options.companies / (load.loadMs / 1000)),
      storePathCompanies: load.storeCompanies,
      storePathCompaniesPerSecond: load.storeCompanies > 0 ? Math.round(load.storeCompanies / (load.storeMs / 1000)) : null,
      bulkPathCompaniesPerSecond: options.companies > load.storeCompanies ? Math.round((options.companies - load.storeCompanies) / (load.bulkMs / 1000)) : null,
      loadReused: load.reused,
      licences,
      changeLogRows: sizes!.changes,
      rebuildSeconds: rebuild.ms === null ? null : round(rebuild.ms / 1000, 1),
      readModelTableMB: sizes!.tableMb,
      readModelIndexMB: sizes!.indexMb,
      apiPeakRssMB: peakRss,
      apiVmHwmMB: rss.hwm,
      phases,
      targets: { rebuildSecondsMax: 120, apiRssMBMax: 512 },
      errors,
    };

    for (const phase of phases) printPhase(phase);
    say('');
    say(`load: ${options.companies} companies, ${load.filings} filings in ${figures.loadSeconds} s${load.reused ? ' [reused]' : ''}: store path ${load.storeCompanies} at ${figures.storePathCompaniesPerSecond}/s, bulk path ${figures.bulkPathCompaniesPerSecond ?? '-'}/s; 640k through the store path alone would take ~${figures.storePathCompaniesPerSecond ? Math.round(640000 / figures.storePathCompaniesPerSecond / 60) : '?'} min`);
    say(`licences: ${licences} over ${options.companies} companies`);
    say(`postgres: shared_buffers ${settings!.sharedBuffers}, effective_cache_size ${settings!.effectiveCacheSize}`);
    say(`rebuild: ${figures.rebuildSeconds === null ? 'skipped' : `${figures.rebuildSeconds} s (target <= 120 s) ${figures.rebuildSeconds <= 120 ? 'ok' : 'MISS'}`}; read model ${figures.readModelTableMB} MB + ${figures.readModelIndexMB} MB indexes`);
    for (const phase of phases) say(`overall: ${phase.requests} requests, ${phase.requestsPerSecond} req/s at concurrency ${phase.concurrency}`);
    say(`API peak RSS: ${peakRss} MB sampled, VmHWM ${rss.hwm} MB (target <= 512 MB) ${rss.hwm <= 512 ? 'ok' : 'MISS'}`);
    for (const e of errors) say(`error: ${e}`);
    if (options.json) console.log(JSON.stringify(figures));

    await sql`DELETE FROM account WHERE id = ${account.id}`.catch(() => undefined);
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child!.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    await sql.end();
    const redis = new Redis(redisUrl);
    let cursor = '0';
    do {
      const [nextCursor, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (found.length > 0) await redis.del(...found);
      cursor = nextCursor;
    } while (cursor !== '0');
    redis.disconnect();
    await server.stop();
  }
}

const { values } = commandLine({
  usage: 'usage: npm run bench:read -- [--companies N] [--reuse] [--skip-rebuild] [--only class,...] [--concurrency 4,1] [--loaders N] [--scale F] [--json]\n' +
    '  Loads N synthetic companies (default 640000) into a database of its own, rebuilds the read model, and measures the API per request class (docs/benchmarks.md).',
  options: {
    companies: { type: 'string', default: '640000' },
    json: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
    loaders: { type: 'string', default: '8' },
    'store-companies': { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '4,1' },
    scale: { type: 'string', default: '1' },
    'skip-rebuild': { type: 'boolean', default: false },
    only: { type: 'string' },
    serve: { type: 'boolean', default: false },
    db: { type: 'string' },
    redis: { type: 'string' },
    prefix: { type: 'string' },
  },
});

const main = values.serve
  ? serve({ db: values.db!, redis: values.redis!, prefix: values.prefix! })
  : drive({
      skipRebuild: values['skip-rebuild'], only: values.only,
      storeCompanies: Number(values['store-companies']), companies: Number(values.companies), json: values.json, reuse: values.reuse, loaders: Number(values.loaders),
      concurrency: parseConcurrency(values.concurrency), scale: Number(values.scale),
    });
main.catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
