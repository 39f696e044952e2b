// npm run oenace:calibrate: fits the ÖNACE confidence calibration (pipeline/oenace/calibration.json) on
// the dev split and the blind set's calibration half, writes it, and prints for both fitting splits the
// share right and the coverage at each threshold, with the lowest threshold at which both reach 95 %
// (for reading: the threshold in use is the target itself, docs/oenace.md says why).
// Held-out and blind-test are never read here: the evaluation test measures them.
import { writeFileSync } from 'node:fs';
import { CALIBRATION_FILE } from '../../pipeline/oenace/calibration.js';
import { OenaceClassifier } from '../../pipeline/oenace/classify.js';
import { CALIBRATION_SPLITS, loadEvaluationSets, scoreSplit } from '../../pipeline/oenace/evaluationSets.js';
import { calibrationSamples, fitCalibration, renderCalibrationTable } from '../../pipeline/oenace/fitCalibration.js';
import { loadLexicon } from '../../pipeline/oenace/lexicon.js';
import { loadTradeKeyMap } from '../../pipeline/oenace/tradeKeys.js';
import { OENACE_CONFIDENCE_THRESHOLD } from '../../schemas/oenaceAssignment.js';
import { commandLine } from './args.js';

commandLine({
  usage: 'usage: npm run oenace:calibrate\n  Fits the ÖNACE confidence calibration on the dev split and the blind calibration half, '
    + 'writes pipeline/oenace/calibration.json and prints precision and coverage by threshold.',
  options: {},
});
const rows = loadEvaluationSets().filter((r) => CALIBRATION_SPLITS.includes(r.split));
const lexicon = loadLexicon();
const keys = loadTradeKeyMap();
const table = fitCalibration(calibrationSamples(new OenaceClassifier(lexicon, keys), rows));
writeFileSync(CALIBRATION_FILE, renderCalibrationTable(table));
console.log(`wrote ${CALIBRATION_FILE} (${Object.keys(table.cells).length} cells)`);

const calibrated = new OenaceClassifier(lexicon, keys, table);
const classify = (text: string) => calibrated.classify({ purposeText: text, tradeKeys: [] });
console.log('threshold | ' + CALIBRATION_SPLITS.map((s) => `${s}: right above, assignments above, texts with a code above`).join(' | '));
let chosen: number | null = null;
for (let t = 0.5; t <= 0.995; t += 0.01) {
  const threshold = Math.round(t * 100) / 100;
  const scores = CALIBRATION_SPLITS.map((split) => scoreSplit(classify, rows.filter((r) => r.split === split), threshold));
  const meets = scores.every((s) => s.above > 0 && s.aboveRight / s.above >= 0.95);
  if (meets && chosen === null) chosen = threshold;
  console.log(`${threshold.toFixed(2)}${meets ? '*' : ' '}     | ` + scores.map((s) =>
    `${(s.aboveRight / Math.max(s.above, 1)).toFixed(3)}, ${s.above} of ${s.assignments}, ${(s.textsAbove / s.texts).toFixed(3)}`).join(' | '));
}
console.log(`lowest threshold with >= 95 % right above it on both fitting splits: ${chosen ?? 'none'}; `
  + `in use: ${OENACE_CONFIDENCE_THRESHOLD} (schemas/oenaceAssignment.ts: only cells themselves estimated >= 95 % right count for search)`);
