// npm run reindex: rebuilds the search read model from Postgres into a new versioned table and swaps
// it in atomically; with ELASTICSEARCH_URL set, also a new versioned Elasticsearch index behind the
// alias. A running API keeps answering from the old version until the swap.
import { Client } from '@elastic/elasticsearch';
import { rebuildReadModel } from '../../indexer/indexer.js';
import { rebuildEsIndex } from '../../indexer/search/elasticsearch/esIndexer.js';
import { bootstrap, runMain } from '../bootstrap.js';
import { commandLine } from './args.js';

runMain(async () => {
  commandLine({ usage: "usage: npm run reindex\n  Rebuilds the search read model (and the Elasticsearch index when configured) and swaps it in.", options: {} });
  const rt = await bootstrap({ applicationName: 'reindex', cli: true });
  try {
    const result = await rebuildReadModel(rt.sql, rt.log);
    console.log(`reindex: ${result.rows} companies into ${result.table} in ${(result.ms / 1000).toFixed(1)} s`);
    if (rt.config.ELASTICSEARCH_URL) {
      const es = await rebuildEsIndex(rt.sql, new Client({ node: rt.config.ELASTICSEARCH_URL }), rt.log);
      console.log(`reindex: ${es.documents} documents into Elasticsearch ${es.index} in ${(es.ms / 1000).toFixed(1)} s`);
    }
  } finally {
    await rt.close();
  }
});
