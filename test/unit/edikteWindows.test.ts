// The change recipe's searches (pipeline/edikte/searchWindows.ts): the official query, how a window
// that reaches the 5000 cap is split, and when a run's split tree is complete; where the page-through's
// next page starts (keyset paging).
import { describe, expect, it } from 'vitest';
import { followingStart } from '../../pipeline/edikte/edikteJobs.js';
import { parseSearch } from '../../pipeline/edikte/fake/searchQuery.js';
import { IwgContentError } from '../../pipeline/edikte/iwgParser.js';
import {
  KEYS_PER_SEARCH, newRunTree, splitByCourt, splitByKeys, splitKind, splitWindow, STATE_PARTS, windowComplete, windowKey, windowSearch, type SearchWindow,
} from '../../pipeline/edikte/searchWindows.js';

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

describe('a day of deletions at the cap', () => {
  const day: SearchWindow = { from: '2026-11-05', to: '2026-11-05' };
  const deletion = (key: string) => ({ AZKey: key, Gericht_Code: key.slice(0, 3), Dat_Loeschung: '2026-11-05T10:00:00Z' });

  it('splits by court, then by the keys held (Loeschung documents carry no Bundesland), and a key search is a leaf', () => {
    expect(splitKind('Deletions', { from: '2026-11-01', to: null })).toBe('dates');
    expect(splitKind('Deletions', day)).toBe('courts');
    expect(splitKind('All', day)).toBe('states');
    expect(splitKind('All', { ...day, part: '3' })).toBeNull();
    const courts = splitByCourt(day, ['458', '007', '458']);
    expect(courts).toEqual([{ ...day, court: '007' }, { ...day, court: '458' }]);
    expect(splitKind('Deletions', courts[0]!)).toBe('keys');
    const keys = Array.from({ length: 2 * KEYS_PER_SEARCH + 1 }, (_, i) => `007038S${String(i).padStart(5, '0')}26001`);
    const chunks = splitByKeys(courts[0]!, [...keys].reverse());
    expect(chunks.map((c) => c.keys!.length)).toEqual([KEYS_PER_SEARCH, KEYS_PER_SEARCH, 1]);
    expect(chunks.flatMap((c) => c.keys)).toEqual(keys);
    expect(new Set(chunks.map(windowKey)).size).toBe(3);
    expect(splitKind('Deletions', chunks[0]!)).toBeNull();
    expect(splitByCourt(day, [])).toEqual([]);
  });

  it('selects a court\'s deletions of the day, and exactly the keys of a key search', () => {
    const hit = (w: SearchWindow, key: string) => parseSearch(windowSearch('Deletions', w))(deletion(key));
    expect(hit({ ...day, court: '007' }, '007038S0000126001')).toBe(true);
    expect(hit({ ...day, court: '007' }, '458038S0000126001')).toBe(false);
    const w = { ...day, court: '007', keys: ['007038S0000126001', '007038S0000326001'] };
    expect(windowSearch('Deletions', w)).toBe('((([Dat_Loeschung]>=05.11.2026)AND([Dat_Loeschung]<06.11.2026)))AND(([AZKey]=007038S0000126001)OR([AZKey]=007038S0000326001))');
    expect(['007038S0000126001', '007038S0000226001', '007038S0000326001'].map((k) => hit(w, k))).toEqual([true, false, true]);
    expect(hit({ from: '2026-11-06', to: '2026-11-06', keys: ['007038S0000126001'] }, '007038S0000126001')).toBe(false);
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

describe('followingStart (keyset paging of the page-through)', () => {
  const entry = (unid: string, aktenzeichen: string | null) => ({ unid, form: 'Edikt', aktenzeichen, ediktId: null, deletedAt: null });

  it('starts the next page at the last entry\'s key and skips what a start there reads again', () => {
    const page = [entry('A1', '013 001 S 00002/17'), entry('A2', '013 001 S 00003/17'), entry('A3', '013 001 S 00003/17'), entry('A4', null)];
    expect(followingStart(page)).toEqual({ key: '013001S0000317', skip: ['A2', 'A3', 'A4'] });
  });

  it('adds to what it skips when a whole page sorts at the key it started at, and refuses a page without keys', () => {
    const page = [entry('B1', '013 001 S 00003/17'), entry('B2', '013 001 S 00003/17')];
    expect(followingStart(page, { key: '013001S0000317', skip: ['A2', 'A3'] })).toEqual({ key: '013001S0000317', skip: ['A2', 'A3', 'B1', 'B2'] });
    expect(() => followingStart([entry('C1', null)])).toThrow(IwgContentError);
  });
});
