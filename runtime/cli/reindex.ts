// npm run reindex: rebuilds the search read model from Postgres into a new versioned table and swaps
// it in atomically; a running API keeps answering from the old table until the swap.
import { rebuildReadModel } from '../../indexer/indexer.js';
import { bootstrap, runMain } from '../bootstrap.js';

runMain(async () => {
  const rt = await bootstrap({ applicationName: 'reindex', cli: true });
  try {
    const result = await rebuildReadModel(rt.sql, rt.log);
    console.log(`reindex: ${result.rows} companies into ${result.table} in ${(result.ms / 1000).toFixed(1)} s`);
  } finally {
    await rt.close();
  }
});
