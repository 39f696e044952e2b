// What the API needs to serve a signed trade extract (GISA Gewerbeauszug): the entry points build it
// over the pipeline's GISA queue and the extract store (pipeline/gisa/extractSource.ts), so the API
// imports no pipeline code.

export interface TradeExtractRequest {
  gisaZahl: string;
  language: 'de' | 'en';
  historical: boolean;
}

export type TradeExtractAnswer =
  | { kind: 'pdf'; content: Buffer }
  /** GISA does not know the GISA-Zahl. */
  | { kind: 'unknown' }
  /** The extract job goes on; ask again after `retryAfterSeconds`. */
  | { kind: 'pending'; retryAfterSeconds: number }
  /** GISA cannot be reached or answers nonsense. */
  | { kind: 'unavailable'; retryAfterSeconds: number };

export interface TradeExtractSource {
  /**
   * The extract of today: a stored one, or one fetched by an extract job through the pipeline (under
   * the 10-a-minute quota). Identical requests at the same time share one job. Waits at most `waitMs`.
   */
  extract(request: TradeExtractRequest, waitMs: number): Promise<TradeExtractAnswer>;
}
