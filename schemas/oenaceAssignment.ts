// Industry codes the pipeline derives for a company (the register carries none): stored in
// company_oenace with source 'derived', a confidence and the evidence. Only assignments at or above
// the threshold feed the screener's oenaceCode filter and "similar companies"; the profile shows all.
// docs/oenace.md: how the threshold was chosen and how often assignments above it are right.

export const DERIVED_OENACE_SOURCE = 'derived';

/**
 * Assignments with at least this confidence count for search. The confidence is a calibrated share right
 * (pipeline/oenace/calibration.ts), so the threshold is the target itself: only readings of a kind that is
 * right >= 95 % of the time on its own count (measured on held-out and blind-test, docs/oenace.md).
 */
export const OENACE_CONFIDENCE_THRESHOLD = 0.95;

export interface OenaceEvidence {
  /** Words of the business purpose that led to the code, as the register wrote them. */
  words: string[];
  /** GISA trade keys of the company's current licences whose mapping names the code's class. */
  tradeKeys: string[];
}
