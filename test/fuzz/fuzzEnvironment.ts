// What a fuzz run stands on: a database with a few companies, their filings, change entries, a list
// and a saved query; an account key and a service key on a plan with a quota large enough to never
// run out (so every billed answer carries a number to check); the real app with the real access
// chain on Redis (a key prefix of its own, a burst limit that never refuses); document and trade
// extract sources that answer without an upstream. `verifyCounts` flushes the usage counters and
// compares Redis and Postgres with the billed answers the run saw.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createAccount, createApiKey } from '../../api/accounts/accountStore.js';
import { createApp } from '../../api/app.js';
import { usageKey } from '../../api/metering/admission.js';
import { monthKey, monthStartDate } from '../../api/metering/calendar.js';
import { createUsageFlusher } from '../../api/metering/usageFlusher.js';
import { createList } from '../../api/stores/lists.js';
import { saveQuery } from '../../api/stores/savedQueries.js';
import { rebuildReadModel } from '../../indexer/indexer.js';
import type { Sql } from '../../runtime/db.js';
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
  await rebuildReadModel(sql, log);
  const fnrs = [30435, 77, 123456, 9].map(seedFnr);
  const documentKeys = (await sql<{ documentKey: string }[]>`SELECT document_key FROM document ORDER BY document_key LIMIT 5`).map((r) => r.documentKey);
  await sql`UPDATE document SET content = ${Buffer.from('<xml>fuzz</xml>')}, content_type = 'application/xml' WHERE document_key = ${documentKeys[0] ?? ''}`;
  const changeIds = (await sql<{ id: number }[]>`SELECT id FROM change_log ORDER BY id LIMIT 5`).map((r) => String(r.id));
  const list = await createList(sql, { accountId, name: 'fuzz', fnrs: fnrs.slice(0, 2), settings: { view: 'table' } });
  const query = await saveQuery(sql, { accountId, name: 'fuzz', filters: { city: 'Wien' }, canonical: '{"city":"Wien"}' });
  return { fnrs, personIds: [], documentKeys, listIds: [list.id], queryIds: query ? [query.id] : [], changeIds, tradeKeys: [], gisaZahlen: [] };
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
    tradeExtracts: { extract: async () => ({ kind: 'unknown' }) },
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
