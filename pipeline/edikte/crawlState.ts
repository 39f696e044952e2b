// Where the Ediktsdatei crawl stands, in crawl_state (source `edikte`), so a restart continues:
//   full              the first page-through of `All`: its run, start date and next page (the cursor);
//                     watermark = the day it completed
//   changes.<view>    the change recipe per view: watermark = the day of the last run that completed,
//                     state = the current run and its split tree (searchWindows.ts)
//   link-cursor       watermark = the last business change id re-linking has looked at
//   fetched           state.n = edicts fetched and stored since the last run reported them (pages and
//                     document jobs add to it; a completed run of All takes it: one report per run)
// Every update reads the row FOR UPDATE in its own transaction: page jobs of one run may finish together.
import type { Sql, TransactionSql } from '../../runtime/db.js';
import { newRunTree, windowComplete, windowKey, type RunTree, type SearchWindow } from './searchWindows.js';

const SOURCE = 'edikte';

/** Where a page of the page-through starts: at `key` (Domino's startkeys), without the entries in `skip` its page before read already. */
export interface PageStart {
  key: string;
  skip: string[];
}

export interface FullCrawl {
  run: string;
  startedOn: string;
  /** Every page below it is done: where a restarted crawl continues. */
  nextPage: number;
  /** Where nextPage starts (null: the view's first entry). */
  nextStart?: PageStart | null;
  /** Pages above nextPage already done (pages run in parallel), and where the page after each starts. */
  done?: number[];
  starts?: Record<string, PageStart>;
  /** The view's last page, once a page came back short. */
  lastPage?: number;
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
 * Marks `page` done, with where the page after it starts (null: it was the view's last page), and moves
 * the cursor over every page done in a row. `stale`: another run took over; `complete`: every page up
 * to the last one is done.
 */
export async function fullPageDone(sql: Sql, run: string, page: number, following: PageStart | null, total: number | null): Promise<'stale' | 'open' | 'complete'> {
  return sql.begin(async (tx) => {
    const row = await read<FullCrawl>(tx, 'full', true);
    if (!row || !isFull(row.state) || row.state.run !== run) return 'stale';
    const done = new Set([...(row.state.done ?? []), page]);
    const starts: Record<string, PageStart> = { ...row.state.starts };
    if (following) starts[page + 1] = following;
    const lastPage = following ? row.state.lastPage : page;
    let next = row.state.nextPage;
    let nextStart = row.state.nextStart ?? null;
    while (done.has(next)) {
      done.delete(next++);
      nextStart = starts[next] ?? nextStart;
    }
    for (const p of done) if (p < next) done.delete(p);
    for (const p of Object.keys(starts)) if (Number(p) <= next) delete starts[p];
    const state: FullCrawl = {
      ...row.state, nextPage: next, nextStart, done: [...done].sort((a, b) => a - b), starts, total: total ?? row.state.total,
      ...(lastPage !== undefined ? { lastPage } : {}),
    };
    await write(tx, 'full', row.watermark, state);
    return lastPage !== undefined && next > lastPage ? 'complete' : 'open';
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

/** Edicts a page or document job stored: counted until the run that completes next reports them. */
export async function addFetched(sql: Sql, n: number): Promise<void> {
  if (n <= 0) return;
  await sql`
    INSERT INTO crawl_state (source, key, state) VALUES (${SOURCE}, 'fetched', ${sql.json({ n })})
    ON CONFLICT (source, key) DO UPDATE
      SET state = jsonb_build_object('n', coalesce((crawl_state.state->>'n')::int, 0) + ${n}::int), updated_at = now()`;
}

/** The edicts fetched since the last report, reset to none (one statement: concurrent adds are not lost). */
export async function takeFetched(sql: Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    UPDATE crawl_state c SET state = '{"n":0}', updated_at = now()
      FROM (SELECT source, key, coalesce((state->>'n')::int, 0) AS n FROM crawl_state WHERE source = ${SOURCE} AND key = 'fetched' FOR UPDATE) old
     WHERE c.source = old.source AND c.key = old.key
    RETURNING old.n`;
  return row?.n ?? 0;
}

