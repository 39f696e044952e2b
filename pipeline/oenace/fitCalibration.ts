// Fits the calibration table (calibration.ts) from labelled assignments: per cell the share right, each
// cell shrunk towards its coarser parent (a cell with few texts says little on its own), non-decreasing in
// the lexicon weight within its kind. Dev texts count a quarter each: they were written together with
// the lexicon, so they are right far more often than text from another writer (docs/oenace.md).
// Deterministic: the same texts and classifier give the same table, byte for byte.
import type { OenaceClassifier } from './classify.js';
import { cellKeys, type AssignmentFeatures, type CalibrationCell, type CalibrationTable } from './calibration.js';
import { CALIBRATION_SPLITS, isRight, type LabelledPurpose } from './evaluationSets.js';

/** How much one dev assignment counts against one from the blind set's calibration half. */
export const DEV_WEIGHT = 0.25;
/** Pseudo-observations of the parent cell's share added to each cell. */
export const PRIOR_STRENGTH = 8;

export interface Sample {
  features: AssignmentFeatures;
  right: boolean;
  fromDev: boolean;
}

/** Every assignment the classifier gives the texts of the calibration splits, right or not. */
export function calibrationSamples(classifier: OenaceClassifier, rows: LabelledPurpose[]): Sample[] {
  const out: Sample[] = [];
  for (const row of rows) {
    if (!CALIBRATION_SPLITS.includes(row.split)) continue;
    for (const a of classifier.explain({ purposeText: row.text, tradeKeys: [] })) {
      out.push({ features: a.features, right: isRight(a.code, row), fromDev: row.split === 'dev' });
    }
  }
  return out;
}

interface Counts { dev: [number, number]; blind: [number, number] }

export function fitCalibration(samples: Sample[]): CalibrationTable {
  const counts = new Map<string, Counts>();
  for (const s of samples) {
    if (s.features.kind === 'tradeKey') continue;
    for (const key of cellKeys(s.features)) {
      const c = counts.get(key) ?? { dev: [0, 0], blind: [0, 0] };
      const side = s.fromDev ? c.dev : c.blind;
      side[0]++;
      if (s.right) side[1]++;
      counts.set(key, c);
    }
  }
  const effective = (c: Counts) => ({ n: DEV_WEIGHT * c.dev[0] + c.blind[0], r: DEV_WEIGHT * c.dev[1] + c.blind[1] });
  const estimate = new Map<string, number>();
  // Coarsest first, so every parent is known before its children ('all' has a uniform prior).
  const keys = [...counts.keys()].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1));
  for (const key of keys) {
    const { n, r } = effective(counts.get(key)!);
    const parent = key === 'all' ? 0.5 : estimate.get(parentOf(key))!;
    estimate.set(key, (r + PRIOR_STRENGTH * parent) / (n + PRIOR_STRENGTH));
  }
  monotoneInWeight(estimate, counts, effective);

  const cells: Record<string, CalibrationCell> = {};
  for (const key of keys) {
    const c = counts.get(key)!;
    cells[key] = { dev: c.dev, blind: c.blind, confidence: Math.round(estimate.get(key)! * 100) / 100 };
  }
  return {
    method: `npm run oenace:calibrate: share right per cell over the splits ${CALIBRATION_SPLITS.join(', ')} `
      + `(dev assignments weighted ${DEV_WEIGHT}), each cell shrunk to its parent with ${PRIOR_STRENGTH} pseudo-observations, `
      + 'non-decreasing in the lexicon weight (pool adjacent violators); cells: kind/role/directness/weight',
    cells,
  };
}

/** Levels as cellKeys gives them: all, kind, kind/role/directness, kind/role/directness/weight. */
function depth(key: string): number {
  return key === 'all' ? 0 : [0, 1, 0, 2, 3][key.split('/').length]!;
}

function parentOf(key: string): string {
  const parts = key.split('/');
  return parts.length === 1 ? 'all' : parts.length === 3 ? parts[0]! : parts.slice(0, 3).join('/');
}

const BINS = ['w00', 'w85', 'w90'];

/** Pool adjacent violators over the weight bins of each kind: a surer phrase is never trusted less. */
function monotoneInWeight(estimate: Map<string, number>, counts: Map<string, Counts>, effective: (c: Counts) => { n: number }): void {
  const groups = new Set([...estimate.keys()].filter((k) => depth(k) === 3).map(parentOf));
  for (const group of [...groups].sort()) {
    const blocks: Array<{ keys: string[]; value: number; mass: number }> = [];
    for (const bin of BINS) {
      const key = `${group}/${bin}`;
      if (!estimate.has(key)) continue;
      blocks.push({ keys: [key], value: estimate.get(key)!, mass: effective(counts.get(key)!).n + PRIOR_STRENGTH });
      while (blocks.length > 1 && blocks.at(-2)!.value > blocks.at(-1)!.value) {
        const b = blocks.pop()!;
        const a = blocks.pop()!;
        blocks.push({ keys: [...a.keys, ...b.keys], value: (a.value * a.mass + b.value * b.mass) / (a.mass + b.mass), mass: a.mass + b.mass });
      }
    }
    for (const b of blocks) for (const k of b.keys) estimate.set(k, b.value);
  }
}

/** The table as checked in: stable key order, one cell a line. */
export function renderCalibrationTable(table: CalibrationTable): string {
  const cells = Object.entries(table.cells).map(([k, c]) => `    ${JSON.stringify(k)}: ${JSON.stringify(c)}`);
  return `{\n  "method": ${JSON.stringify(table.method)},\n  "cells": {\n${cells.join(',\n')}\n  }\n}\n`;
}
