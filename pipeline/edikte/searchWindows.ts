// The official change recipe of the IWG interface as date searches, and what to do when a search hits
// the server's cap of 5000 results: the window is halved by date until it does not; a single day of
// `All` is split by Bundesland; a single day of `Deletions` (whose documents have no Bundesland) by
// court, then by the AZKeys held here, 50 to a search, which cannot reach the cap. A leaf that still
// does fails its run. A run is done when every window of its tree is, leaf by leaf (the split tree is
// kept in crawl_state, so a restarted crawl knows what is left). Pure functions.
import { z } from 'zod';

/** The server returns at most this many results for a search (IWG interface notes). */
export const SEARCH_CAP = 5000;

export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'yyyy-mm-dd');

/** AZKeys in one search of a day's deletions: ~2 KB of URL, well below what servers take. */
export const KEYS_PER_SEARCH = 50;

/**
 * Inclusive dates; `to` null = open-ended (the recipe's `>= date`); `part` a Bundesland_Code, or `-` for
 * none (All); `court` a Gericht_Code and `keys` AZKeys (Deletions, the fields a Loeschung carries).
 */
export const searchWindow = z.object({
  from: isoDate, to: isoDate.nullable(), part: z.string().max(2).optional(),
  court: z.string().regex(/^\d{3}$/).optional(), keys: z.array(z.string().regex(/^[^\s()[\]"=<>]{1,40}$/, 'an AZKey')).min(1).max(KEYS_PER_SEARCH).optional(),
});
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
  if (w.keys !== undefined) return `AND(${w.keys.map((k) => `([AZKey]=${k})`).join('OR')})`;
  if (w.court !== undefined) return `AND([Gericht_Code]=${w.court})`;
  if (w.part === undefined) return '';
  return w.part === '-' ? 'AND(NOT([Bundesland_Code] IS PRESENT))' : `AND([Bundesland_Code]=${w.part})`;
}

const narrowed = (w: SearchWindow) => w.part !== undefined || w.court !== undefined || w.keys !== undefined;

/**
 * The search of a window: for `All` the recipe's `([Dat_Akt_Bekanntmachung]>=D)OR([Dat_Ori_Bekanntmachung]>=D)`
 * (bounded when split), for `Deletions` `([Dat_Loeschung]>=D)`.
 */
export function windowSearch(view: 'All' | 'Deletions', w: SearchWindow): string {
  const dates = view === 'All' ? `${range('Dat_Akt_Bekanntmachung', w)}OR${range('Dat_Ori_Bekanntmachung', w)}` : range('Dat_Loeschung', w);
  return narrowed(w) ? `(${dates})${part(w)}` : dates;
}

export function windowKey(w: SearchWindow): string {
  const narrow = w.keys !== undefined ? `#${w.court ?? ''}#${w.keys[0]}+${w.keys.length}` : w.court !== undefined ? `#${w.court}` : w.part !== undefined ? `#${w.part}` : '';
  return `${w.from}..${w.to ?? ''}${narrow}`;
}

/**
 * How a capped window splits next: by date; a day of All by Bundesland; a day of Deletions by court,
 * then by the AZKeys held of that court (the caller reads those). Null: a leaf, it cannot be split.
 */
export function splitKind(view: 'All' | 'Deletions', w: SearchWindow): 'dates' | 'states' | 'courts' | 'keys' | null {
  if (w.keys !== undefined) return null;
  if (w.to === null || w.from < w.to) return 'dates';
  if (view === 'All') return w.part === undefined ? 'states' : null;
  return w.court === undefined ? 'courts' : 'keys';
}

/**
 * A day's deletions by the courts of the notices held here: a deletion of anything else erases nothing,
 * so the courts we hold nothing of are left out (none held: no window, the day is done).
 */
export function splitByCourt(w: SearchWindow, courts: string[]): SearchWindow[] {
  return [...new Set(courts)].sort().map((court) => ({ from: w.from, to: w.to, court }));
}

/** A court's deletions of a day by the AZKeys held of it, KEYS_PER_SEARCH to a search. */
export function splitByKeys(w: SearchWindow, keys: string[], size = KEYS_PER_SEARCH): SearchWindow[] {
  const sorted = [...new Set(keys)].sort();
  const out: SearchWindow[] = [];
  for (let i = 0; i < sorted.length; i += size) out.push({ ...w, keys: sorted.slice(i, i + size) });
  return out;
}

/**
 * The windows a capped one splits into by date, or a day of All by Bundesland (empty: it cannot be
 * split so). An open window ends at `today` (its rest is a window of its own); a longer one is halved.
 */
export function splitWindow(w: SearchWindow, today: string): SearchWindow[] {
  if (narrowed(w)) return [];
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
