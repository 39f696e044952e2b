// The change recipe's searches (pipeline/edikte/searchWindows.ts): the official query, how a window
// that reaches the 5000 cap is split, and when a run's split tree is complete.
import { describe, expect, it } from 'vitest';
import { parseSearch } from '../../pipeline/edikte/fake/searchQuery.js';
import { newRunTree, splitWindow, STATE_PARTS, windowComplete, windowKey, windowSearch, type SearchWindow } from '../../pipeline/edikte/searchWindows.js';

describe('windowSearch', () => {
  it('writes the official recipe for an open window, and bounds a split one on both date fields', () => {
    expect(windowSearch('All', { from: '2026-11-24', to: null })).toBe('([Dat_Akt_Bekanntmachung]>=24.11.2026)OR([Dat_Ori_Bekanntmachung]>=24.11.2026)');
    expect(windowSearch('Deletions', { from: '2026-11-24', to: null })).toBe('([Dat_Loeschung]>=24.11.2026)');
    expect(windowSearch('All', { from: '2026-11-01', to: '2026-11-15' })).toBe(
      '(([Dat_Akt_Bekanntmachung]>=01.11.2026)AND([Dat_Akt_Bekanntmachung]<16.11.2026))OR(([Dat_Ori_Bekanntmachung]>=01.11.2026)AND([Dat_Ori_Bekanntmachung]<16.11.2026))',
    );
    expect(windowSearch('Deletions', { from: '2026-11-01', to: '2026-11-01', part: '3' })).toBe('((([Dat_Loeschung]>=01.11.2026)AND([Dat_Loeschung]<02.11.2026)))AND([Bundesland_Code]=3)');
    expect(windowSearch('All', { from: '2026-11-01', to: '2026-11-01', part: '-' })).toMatch(/AND\(NOT\(\[Bundesland_Code\] IS PRESENT\)\)$/);
  });

  it('selects what the window covers: an edict by either of its dates, a deletion-time by its day', () => {
    const edict = { Dat_Ori_Bekanntmachung: '2026-10-03', Dat_Akt_Bekanntmachung: '2026-11-15', Bundesland_Code: '3' };
    const hit = (w: SearchWindow, doc: Record<string, unknown> = edict, view: 'All' | 'Deletions' = 'All') => parseSearch(windowSearch(view, w))(doc);
    expect(hit({ from: '2026-11-15', to: null })).toBe(true);
    expect(hit({ from: '2026-11-16', to: null })).toBe(false);
    expect(hit({ from: '2026-10-01', to: '2026-10-05' })).toBe(true);
    expect(hit({ from: '2026-10-04', to: '2026-11-14' })).toBe(false);
    expect(hit({ from: '2026-11-15', to: '2026-11-15', part: '3' })).toBe(true);
    expect(hit({ from: '2026-11-15', to: '2026-11-15', part: '4' })).toBe(false);
    expect(hit({ from: '2026-11-22', to: '2026-11-22' }, { Dat_Loeschung: '2026-11-22T23:12:41Z' }, 'Deletions')).toBe(false);
    expect(hit({ from: '2026-11-23', to: '2026-11-23' }, { Dat_Loeschung: '2026-11-22T23:12:41Z' }, 'Deletions')).toBe(true);
  });
});

describe('splitWindow', () => {
  it('ends an open window at today, halves a longer one, and splits a day by Bundesland', () => {
    expect(splitWindow({ from: '2026-11-01', to: null }, '2026-11-25')).toEqual([{ from: '2026-11-01', to: '2026-11-25' }, { from: '2026-11-26', to: null }]);
    expect(splitWindow({ from: '2026-11-01', to: '2026-11-25' }, '2026-11-25')).toEqual([{ from: '2026-11-01', to: '2026-11-13' }, { from: '2026-11-14', to: '2026-11-25' }]);
    expect(splitWindow({ from: '2026-11-01', to: '2026-11-02' }, '2026-11-25')).toEqual([{ from: '2026-11-01', to: '2026-11-01' }, { from: '2026-11-02', to: '2026-11-02' }]);
    const day = splitWindow({ from: '2026-11-01', to: '2026-11-01' }, '2026-11-25');
    expect(day.map((w) => w.part)).toEqual([...STATE_PARTS]);
    expect(splitWindow(day[0]!, '2026-11-25')).toEqual([]);
  });

  it('covers every day of the window exactly once, however deep it splits', () => {
    const leaves = (w: SearchWindow, depth: number): SearchWindow[] => (depth === 0 ? [w] : splitWindow(w, '2026-11-25').flatMap((c) => leaves(c, depth - 1)));
    const days = leaves({ from: '2026-10-01', to: '2026-11-19' }, 4).flatMap((w) => {
      const out: string[] = [];
      for (let d = w.from; d <= w.to!; d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) out.push(d);
      return out;
    });
    expect(days).toHaveLength(50);
    expect(new Set(days).size).toBe(50);
  });
});

describe('windowComplete', () => {
  it('is complete when the root is done, or every leaf of its splits is', () => {
    const root: SearchWindow = { from: '2026-11-01', to: null };
    const tree = newRunTree(root);
    expect(windowComplete(tree)).toBe(false);
    const [a, b] = splitWindow(root, '2026-11-25');
    tree.split[windowKey(root)] = [windowKey(a!), windowKey(b!)];
    tree.done.push(windowKey(b!));
    expect(windowComplete(tree)).toBe(false);
    const halves = splitWindow(a!, '2026-11-25');
    tree.split[windowKey(a!)] = halves.map(windowKey);
    tree.done.push(windowKey(halves[1]!));
    expect(windowComplete(tree)).toBe(false);
    tree.done.push(windowKey(halves[0]!));
    expect(windowComplete(tree)).toBe(true);
  });
});
