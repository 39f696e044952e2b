// One search interface, two backends: Postgres (default) and Elasticsearch (when ELASTICSEARCH_URL is
// set). Both answer the same ScreenerQuery with the same rows in the same order.
import type { ScreenerQuery } from '../../schemas/screenerParameters.js';
import { projectScreenerRow, type ScreenerFields } from '../../schemas/screenerFields.js';
import { presentScreenerRow, type PresentedScreenerRow, type ScreenerRow } from '../../schemas/screenerRecords.js';
import type { NameMemory } from './nameSearch.js';

export type { ScreenerRow } from '../../schemas/screenerRecords.js';

/** A screener page: its exact total, the page's fnrs in order, and its rows as the API presents them. */
export interface ScreenerResult {
  total: number;
  fnrs: string[];
  /** The rows as objects (schemas/screenerRecords.ts), cut down to the options' `fields` when given. */
  presented(): PresentedScreenerRow[];
  /**
   * The same rows as one JSON array in UTF-8, inside the envelope the query's options asked for (the
   * screener route's whole body, in one allocation), or bare without one.
   */
  json(): Buffer;
}

/** JSON text (ASCII) around a page's data array, given the page's total: the list envelope. */
export type PageEnvelope = (total: number) => { before: string; after: string };

export interface ScreenerOptions {
  /** Only the total (no rows). */
  countOnly?: boolean;
  /** Wrap json() in this envelope. */
  envelope?: PageEnvelope;
  /** Where json() puts a large body (the API's reusable body buffers); a fresh Buffer by default. */
  allocate?: (size: number) => Buffer;
  /** Only these parts of each row (`fields=`, schemas/screenerFields.ts); whole rows by default. */
  fields?: ScreenerFields;
}

/** A page of rows read from a store (Postgres, Elasticsearch). */
export function resultFromRows(rows: ScreenerRow[], total: number, options: Pick<ScreenerOptions, 'envelope' | 'allocate' | 'fields'> = {}): ScreenerResult {
  const { fields } = options;
  // A sparse row is a PresentedScreenerRow with parts left out: typed as the whole for the callers that never ask for fields.
  const presented = () => (fields ? rows.map((r) => projectScreenerRow(presentScreenerRow(r), fields) as PresentedScreenerRow) : rows.map(presentScreenerRow));
  const { before, after } = options.envelope?.(total) ?? { before: '', after: '' };
  const allocate = options.allocate ?? ((size: number) => Buffer.allocUnsafe(size));
  const json = () => {
    const text = before + JSON.stringify(presented()) + after;
    const body = allocate(Buffer.byteLength(text, 'utf8'));
    body.write(text, 0, 'utf8');
    return body;
  };
  return { total, fnrs: rows.map((r) => r.fnr), presented, json };
}

export interface SearchBackend {
  readonly name: 'postgres' | 'elasticsearch';
  /** A page of matches and the exact total (no rows when countOnly). */
  screener(query: ScreenerQuery, options?: ScreenerOptions): Promise<ScreenerResult>;
  count(query: ScreenerQuery): Promise<number>;
  /** Autocomplete's exact and prefix bands and totals from memory (the screener columns' name index), where there is one. */
  readonly names?: NameMemory;
  /** Resolves once background loading is done (the screener columns); absent where there is none. */
  readonly ready?: Promise<void>;
  /** Stops background work (the screener columns' sync), where there is any. */
  close?(): Promise<void>;
}
