// npm run backfill [-- --legal-forms GES,AG,...]: enqueues the SUCHEFIRMA backfill (every name prefix
// per legal form, split further where the register's 1000-hit cap is reached) into the service's
// queue. The running pipeline (npm start) works it off; watch it on /admin/queues.
import { backfillRoots, BACKFILL_LEGAL_FORMS } from '../../pipeline/firmenbuch/backfill.js';
import { firmenbuch } from '../../pipeline/firmenbuch/index.js';
import { startPipeline } from '../../pipeline/pipelineWorker.js';
import { bootstrap, runMain } from '../bootstrap.js';
import { commandLine } from './args.js';

const USAGE = `usage: npm run backfill -- [--legal-forms GES,AG,...]
  Enqueues the Firmenbuch backfill (SUCHEFIRMA by name prefix per legal form) for the running pipeline.`;

runMain(async () => {
  const { values } = commandLine({ usage: USAGE, options: { 'legal-forms': { type: 'string' } } });
  const legalForms = values['legal-forms']?.split(',').map((s) => s.trim()).filter(Boolean) ?? BACKFILL_LEGAL_FORMS;
  const rt = await bootstrap({ applicationName: 'backfill', cli: true });
  // Queues only: the service's workers do the work.
  const pipeline = await startPipeline({ sql: rt.sql, redisUrl: rt.redisUrl, log: rt.log, config: rt.config, registers: [firmenbuch], work: false, concurrency: 1 });
  try {
    const roots = backfillRoots(legalForms);
    await pipeline.enqueueMany(firmenbuch, 'backfill', roots);
    console.log(`backfill: ${roots.length} searches enqueued for ${legalForms.join(', ')}`);
  } finally {
    await pipeline.close();
    await rt.close();
  }
});
