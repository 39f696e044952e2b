// The ÖNACE classifier against hand-labelled business purposes: fixtures/oenace/ (dev and held-out,
// written with the classifier) and fixtures/oenace-blind/ (written by an author who never saw it, halved
// by the SHA-1 of the text into blind-calibration and blind-test). The confidence is fitted on dev and
// blind-calibration only (npm run oenace:calibrate); the targets are asserted on held-out and blind-test,
// which the fit never reads. OENACE_EVAL_SPLIT=dev (or blind-calibration) also prints that split's misses.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { loadCalibration } from '../../pipeline/oenace/calibration.js';
import { OenaceClassifier } from '../../pipeline/oenace/classify.js';
import {
  CALIBRATION_SPLITS, firstHalf, loadEvaluationSets, scoreSplit, type EvaluationSplit, type SplitScore,
} from '../../pipeline/oenace/evaluationSets.js';
import { calibrationSamples, fitCalibration } from '../../pipeline/oenace/fitCalibration.js';
import { OENACE_CONFIDENCE_THRESHOLD } from '../../schemas/oenaceAssignment.js';

const rows = loadEvaluationSets();
const catalogue = parse(readFileSync(new URL('../../pipeline/catalogues/data/oenace2008_bilingual.csv', import.meta.url), 'utf8'), { columns: true }) as Array<{ level: string; code: string }>;
const classes = new Set(catalogue.filter((c) => c.level === '4').map((c) => c.code));
const classifier = new OenaceClassifier();
const classify = (text: string) => classifier.classify({ purposeText: text, tradeKeys: [] });

const SPLITS: EvaluationSplit[] = ['dev', 'heldout', 'blind-calibration', 'blind-test'];
/** The splits that measure: neither the lexicon (held-out) nor the calibration (both) was fitted on them. */
const MEASURED: EvaluationSplit[] = ['heldout', 'blind-test'];
const of = (split: EvaluationSplit) => rows.filter((r) => r.split === split);
const scores = Object.fromEntries(SPLITS.map((s) => [s, scoreSplit(classify, of(s), OENACE_CONFIDENCE_THRESHOLD)])) as Record<EvaluationSplit, SplitScore>;
const pct = (a: number, b: number) => (b === 0 ? '-' : (a / b).toFixed(3));

describe('ÖNACE evaluation sets', () => {
  it('are at least 300 texts each, every label an ÖNACE 2008 class, split by the SHA-1 of the text', () => {
    expect(of('dev').length + of('heldout').length).toBeGreaterThanOrEqual(300);
    expect(of('blind-calibration').length + of('blind-test').length).toBe(682);
    for (const r of rows) {
      for (const label of [r.label, ...r.alsoRight]) expect(classes.has(label), `${r.id} ${label}`).toBe(true);
      const first = firstHalf(r.text);
      if (r.id.startsWith('ob-')) expect(r.split, r.id).toBe(first ? 'blind-calibration' : 'blind-test');
      else expect(r.split, r.id).toBe(first ? 'dev' : 'heldout');
    }
    // Unique within each set; a short entry both authors wrote ("Baumeister") falls in the same half of
    // both (dev and blind-calibration, or held-out and blind-test), so no test text is fitted on.
    for (const blind of [false, true]) {
      const set = rows.filter((r) => r.id.startsWith('ob-') === blind);
      expect(new Set(set.map((r) => r.text)).size).toBe(set.length);
    }
  });

  it('carries the calibration table the fitter gives on dev and blind-calibration (npm run oenace:calibrate)', () => {
    expect(CALIBRATION_SPLITS).toEqual(['dev', 'blind-calibration']);
    expect(loadCalibration()).toEqual(fitCalibration(calibrationSamples(classifier, rows)));
  });

  it('prints the accuracy table and meets the targets on held-out and blind-test', () => {
    const lines = [
      `ÖNACE classifier, ${rows.length} labelled business purposes (threshold ${OENACE_CONFIDENCE_THRESHOLD}; calibrated on ${CALIBRATION_SPLITS.join(' + ')})`,
      'split               texts  section  division  class  | assignments  >=threshold  right above  texts with a code >=threshold',
    ];
    for (const split of SPLITS) {
      const s = scores[split];
      lines.push(`${split.padEnd(18)} ${String(s.texts).padStart(6)}  ${pct(s.section, s.texts).padStart(7)}  ${pct(s.division, s.texts).padStart(8)}  `
        + `${pct(s.class, s.texts).padStart(5)}  | ${String(s.assignments).padStart(11)}  ${String(s.above).padStart(11)}  `
        + `${pct(s.aboveRight, s.above).padStart(11)}  ${pct(s.textsAbove, s.texts).padStart(9)}`);
    }
    console.log(lines.join('\n'));
    const show = process.env.OENACE_EVAL_SPLIT as EvaluationSplit | undefined;
    if (show === 'dev' || show === 'blind-calibration') {
      for (const r of of(show)) {
        const primary = classify(r.text).find((o) => o.isPrimary)?.code ?? 'none';
        if (primary.slice(0, 7) !== r.label) console.log(`${r.id} ${r.label} <- ${primary}: ${r.text}`);
      }
    }
    for (const split of MEASURED) {
      const s = scores[split];
      expect(s.section / s.texts, `${split} section`).toBeGreaterThanOrEqual(0.9);
      expect(s.division / s.texts, `${split} division`).toBeGreaterThanOrEqual(0.8);
      expect(s.class / s.texts, `${split} class`).toBeGreaterThanOrEqual(0.6);
    }
  });

  it('is calibrated: assignments at or above the threshold are right at least 95 % of the time', () => {
    for (const split of MEASURED) {
      const s = scores[split];
      expect(s.aboveRight / s.above, `${split} precision above`).toBeGreaterThanOrEqual(0.95);
      // Not calibrated trivially: a threshold nothing passes would be right every time.
      expect(s.textsAbove / s.texts, `${split} texts with a code above`).toBeGreaterThanOrEqual(split === 'blind-test' ? 0.3 : 0.6);
    }
  });
});
