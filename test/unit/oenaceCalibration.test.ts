// The calibration fitter on made-up samples: a cell's confidence is its share right shrunk towards its
// parent, dev samples count a quarter, confidence never falls as the lexicon weight rises, vague readings
// are judged apart, and a cell without data answers with its kind.
import { describe, expect, it } from 'vitest';
import { calibratedConfidence, cellKeys, type AssignmentFeatures } from '../../pipeline/oenace/calibration.js';
import { DEV_WEIGHT, PRIOR_STRENGTH, fitCalibration, renderCalibrationTable, type Sample } from '../../pipeline/oenace/fitCalibration.js';

const sole = (weight: number, kind: AssignmentFeatures['kind'] = 'phrase'): AssignmentFeatures =>
  ({ kind, weight, isPrimary: true, indirect: false, assignments: 1 });
const samples = (f: AssignmentFeatures, right: number, wrong: number, fromDev = false): Sample[] => [
  ...Array.from({ length: right }, () => ({ features: f, right: true, fromDev })),
  ...Array.from({ length: wrong }, () => ({ features: f, right: false, fromDev })),
];

describe('ÖNACE calibration', () => {
  it('keys a reading by kind, role, directness and weight, vague readings apart', () => {
    expect(cellKeys(sole(0.9))).toEqual(['all', 'phrase', 'phrase/sole/direct', 'phrase/sole/direct/w90']);
    expect(cellKeys({ ...sole(0.8, 'domainOtherVerb'), isPrimary: false, indirect: true, assignments: 2 }))
      .toEqual(['all', 'domainDefault', 'domainDefault/secondary/indirect', 'domainDefault/secondary/indirect/w00']);
    expect(cellKeys(sole(0.6))[1]).toBe('vague');
    expect(cellKeys(sole(0.3, 'catalogue'))[1]).toBe('catalogue');
  });

  it('shrinks each cell towards its parent and counts a dev sample a quarter', () => {
    const secondary = { ...sole(0.9), isPrimary: false, assignments: 2 };
    const table = fitCalibration([...samples(sole(0.9), 40, 0), ...samples(sole(0.9), 0, 40, true), ...samples(secondary, 0, 40)]);
    const cell = table.cells['phrase/sole/direct/w90']!;
    expect(cell.dev).toEqual([40, 0]);
    expect(cell.blind).toEqual([40, 40]);
    // 40 right of 40 + 40 * DEV_WEIGHT effective samples, pulled a little towards the parents (which hold
    // the secondaries, all wrong).
    expect(cell.confidence).toBeCloseTo(40 / (40 + 40 * DEV_WEIGHT), 1);
    expect(cell.confidence).toBeLessThan(40 / (40 + 40 * DEV_WEIGHT));
    expect(PRIOR_STRENGTH).toBeGreaterThan(0);
  });

  it('never trusts a surer phrase less, judges vague readings apart, falls back to the kind', () => {
    const table = fitCalibration([
      ...samples(sole(0.8), 30, 0), ...samples(sole(0.9), 27, 3), ...samples(sole(0.6), 2, 8),
      ...samples({ ...sole(0.9, 'domainVerb'), isPrimary: false, assignments: 2 }, 1, 9),
    ]);
    const w80 = calibratedConfidence(table, sole(0.8));
    const w90 = calibratedConfidence(table, sole(0.9));
    expect(w90).toBeGreaterThanOrEqual(w80);
    expect(w80).toBe(w90); // pooled: 30 of 30 below 27 of 30 is a violation
    expect(calibratedConfidence(table, sole(0.6))).toBeLessThan(0.5);
    // No sole domain reading was seen: its kind (all of them secondaries, mostly wrong) answers.
    expect(calibratedConfidence(table, sole(0.9, 'domainVerb'))).toBe(table.cells.domainVerb!.confidence);
    expect(renderCalibrationTable(table)).toBe(renderCalibrationTable(fitCalibration([
      ...samples(sole(0.8), 30, 0), ...samples(sole(0.9), 27, 3), ...samples(sole(0.6), 2, 8),
      ...samples({ ...sole(0.9, 'domainVerb'), isPrimary: false, assignments: 2 }, 1, 9),
    ])));
  });
});
