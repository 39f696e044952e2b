// npm run backfill [-- --legal-forms GES,AG,...]: enqueues the SUCHEFIRMA backfill (every name prefix
// per legal form, split further where the register's 1000-hit cap is reached) into the service's
// queue. The running pipeline (npm start) works it off; watch it on /admin/queues.
import { parseArgs } from 'node:util';
import { backfillRoots } from '../../pipeline/firmenbuch/backfill.js';
import { startPipeline } from '../../pipeline/pipelineWorker.js';
import { bootstrap, runMain } from '../bootstrap.js';

const DEFAULT_LEGAL_FORMS = ['GES', 'AG', 'KG', 'OG', 'EU', 'GEN', 'PST', 'SE', 'SPA', 'VER'];

runMain(async () => {
  const { values } = parseArgs({ options: { 'legal-forms': { type: 'string' } } });
  const legalForms = values['legal-forms']?.split(',').map((s) => s.trim()).filter(Boolean) ?? DEFAULT_LEGAL_FORMS;
  const rt = await bootstrap({ applicationName: 'backfill', cli: true });
  const { config } = rt;
  // Queues only: the service's workers do the work.
  const pipeline = await startPipeline({
    sql: rt.sql, redisUrl: rt.redisUrl, log: rt.log, work: false, concurrency: 1,
    firmenbuch: { baseUrl: config.FIRMENBUCH_URL, apiKey: config.FIRMENBUCH_API_KEY, ratePerSecond: config.FIRMENBUCH_RATE_PER_SECOND },
  });
  try {
    const roots = backfillRoots(legalForms);
    for (const task of roots) await pipeline.enqueue('backfill', task);
    console.log(`backfill: ${roots.length} searches enqueued for ${legalForms.join(', ')}`);
  } finally {
    await pipeline.close();
    await rt.close();
  }
});
