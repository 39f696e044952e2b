// What a fuzz run stands on: a database with a few companies, their filings, trade licences (GISA),
// change entries, a list and a saved query; an account key and a service key on a plan with a quota
// large enough to never run out (so every billed answer carries a number to check); the real app with
// the real access chain on Redis (a key prefix of its own, a burst limit that never refuses); document
// and trade extract sources that answer without an upstream. `verifyCounts` flushes the usage counters
// and compares Redis and Postgres with the billed answers the run saw.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { createAccount, createApiKey } from '../../api/accounts/accountStore.js';
import { createApp } from '../../api/app.js';
import { usageKey } from '../../api/metering/admission.js';
import { monthKey, monthStartDate } from '../../api/metering/calendar.js';
import { createUsageFlusher } from '../../api/metering/usageFlusher.js';
import { createList } from '../../api/stores/lists.js';
import { saveQuery } from '../../api/stores/savedQueries.js';
import { rebuildReadModel } from '../../indexer/indexer.js';
import { storeCatalogue } from '../../pipeline/gisa/catalogue.js';
import { parseKatalogGewerbeart, parseKatalogGewerbeschluessel } from '../../pipeline/gisa/gewerbeParser.js';
import { parseAnswer } from '../../pipeline/gisa/gisaXml.js';
import { storeLicenceLookup } from '../../pipeline/gisa/licenceStore.js';
import type { Sql } from '../../runtime/db.js';
import type { TradeLicence } from '../../schemas/tradeRecords.js';
import { createLogger } from '../../runtime/logger.js';
import { deleteKeys } from '../helpers/apiAccess.js';
import { serve } from '../helpers/httpClient.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import type { KnownValues } from './arbitraries.js';
import type { FuzzReport, FuzzTarget } from './fuzzRun.js';

/** The pro plan's quota in the fuzz database: never reached, so X-Quota-Remaining always counts down. */
export const FUZZ_QUOTA = 10_000_000;

export interface FuzzEnvironment {
  target: FuzzTarget;
  /** Problems with the counted usage: Redis and Postgres against the billed answers of `report`. */
  verifyCounts: (report: FuzzReport) => Promise<string[]>;
  close: () => Promise<void>;
}

async function seed(sql: Sql, accountId: string): Promise<KnownValues> {
  const log = createLogger('silent');
  await seedCompanies(sql, [
    { digits: 30435, name: 'Alpha Handels GmbH', city: 'Wien', zipCode: '1010', oenace: ['F 41.20-1'], figures: { umsatzerloese: '1000000.50', bilanzSumme: '500000' } },
    { digits: 77, name: 'Bäckerei Müller & Söhne KG', legalForm: 'KG', city: 'Graz', zipCode: '8010', formerNames: ['Müller Brot'] },
    { digits: 123456, name: 'Gamma Bau AG', legalForm: 'AG', city: 'Linz', zipCode: '4020', active: false, figures: { jahresueberschuss: '-1250.5' } },
    { digits: 9, name: '=HYPERLINK("x")', city: 'Salzburg', zipCode: '5020' },
  ]);
  const fnrs = [30435, 77, 123456, 9].map(seedFnr);
  const gisa = await seedTradeLicences(sql, fnrs);
  await rebuildReadModel(sql, log);
  const documentKeys = (await sql<{ documentKey: string }[]>`SELECT document_key FROM document ORDER BY document_key LIMIT 5`).map((r) => r.documentKey);
  await sql`UPDATE document SET content = ${Buffer.from('<xml>fuzz</xml>')}, content_type = 'application/xml' WHERE document_key = ${documentKeys[0] ?? ''}`;
  const changeIds = (await sql<{ id: number }[]>`SELECT id FROM change_log ORDER BY id LIMIT 5`).map((r) => String(r.id));
  const list = await createList(sql, { accountId, name: 'fuzz', fnrs: fnrs.slice(0, 2), settings: { view: 'table' } });
  const query = await saveQuery(sql, { accountId, name: 'fuzz', filters: { city: 'Wien' }, canonical: '{"city":"Wien"}' });
  return { fnrs, personIds: gisa.personIds, documentKeys, listIds: [list.id], queryIds: query ? [query.id] : [], changeIds, tradeKeys: gisa.tradeKeys, gisaZahlen: gisa.gisaZahlen };
}

const GISA_FIXTURES = new URL('../../fixtures/corpus/gisa/', import.meta.url).pathname;

/**
 * GISA data, so the /trades routes, the profiles' tradeLicenses, /people and /trades/changes answer with
 * records: the fixture catalogue, and fixture licences (current, dormant, ended, with history, sole
 * traders) moved onto the seeded companies, stored through the licence store (trade changes, counts).
 */
async function seedTradeLicences(sql: Sql, fnrs: string[]): Promise<{ tradeKeys: string[]; gisaZahlen: string[]; personIds: string[] }> {
  const answer = (method: 'GetKatalogGewerbeschluessel' | 'GetKatalogGewerbeart', file: string) => parseAnswer(method, readFileSync(`${GISA_FIXTURES}${file}`, 'utf8')).root;
  await storeCatalogue(sql, parseKatalogGewerbeschluessel(answer('GetKatalogGewerbeschluessel', 'katalog-gewerbeschluessel.xml')),
    parseKatalogGewerbeart(answer('GetKatalogGewerbeart', 'katalog-gewerbeart.xml')));
  const record = (gisaZahl: string) => JSON.parse(readFileSync(`${GISA_FIXTURES}expected/${gisaZahl}.json`, 'utf8')) as TradeLicence;
  const movedTo = (gisaZahl: string, fnr: string): TradeLicence => {
    const l = record(gisaZahl);
    return { ...l, holder: { ...l.holder, fnr } };
  };
  const licences = [
    movedTo('100000054', fnrs[0]!), movedTo('100000429', fnrs[0]!), movedTo('100000030', fnrs[1]!), movedTo('100000535', fnrs[2]!),
    ...['100000542', '100000559', '100000566', '100000597'].map(record),
  ];
  // The manager of 100000054 and holder of 100000542/559 is a register person (managing director of the first company).
  const leitner = 'gerhard-leitner-1966-02-21';
  await sql`INSERT INTO person (person_id, first_name, last_name, birth_date, name_norm) VALUES (${leitner}, 'Gerhard', 'Leitner', '1966-02-21', 'gerhard leitner')`;
  await sql`INSERT INTO company_party (fnr, pnr, kind, person_id) VALUES (${fnrs[0]!}, 'GISA1', 'person', ${leitner})`;
  await sql`INSERT INTO company_function (fnr, pnr, function_code, vnr, is_current) VALUES (${fnrs[0]!}, 'GISA1', 'GF', '1', true)`;
  await storeLicenceLookup(sql, { licences, gone: [] });
  const keys = await sql<{ tradeKey: string }[]>`SELECT trade_key FROM trade ORDER BY trade_key`;
  return { tradeKeys: keys.map((k) => k.tradeKey), gisaZahlen: licences.map((l) => l.gisaZahl), personIds: [leitner] };
}

export async function startFuzzEnvironment(sql: Sql, redisUrl: string): Promise<FuzzEnvironment> {
  const log = createLogger('silent');
  await sql`UPDATE plan SET monthly_quota = ${FUZZ_QUOTA} WHERE code = 'pro'`;
  const account = await createAccount(sql, { email: `fuzz-${randomBytes(3).toString('hex')}@example.org`, plan: 'pro' });
  const accountKey = await createApiKey(sql, { accountId: account.id });
  const serviceKey = await createApiKey(sql, { accountId: null, plan: 'pro' });
  const known = await seed(sql, account.id);

  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const prefix = `fuzz-${randomBytes(4).toString('hex')}:`;
  const app = createApp({
    sql, log, access: { redis, redisPrefix: prefix, burstLimit: 1_000_000_000, principalCacheMs: 5000 },
    documents: {
      fetch: async (key) => (key === known.documentKeys[1] ? { content: Buffer.from('%PDF-1.4 fuzz'), contentType: 'application/pdf' } : null),
      keep: async () => undefined,
    },
    tradeExtracts: { extract: async (r) => (r.gisaZahl === known.gisaZahlen[0] ? { kind: 'pdf', content: Buffer.from('%PDF-1.4 fuzz') } : { kind: 'unknown' }) },
  });
  const http = await serve(app);
  const subjects = { account: `account:${account.id}`, service: `key:${serviceKey.id}` };

  return {
    target: { origin: http.baseUrl, keys: { account: accountKey.key, service: serviceKey.key }, known },
    verifyCounts: async (report) => {
      const problems = [...report.ledger.check('account', FUZZ_QUOTA), ...report.ledger.check('service', FUZZ_QUOTA)];
      const month = monthKey(Date.now());
      const flusher = createUsageFlusher({ redis, sql, prefix, clock: Date.now, log });
      await flusher.flushNow();
      for (const [who, subject] of Object.entries(subjects) as Array<['account' | 'service', string]>) {
        const billed = report.ledger.billed(who);
        const inRedis = Number((await redis.hget(usageKey(prefix, month), subject)) ?? 0);
        const [row] = await sql<{ requests: number }[]>`SELECT requests FROM usage_counter WHERE subject = ${subject} AND month = ${monthStartDate(month)}`;
        if (inRedis !== billed) problems.push(`${who}: Redis counted ${inRedis}, the answers show ${billed} billed`);
        if ((row?.requests ?? 0) !== billed) problems.push(`${who}: Postgres holds ${row?.requests ?? 0}, the answers show ${billed} billed`);
      }
      return problems;
    },
    close: async () => {
      await http.close();
      await deleteKeys(redis, `${prefix}*`);
      redis.disconnect();
    },
  };
}
