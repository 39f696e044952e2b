// Calibration of the classifier's confidence: an assignment's confidence is the share of assignments of
// its kind that were right on labelled texts, read from a small table (calibration.json) that
// `npm run oenace:calibrate` fits on the dev split and the blind set's calibration half only.
// docs/oenace.md: the cells, the fitting and what it measured.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CALIBRATION_FILE = fileURLToPath(new URL('./calibration.json', import.meta.url));

/** What kind of reading gave a code. */
export type EvidenceKind =
  /** A lexicon phrase naming an activity ("steuerberatung"). */
  | 'phrase'
  /** A thing read through a verb ("Handel mit" + "Lebensmitteln"). */
  | 'domainVerb'
  /** A thing named without a verb: its default reading ("Stoffe und Kurzwaren"). */
  | 'domainDefault'
  /** A thing named with verbs it has no code for: its default reading. */
  | 'domainOtherVerb'
  /** A verb alone, its generic code ("Handel"). */
  | 'verb'
  /** The ÖNACE titles, for a clause the lexicon does not know. */
  | 'catalogue'
  /** A trade key without a text code of its class (not calibrated: no labelled texts carry keys). */
  | 'tradeKey';

export interface AssignmentFeatures {
  kind: EvidenceKind;
  /** The lexicon's weight of the reading (how surely the phrase means the code). */
  weight: number;
  isPrimary: boolean;
  /** Read through an earlier clause's verb, a corrected typo or the catalogue. */
  indirect: boolean;
  /** How many codes the company gets in all. */
  assignments: number;
}

export interface CalibrationCell {
  /** Labelled assignments in the cell: dev, blind-calibration; and how many of them were right. */
  dev: [number, number];
  blind: [number, number];
  /** The fitted share right, rounded to two places. */
  confidence: number;
}

export interface CalibrationTable {
  /** How the table was fitted (written by the fitter, for the reader). */
  method: string;
  /** Cell key (cellKey) -> fitted cell; a key missing here falls back to its coarser levels. */
  cells: Record<string, CalibrationCell>;
}

/** The role of an assignment: the only code, the primary beside others, or a secondary code. */
function role(f: AssignmentFeatures): 'sole' | 'primary' | 'secondary' {
  if (!f.isPrimary) return 'secondary';
  return f.assignments === 1 ? 'sole' : 'primary';
}

/**
 * Readings the lexicon marks as vague (weight below 0.75: "Beratung", "Handel" alone) are a kind of their
 * own, whatever gave them: alone in a text they say little, however often the precise readings beside
 * them in the same cell are right.
 */
const VAGUE = 0.75;

function weightBin(w: number): string {
  return w >= 0.9 ? 'w90' : w >= 0.85 ? 'w85' : 'w00';
}

/**
 * The cell keys of an assignment, coarsest first: all; its kind; + role and directness; + weight. A cell
 * without data falls back to the coarser one (a reading of a rare kind is judged by its kind).
 */
export function cellKeys(f: AssignmentFeatures): string[] {
  const kind = f.kind === 'catalogue' ? f.kind : f.weight < VAGUE ? 'vague' : f.kind === 'domainOtherVerb' ? 'domainDefault' : f.kind;
  const l2 = `${kind}/${role(f)}/${f.indirect ? 'indirect' : 'direct'}`;
  return ['all', kind, l2, `${l2}/${weightBin(f.weight)}`];
}

/** The confidence of the finest cell the table has. */
export function calibratedConfidence(table: CalibrationTable, f: AssignmentFeatures): number {
  const keys = cellKeys(f);
  for (let i = keys.length - 1; i >= 0; i--) {
    const cell = table.cells[keys[i]!];
    if (cell) return cell.confidence;
  }
  return 0;
}

export function loadCalibration(file = CALIBRATION_FILE): CalibrationTable {
  return JSON.parse(readFileSync(file, 'utf8')) as CalibrationTable;
}
