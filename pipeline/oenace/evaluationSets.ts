// The labelled business purposes the classifier is measured and calibrated on, in one shape:
// fixtures/oenace/ (dev and held-out, written with the classifier) and fixtures/oenace-blind/ (written by
// an author who never saw it), the blind set halved by the SHA-1 of the text into a calibration half and
// a test half. Which splits may be fitted on is decided here once (CALIBRATION_SPLITS), not by callers.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';

export type EvaluationSplit = 'dev' | 'heldout' | 'blind-calibration' | 'blind-test';

/** The splits the calibration table is fitted on; held-out and blind-test only ever measure it. */
export const CALIBRATION_SPLITS: readonly EvaluationSplit[] = ['dev', 'blind-calibration'];

export interface LabelledPurpose {
  id: string;
  split: EvaluationSplit;
  text: string;
  /** The class of the primary activity, 'G 46.90'. */
  label: string;
  /** Further classes counted right for an assignment: activities the text also names (dev, held-out) or
   * codes the blind set's author marks as also defensible for an ambiguous text. */
  alsoRight: string[];
}

const fixture = (path: string) => fileURLToPath(new URL(`../../fixtures/${path}`, import.meta.url));
const CATALOGUE_FILE = fileURLToPath(new URL('../catalogues/data/oenace2008_bilingual.csv', import.meta.url));

/** First hex digit of the SHA-1 of the text 0-7: the first half; the test recomputes it. */
export function firstHalf(text: string): boolean {
  return '01234567'.includes(createHash('sha1').update(text, 'utf8').digest('hex')[0]!);
}

/** 'C 10.71' for the class '10.71' (the blind set writes classes without the section letter). */
function classCodes(): Map<string, string> {
  const rows = parse(readFileSync(CATALOGUE_FILE, 'utf8'), { columns: true }) as Array<{ level: string; code: string; code_plain: string }>;
  return new Map(rows.filter((r) => r.level === '4').map((r) => [r.code_plain, r.code]));
}

export function loadEvaluationSets(): LabelledPurpose[] {
  const own = parse(readFileSync(fixture('oenace/business_purposes.csv'), 'utf8'), { columns: true }) as
    Array<{ id: string; split: 'dev' | 'heldout'; class: string; also: string; text: string }>;
  const out: LabelledPurpose[] = own.map((r) => ({
    id: r.id, split: r.split, text: r.text, label: r.class, alsoRight: r.also.split(';').filter(Boolean),
  }));
  const codes = classCodes();
  const toCode = (plain: string) => {
    const code = codes.get(plain.slice(0, 5));
    if (!code) throw new Error(`fixtures/oenace-blind: unknown class ${plain}`);
    return code;
  };
  for (const line of readFileSync(fixture('oenace-blind/purposes.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { id: string; text: string; class: string; note?: string };
    // The README's own rule for the defensible codes; other notes only explain the label.
    const defensible = /ambiguous; also defensible: ([0-9., -]+)\./.exec(r.note ?? '')?.[1] ?? '';
    out.push({
      id: r.id, split: firstHalf(r.text) ? 'blind-calibration' : 'blind-test', text: r.text, label: toCode(r.class),
      alsoRight: [...new Set(defensible.split(/[\s,]+/).filter((c) => /^\d\d\.\d\d/.test(c)).map(toCode))],
    });
  }
  return out;
}

/** An assignment ('C 10.71-1') is right when its class is the label or one the text also allows. */
export function isRight(code: string, row: LabelledPurpose): boolean {
  const cls = code.slice(0, 7);
  return cls === row.label || row.alsoRight.includes(cls);
}

export interface SplitScore {
  texts: number;
  /** Texts whose primary code has the label's section, division, class. */
  section: number;
  division: number;
  class: number;
  assignments: number;
  /** Assignments at or above the threshold, and how many of them are right. */
  above: number;
  aboveRight: number;
  /** Texts with at least one code at or above the threshold (what the oenaceCode filter finds). */
  textsAbove: number;
}

/** Accuracy of the primary code and precision above the threshold over one split's texts. */
export function scoreSplit(
  classify: (text: string) => Array<{ code: string; isPrimary: boolean; confidence: number }>,
  rows: LabelledPurpose[], threshold: number,
): SplitScore {
  const s: SplitScore = { texts: 0, section: 0, division: 0, class: 0, assignments: 0, above: 0, aboveRight: 0, textsAbove: 0 };
  for (const row of rows) {
    const out = classify(row.text);
    const primary = out.find((o) => o.isPrimary)?.code ?? '';
    s.texts++;
    // Codes are 'C 10.71-1': the section is the letter, the division 'C 10', the class 'C 10.71'.
    if (primary.slice(0, 1) === row.label.slice(0, 1)) s.section++;
    if (primary.slice(0, 4) === row.label.slice(0, 4)) s.division++;
    if (primary.slice(0, 7) === row.label) s.class++;
    s.assignments += out.length;
    const above = out.filter((o) => o.confidence >= threshold);
    s.above += above.length;
    s.aboveRight += above.filter((o) => isRight(o.code, row)).length;
    if (above.length > 0) s.textsAbove++;
  }
  return s;
}
