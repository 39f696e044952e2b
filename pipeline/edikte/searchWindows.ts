// The official change recipe of the IWG interface as date searches, and what to do when a search hits
// the server's cap of 5000 results: the window is halved by date until it does not, and a single day
// that still does is split by Bundesland. A run is done when every window of its tree is, leaf by leaf
// (the split tree is kept in crawl_state, so a restarted crawl knows what is left). Pure functions.
import { z } from 'zod';

/** The server returns at most this many results for a search (IWG interface notes). */
export const SEARCH_CAP = 5000;

export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'yyyy-mm-dd');

/** Inclusive dates; `to` null = open-ended (the recipe's `>= date`); `part` a Bundesland_Code, or `-` for none. */
export const searchWindow = z.object({ from: isoDate, to: isoDate.nullable(), part: z.string().max(2).optional() });
export type SearchWindow = z.infer<typeof searchWindow>;

/** Bundesland_Code values (0 Wien ... 8 Vbg, 9 abroad, A Österreich) and `-` for edicts without one. */
export const STATE_PARTS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', '-'] as const;

export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const de = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;

/** `[field]` within the window: `>= from`, and `< to + 1 day` (date-time fields compare up to midnight). */
function range(field: string, w: SearchWindow): string {
  const lower = `([${field}]>=${de(w.from)})`;
  return w.to === null ? lower : `(${lower}AND([${field}]<${de(addDays(w.to, 1))}))`;
}

function part(w: SearchWindow): string {
  if (w.part === undefined) return '';
  return w.part === '-' ? 'AND(NOT([Bundesland_Code] IS PRESENT))' : `AND([Bundesland_Code]=${w.part})`;
}

/**
 * The search of a window: for `All` the recipe's `([Dat_Akt_Bekanntmachung]>=D)OR([Dat_Ori_Bekanntmachung]>=D)`
 * (bounded when split), for `Deletions` `([Dat_Loeschung]>=D)`.
 */
export function windowSearch(view: 'All' | 'Deletions', w: SearchWindow): string {
  const dates = view === 'All' ? `${range('Dat_Akt_Bekanntmachung', w)}OR${range('Dat_Ori_Bekanntmachung', w)}` : range('Dat_Loeschung', w);
  return w.part === undefined ? dates : `(${dates})${part(w)}`;
}

export function windowKey(w: SearchWindow): string {
  return `${w.from}..${w.to ?? ''}${w.part !== undefined ? `#${w.part}` : ''}`;
}

/**
 * The windows a capped one splits into (empty: it cannot be split further). An open window ends at
 * `today` (its rest is a window of its own); a longer one is halved; one day goes by Bundesland.
 */
export function splitWindow(w: SearchWindow, today: string): SearchWindow[] {
  if (w.part !== undefined) return [];
  if (w.to === null) {
    const end = w.from > today ? w.from : today;
    return [{ from: w.from, to: end }, { from: addDays(end, 1), to: null }];
  }
  if (w.from < w.to) {
    const days = Math.round((Date.parse(`${w.to}T00:00:00Z`) - Date.parse(`${w.from}T00:00:00Z`)) / 86_400_000);
    const mid = addDays(w.from, Math.floor(days / 2));
    return [{ from: w.from, to: mid }, { from: addDays(mid, 1), to: w.to }];
  }
  return STATE_PARTS.map((p) => ({ ...w, part: p }));
}

/** A change run's split tree: which windows are done, and which were split into which. */
export interface RunTree {
  root: string;
  done: string[];
  split: Record<string, string[]>;
}

export function newRunTree(root: SearchWindow): RunTree {
  return { root: windowKey(root), done: [], split: {} };
}

/** Whether a window is done: searched to its last page, or split into windows that all are. */
export function windowComplete(tree: RunTree, key: string = tree.root, depth = 0): boolean {
  if (tree.done.includes(key)) return true;
  const children = tree.split[key];
  // The depth bound only guards against a corrupt tree; real trees are a few dozen levels at most.
  return children !== undefined && depth < 200 && children.every((c) => windowComplete(tree, c, depth + 1));
}
