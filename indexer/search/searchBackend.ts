// One search interface, two backends: Postgres (default) and Elasticsearch (when ELASTICSEARCH_URL is
// set). Both answer the same ScreenerQuery with the same rows in the same order.
import type { ScreenerQuery } from './screenerFilters.js';

/** One screener hit: the read model's row with the latest filing's figures (decimal strings). */
export interface ScreenerRow {
  fnr: string;
  name: string;
  legalFormCode: string | null;
  legalFormText: string | null;
  courtCode: string | null;
  courtText: string | null;
  city: string | null;
  zipCode: string | null;
  isActive: boolean;
  isScheinunternehmen: boolean;
  hasEdikt: boolean;
  documentKey: string | null;
  documentDate: string | null;
  /** JSON key -> decimal string, or null when the latest filing does not report it. */
  figures: Record<string, string | null>;
}

export interface ScreenerResult {
  rows: ScreenerRow[];
  total: number;
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
