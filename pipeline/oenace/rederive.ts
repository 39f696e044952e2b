// Re-derives every company's industry codes from its stored business purpose and trade keys (after a
// lexicon or classifier change): `npm run reparse` runs it. Batches of companies in fnr order, each in
// its own transaction, with a business change (changedFields ['oenaces']) wherever the codes changed,
// so the read model follows. Running it twice changes nothing the second time.
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import { recordChanges } from '../store/changeLog.js';
import type { OenaceClassifier } from './classify.js';
import { oenaceClassifier, rederiveOenaces } from './derive.js';

export interface RederiveSummary {
  companies: number;
  changed: number;
  seconds: number;
}

export async function rederiveAllOenaces(
  sql: Sql,
  log: Logger,
  options: { batchSize?: number; concurrency?: number; classifier?: OenaceClassifier } = {},
): Promise<RederiveSummary> {
  const batchSize = options.batchSize ?? 2000;
  const classifier = options.classifier ?? oenaceClassifier();
  const started = performance.now();
  const summary: RederiveSummary = { companies: 0, changed: 0, seconds: 0 };
  // Batches are handed out in fnr order; three workers keep the classifier and Postgres busy at once.
  let after = '';
  let handing: Promise<unknown> = Promise.resolve();
  const nextBatch = (): Promise<string[]> => {
    const batch = handing.then(async () => {
      const rows = await sql<{ fnr: string }[]>`SELECT fnr FROM company WHERE fnr > ${after} ORDER BY fnr LIMIT ${batchSize}`;
      if (rows.length > 0) after = rows[rows.length - 1]!.fnr;
      return rows.map((r) => r.fnr);
    });
    handing = batch;
    return batch;
  };
  const worker = async () => {
    for (let fnrs = await nextBatch(); fnrs.length > 0; fnrs = await nextBatch()) {
      const changed = await sql.begin(async (tx) => {
        const fnrsChanged = await rederiveOenaces(tx, fnrs, classifier);
        await recordChanges(tx, fnrsChanged.map((fnr) => ({ type: 'business' as const, fnr, action: 'updated' as const, changedFields: ['oenaces'] })));
        return fnrsChanged.length;
      });
      summary.companies += fnrs.length;
      summary.changed += changed;
      if (summary.companies % (batchSize * 50) === 0) log.info({ companies: summary.companies, changed: summary.changed }, 'oenace re-derivation');
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 3 }, worker));
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}
