// One search interface, two backends: Postgres (default) and Elasticsearch (when ELASTICSEARCH_URL is
// set). Both answer the same ScreenerQuery with the same rows in the same order.
import { presentScreenerRow, type PresentedScreenerRow, type ScreenerRow } from '../../schemas/screenerRecords.js';
import type { ScreenerQuery } from './screenerFilters.js';

export type { ScreenerRow } from '../../schemas/screenerRecords.js';

/** A screener page: its exact total, the page's fnrs in order, and its rows as the API presents them. */
export interface ScreenerResult {
  total: number;
  fnrs: string[];
  /** The rows as objects (schemas/screenerRecords.ts). */
  presented(): PresentedScreenerRow[];
  /** The same rows as one JSON array in UTF-8: what the screener route sends. */
  json(): Buffer;
}

/** A page of rows read from a store (Postgres, Elasticsearch). */
export function resultFromRows(rows: ScreenerRow[], total: number): ScreenerResult {
  const presented = () => rows.map(presentScreenerRow);
  return { total, fnrs: rows.map((r) => r.fnr), presented, json: () => Buffer.from(JSON.stringify(presented()), 'utf8') };
}

export interface SearchBackend {
  readonly name: 'postgres' | 'elasticsearch';
  /** A page of matches and the exact total (rows empty when countOnly). */
  screener(query: ScreenerQuery, options?: { countOnly?: boolean }): Promise<ScreenerResult>;
  count(query: ScreenerQuery): Promise<number>;
  /** Resolves once background loading is done (the screener columns); absent where there is none. */
  readonly ready?: Promise<void>;
  /** Stops background work (the screener columns' sync), where there is any. */
  close?(): Promise<void>;
}
