// The search backends a screener test runs against, each built over a database's read model: plain
// Postgres, Postgres with the in-memory screener columns (the API's default), and Elasticsearch wherever
// ELASTICSEARCH_URL names a node (there is none on the CI machine).
import { Client } from '@elastic/elasticsearch';
import { columnarSearch } from '../../indexer/search/columnar/columnarSearch.js';
import { rebuildEsIndex } from '../../indexer/search/elasticsearch/esIndexer.js';
import { elasticsearchSearch } from '../../indexer/search/elasticsearch/esSearch.js';
import { INDEX_ALIAS } from '../../indexer/search/elasticsearch/mapping.js';
import { postgresSearch } from '../../indexer/search/postgresSearch.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import type { Sql } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';

export interface TestBackend {
  name: string;
  make: (sql: Sql) => Promise<SearchBackend & { close?: () => Promise<void> }>;
}

export function searchBackends(): TestBackend[] {
  const backends: TestBackend[] = [
    { name: 'postgres', make: async (sql) => postgresSearch(sql) },
    {
      name: 'postgres with screener columns',
      make: async (sql) => {
        const search = columnarSearch(sql, { log: createLogger('silent'), syncIntervalMs: 60_000 });
        await search.ready;
        return search;
      },
    },
  ];
  const elasticsearchUrl = process.env.ELASTICSEARCH_URL?.trim();
  if (elasticsearchUrl) {
    backends.push({
      name: 'elasticsearch',
      make: async (sql) => {
        const client = new Client({ node: elasticsearchUrl });
        await rebuildEsIndex(sql, client, createLogger('silent'));
        await client.indices.refresh({ index: INDEX_ALIAS });
        return { ...elasticsearchSearch(client), close: () => client.close() };
      },
    });
  }
  return backends;
}
