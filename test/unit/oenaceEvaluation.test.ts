// The ÖNACE classifier against the hand-labelled business purposes (fixtures/oenace/README.md): the
// accuracy table per split at section, division and class level, the targets, and the calibration of
// the confidence (assignments at or above the threshold are right at least 95 % of the time).
// OENACE_EVAL_SPLIT=dev (or heldout) also prints that split's misclassified texts.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { OenaceClassifier } from '../../pipeline/oenace/classify.js';
import { OENACE_CONFIDENCE_THRESHOLD } from '../../schemas/oenaceAssignment.js';

interface Labelled { id: string; split: string; class: string; also: string; text: string }

const rows = parse(readFileSync(new URL('../../fixtures/oenace/business_purposes.csv', import.meta.url), 'utf8'), { columns: true }) as Labelled[];
const catalogue = parse(readFileSync(new URL('../../pipeline/catalogues/data/oenace2008_bilingual.csv', import.meta.url), 'utf8'), { columns: true }) as Array<{ level: string; code: string }>;
const classes = new Set(catalogue.filter((c) => c.level === '4').map((c) => c.code));
const classifier = new OenaceClassifier();

interface Score { n: number; section: number; division: number; class: number; above: number; aboveRight: number; assignments: number }

function evaluate(split: string): { score: Score; misses: string[] } {
  const score: Score = { n: 0, section: 0, division: 0, class: 0, above: 0, aboveRight: 0, assignments: 0 };
  const misses: string[] = [];
  for (const r of rows.filter((x) => x.split === split)) {
    const out = classifier.classify({ purposeText: r.text, tradeKeys: [] });
    const primary = out.find((o) => o.isPrimary)?.code ?? '';
    const labels = [r.class, ...r.also.split(';').filter(Boolean)];
    score.n++;
    // Codes are 'C 10.71-1': the section is the letter, the division 'C 10', the class 'C 10.71'.
    if (primary.slice(0, 1) === r.class.slice(0, 1)) score.section++;
    if (primary.slice(0, 4) === r.class.slice(0, 4)) score.division++;
    if (primary.slice(0, 7) === r.class) score.class++;
    else misses.push(`${r.id} ${r.class} <- ${primary || 'none'}: ${r.text}`);
    for (const o of out) {
      score.assignments++;
      if (o.confidence < OENACE_CONFIDENCE_THRESHOLD) continue;
      score.above++;
      if (labels.includes(o.code.slice(0, 7))) score.aboveRight++;
    }
  }
  return { score, misses };
}

const results = { dev: evaluate('dev'), heldout: evaluate('heldout') };
const pct = (a: number, b: number) => (b === 0 ? '-' : (a / b).toFixed(3));

describe('ÖNACE evaluation set', () => {
  it('is at least 300 texts, every label an ÖNACE 2008 class, split by the SHA-1 of the text', () => {
    expect(rows.length).toBeGreaterThanOrEqual(300);
    for (const r of rows) {
      for (const label of [r.class, ...r.also.split(';').filter(Boolean)]) expect(classes.has(label), `${r.id} ${label}`).toBe(true);
      const first = createHash('sha1').update(r.text, 'utf8').digest('hex')[0]!;
      expect(r.split, r.id).toBe('01234567'.includes(first) ? 'dev' : 'heldout');
    }
    expect(new Set(rows.map((r) => r.text)).size).toBe(rows.length);
  });

  it('prints the accuracy table and meets the targets on both splits', () => {
    const lines = [
      `ÖNACE classifier, ${rows.length} labelled business purposes (threshold ${OENACE_CONFIDENCE_THRESHOLD})`,
      'split     texts  section  division  class  | assignments  >=threshold  right above',
    ];
    for (const [split, { score }] of Object.entries(results)) {
      lines.push(`${split.padEnd(8)} ${String(score.n).padStart(6)}  ${pct(score.section, score.n).padStart(7)}  ${pct(score.division, score.n).padStart(8)}  ${pct(score.class, score.n).padStart(5)}  | `
        + `${String(score.assignments).padStart(11)}  ${String(score.above).padStart(11)}  ${pct(score.aboveRight, score.above).padStart(11)}`);
    }
    console.log(lines.join('\n'));
    const show = process.env.OENACE_EVAL_SPLIT as keyof typeof results | undefined;
    if (show && results[show]) console.log(results[show].misses.join('\n'));
    for (const [split, { score }] of Object.entries(results)) {
      expect(score.section / score.n, `${split} section`).toBeGreaterThanOrEqual(0.9);
      expect(score.division / score.n, `${split} division`).toBeGreaterThanOrEqual(0.8);
      expect(score.class / score.n, `${split} class`).toBeGreaterThanOrEqual(0.6);
    }
  });

  it('is calibrated: assignments at or above the threshold are right at least 95 % of the time', () => {
    for (const [split, { score }] of Object.entries(results)) {
      // Most assignments clear the threshold: a threshold nothing passes would be calibrated trivially.
      expect(score.above / score.assignments, `${split} share above`).toBeGreaterThanOrEqual(0.5);
      expect(score.aboveRight / score.above, `${split} precision above`).toBeGreaterThanOrEqual(0.95);
    }
  });
});
