// Picks the search backend once at start: Elasticsearch when ELASTICSEARCH_URL is set, Postgres
// otherwise. Both answer the same queries alike (test/integration/screenerConformance.test.ts), and
// the Postgres read model is kept in both cases (autocomplete, similar companies and resolve-names
// read it).
import type { Sql } from '../runtime/db.js';
import type { Logger } from '../runtime/logger.js';
import { ensureReadModel, startIndexer } from './indexer.js';
import { ensureEsIndex, startEsIndexer } from './search/elasticsearch/esIndexer.js';
import { elasticsearchSearch } from './search/elasticsearch/esSearch.js';
import { columnarSearch } from './search/columnar/columnarSearch.js';
import { postgresSearch } from './search/postgresSearch.js';
import type { SearchBackend } from './search/searchBackend.js';

export interface SearchBackendOptions {
  elasticsearchUrl: string | undefined;
  /** Postgres only: answer screener totals and page order from the in-memory columns (SCREENER_COLUMNS). */
  screenerColumns: boolean;
  log: Logger;
}

/**
 * The Elasticsearch client, loaded only where it is configured: otherwise every full collection of a
 * Postgres-backed API would mark its heap for nothing (docs/memory.md).
 */
async function elasticsearchClient(url: string) {
  const { Client } = await import('@elastic/elasticsearch');
  return new Client({ node: url });
}

export async function createSearchBackend(sql: Sql, options: SearchBackendOptions): Promise<SearchBackend> {
  if (options.elasticsearchUrl) return elasticsearchSearch(await elasticsearchClient(options.elasticsearchUrl));
  return options.screenerColumns ? columnarSearch(sql, { log: options.log }) : postgresSearch(sql);
}

/** Starts the indexers this configuration needs; returns one close(). */
export async function startIndexers(sql: Sql, log: Logger, elasticsearchUrl: string | undefined): Promise<{ close: () => Promise<void> }> {
  await ensureReadModel(sql, log);
  const running = [startIndexer(sql, log)];
  if (elasticsearchUrl) {
    const client = await elasticsearchClient(elasticsearchUrl);
    await ensureEsIndex(client);
    running.push(startEsIndexer(sql, client, log));
  }
  return { close: async () => void (await Promise.all(running.map((r) => r.close()))) };
}
