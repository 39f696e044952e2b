// Where the Ediktsdatei crawl stands, in crawl_state (source `edikte`), so a restart continues:
//   full              the first page-through of `All`: its run, start date and next page (the cursor);
//                     watermark = the day it completed
//   changes.<view>    the change recipe per view: watermark = the day of the last run that completed,
//                     state = the current run and its split tree (searchWindows.ts)
//   link-cursor       watermark = the last business change id re-linking has looked at
// Every update reads the row FOR UPDATE in its own transaction: page jobs of one run may finish together.
import type { Sql, TransactionSql } from '../../runtime/db.js';
import { newRunTree, windowComplete, windowKey, type RunTree, type SearchWindow } from './searchWindows.js';

const SOURCE = 'edikte';

export interface FullCrawl {
  run: string;
  startedOn: string;
  /** Every page below it is done: where a restarted crawl continues. */
  nextPage: number;
  /** Pages above nextPage already done (pages run in parallel). */
  done?: number[];
  total: number | null;
}

export interface ChangeRun {
  run: string;
  /** The date the run started: the watermark once it completes. */
  runDate: string;
  tree: RunTree;
}

interface Row<S> {
  watermark: string | null;
  state: S | Record<string, never>;
}

async function read<S>(sql: Sql | TransactionSql, key: string, lock = false): Promise<Row<S> | null> {
  const [row] = lock
    ? await sql<Row<S>[]>`SELECT watermark, state FROM crawl_state WHERE source = ${SOURCE} AND key = ${key} FOR UPDATE`
    : await sql<Row<S>[]>`SELECT watermark, state FROM crawl_state WHERE source = ${SOURCE} AND key = ${key}`;
  return row ?? null;
}

async function write(sql: Sql | TransactionSql, key: string, watermark: string | null, state: unknown): Promise<void> {
  await sql`
    INSERT INTO crawl_state (source, key, watermark, state) VALUES (${SOURCE}, ${key}, ${watermark}, ${sql.json(state as Parameters<Sql['json']>[0])})
    ON CONFLICT (source, key) DO UPDATE SET watermark = EXCLUDED.watermark, state = EXCLUDED.state, updated_at = now()`;
}

const isFull = (s: unknown): s is FullCrawl => typeof (s as FullCrawl | null)?.run === 'string';
const isRun = (s: unknown): s is ChangeRun => typeof (s as ChangeRun | null)?.run === 'string';

/** The full page-through: null before one started; completedOn null until it has. */
export async function fullCrawl(sql: Sql): Promise<{ completedOn: string | null; crawl: FullCrawl | null }> {
  const row = await read<FullCrawl>(sql, 'full');
  return { completedOn: row?.watermark ?? null, crawl: row && isFull(row.state) ? row.state : null };
}

export async function startFullCrawl(sql: Sql, today: string, at: Date): Promise<FullCrawl> {
  const crawl = { run: `full-${at.toISOString()}`, startedOn: today, nextPage: 0, total: null };
  await write(sql, 'full', null, crawl);
  return crawl;
}

/**
 * Marks `page` done and moves the cursor over every page done in a row. `stale`: another run took over;
 * `complete`: every page of the view (by `total`) is done.
 */
export async function fullPageDone(sql: Sql, run: string, page: number, total: number | null, pageSize: number): Promise<'stale' | 'open' | 'complete'> {
  return sql.begin(async (tx) => {
    const row = await read<FullCrawl>(tx, 'full', true);
    if (!row || !isFull(row.state) || row.state.run !== run) return 'stale';
    const done = new Set([...(row.state.done ?? []), page]);
    let next = row.state.nextPage;
    while (done.has(next)) done.delete(next++);
    for (const p of done) if (p < next) done.delete(p);
    const known = total ?? row.state.total;
    await write(tx, 'full', row.watermark, { ...row.state, nextPage: next, done: [...done].sort((a, b) => a - b), total: known });
    return known !== null && next * pageSize >= known ? 'complete' : 'open';
  });
}

/** The page-through is complete: the change recipe takes over from the day it started (returned; null: stale run). */
export async function completeFullCrawl(sql: Sql, run: string, today: string): Promise<string | null> {
  return sql.begin(async (tx) => {
    const row = await read<FullCrawl>(tx, 'full', true);
    if (!row || !isFull(row.state) || row.state.run !== run) return null;
    await write(tx, 'full', today, row.state);
    for (const view of ['All', 'Deletions']) {
      const changes = await read<ChangeRun>(tx, `changes.${view}`, true);
      if (!changes?.watermark || changes.watermark < row.state.startedOn) await write(tx, `changes.${view}`, row.state.startedOn, changes?.state ?? {});
    }
    return row.state.startedOn;
  });
}

/** The watermark of a view's change recipe (the last completed run's date), null before any. */
export async function recipeWatermark(sql: Sql, view: string): Promise<string | null> {
  return (await read<ChangeRun>(sql, `changes.${view}`))?.watermark ?? null;
}

export async function startChangeRun(sql: Sql, view: string, run: string, runDate: string, root: SearchWindow): Promise<void> {
  await sql.begin(async (tx) => {
    const row = await read<ChangeRun>(tx, `changes.${view}`, true);
    await write(tx, `changes.${view}`, row?.watermark ?? null, { run, runDate, tree: newRunTree(root) } satisfies ChangeRun);
  });
}

async function updateRun(sql: Sql, view: string, run: string, change: (tree: RunTree) => void): Promise<'complete' | 'open' | 'stale'> {
  return sql.begin(async (tx) => {
    const row = await read<ChangeRun>(tx, `changes.${view}`, true);
    if (!row || !isRun(row.state) || row.state.run !== run) return 'stale';
    const { tree } = row.state;
    change(tree);
    const complete = windowComplete(tree);
    const watermark = complete && (!row.watermark || row.watermark < row.state.runDate) ? row.state.runDate : row.watermark;
    await write(tx, `changes.${view}`, watermark, row.state);
    return complete ? 'complete' : 'open';
  });
}

export function windowSplit(sql: Sql, view: string, run: string, window: SearchWindow, children: SearchWindow[]) {
  return updateRun(sql, view, run, (tree) => {
    tree.split[windowKey(window)] = children.map(windowKey);
  });
}

/** A window searched to its last page; 'complete' when that completes the run (the watermark moved). */
export function windowDone(sql: Sql, view: string, run: string, window: SearchWindow) {
  return updateRun(sql, view, run, (tree) => {
    const key = windowKey(window);
    if (!tree.done.includes(key)) tree.done.push(key);
  });
}

export async function linkCursor(sql: Sql): Promise<number> {
  return Number((await read(sql, 'link-cursor'))?.watermark ?? 0);
}

export async function setLinkCursor(sql: Sql, id: number): Promise<void> {
  await write(sql, 'link-cursor', String(id), {});
}
