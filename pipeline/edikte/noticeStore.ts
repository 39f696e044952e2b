// Stores court notices of the Ediktsdatei with their change rows, in one transaction per batch:
//   storeNotices  edicts as fetched: linked to a company (pipeline/linking/companyLink.ts), compared
//                 with the stored row field by field; an unchanged edict writes no change row;
//   deleteNotices edicts of the Deletions view: erased to a tombstone { ediktId, deletedAt }, the
//                 snapshots of their earlier changes erased too (the IWG terms require it);
//   relinkNotices notices whose link may have changed because a company did.
// Every new, changed or deleted notice gets an `edikt` change (with the linked fnr and the snapshot
// GET /edikte/changes/{id} presents); a company whose notices as its profile shows them change
// from none to some or back (hasEdikt) gets a `business` change naming it, which the indexer follows.
import type { ChangeAction } from '../../runtime/changeLog.js';
import type { Sql, TransactionSql } from '../../runtime/db.js';
import type { ParsedNotice } from '../../schemas/courtNoticeRecords.js';
import { linkCompanies, type CompanyLink, type LinkSubject } from '../linking/companyLink.js';
import { canonicalJson } from '../store/companyStore.js';
import { recordChanges, type NewChange } from '../store/changeLog.js';

export type Linker = (sql: Sql, subjects: LinkSubject[]) => Promise<CompanyLink[]>;

export interface NoticeStoreItem {
  notice: ParsedNotice;
  /** The document as fetched, kept until the register deletes the edict. */
  raw: string;
  fetchedAt?: Date;
}

export interface NoticeStoreResult {
  ediktId: string;
  action: ChangeAction | 'unchanged';
  changedFields: string[];
  fnr: string | null;
  evidence: string | null;
}

/** The court_notice columns a notice is written as (also the shape of its change snapshot, without raw). */
interface NoticeRow {
  edikt_id: string;
  unid: string | null;
  aktenzeichen: string | null;
  court_code: string | null;
  court_name: string | null;
  state_code: string | null;
  proceeding_code: string | null;
  proceeding_text: string | null;
  debtor_type: string | null;
  debtor_name: string | null;
  debtor_fnr_raw: string | null;
  debtor_fnr: string | null;
  debtor_address: { street: string | null; zipCode: string | null; city: string | null; country: string | null } | null;
  debtor_birth_date: string | null;
  debtor_person_id: string | null;
  fnr: string | null;
  link_evidence: string | null;
  link_confidence: number | null;
  link_candidates: CompanyLink['candidates'];
  first_published_on: string | null;
  last_published_on: string | null;
  opened_on: string | null;
  blocks: ParsedNotice['blocks'];
  is_open: boolean;
  data_warnings: string[];
  deleted_at: string | null;
}

/** Column groups by the name a change reports them under (changedFields speak the API's language). */
const TRACKED: Record<string, ReadonlyArray<keyof NoticeRow>> = {
  aktenzeichen: ['aktenzeichen'],
  court: ['court_code', 'court_name', 'state_code'],
  proceeding: ['proceeding_code', 'proceeding_text'],
  debtor: ['debtor_type', 'debtor_name', 'debtor_fnr_raw', 'debtor_address', 'debtor_birth_date', 'debtor_person_id'],
  openedOn: ['opened_on'],
  firstPublishedOn: ['first_published_on'],
  lastPublishedOn: ['last_published_on'],
  blocks: ['blocks'],
  isOpen: ['is_open'],
  link: ['fnr', 'link_evidence', 'link_confidence', 'link_candidates'],
};

/** The stored row in NoticeRow's shape (dates as text, confidence as a number), for comparison. */
const STORED_COLUMNS = `edikt_id, unid, aktenzeichen, court_code, court_name, state_code, proceeding_code, proceeding_text, debtor_type,
  debtor_name, debtor_fnr_raw, debtor_fnr, debtor_address, to_char(debtor_birth_date, 'YYYY-MM-DD') AS debtor_birth_date, debtor_person_id, fnr,
  link_evidence, link_confidence::float8 AS link_confidence, link_candidates, to_char(first_published_on, 'YYYY-MM-DD') AS first_published_on,
  to_char(last_published_on, 'YYYY-MM-DD') AS last_published_on, to_char(opened_on, 'YYYY-MM-DD') AS opened_on, blocks, is_open, data_warnings,
  deleted_at`;

/** Names of the groups whose content differs. */
export function changedNoticeFields(previous: Partial<NoticeRow> | null, next: NoticeRow): string[] {
  return Object.entries(TRACKED)
    .filter(([, columns]) => canonicalJson(columns.map((c) => previous?.[c] ?? null)) !== canonicalJson(columns.map((c) => next[c] ?? null)))
    .map(([name]) => name);
}

const NO_LINK: CompanyLink = { fnr: null, evidence: null, confidence: null, candidates: [], warnings: [] };

/** Only legal persons are linked to companies; a natural person's notice is linked to the person by its personId. */
export function linkSubject(notice: Pick<ParsedNotice, 'debtor'>): LinkSubject | null {
  const d = notice.debtor;
  if (d.type !== 'J' || !d.name) return null;
  return { fnr: d.fnrRaw, name: d.name, zipCode: d.address?.zipCode ?? null, street: d.address?.street ?? null };
}

export async function linkNotices(sql: Sql, notices: Array<Pick<ParsedNotice, 'debtor'>>, link: Linker = linkCompanies): Promise<CompanyLink[]> {
  const subjects = notices.map(linkSubject);
  const wanted = subjects.map((s, i) => ({ s, i })).filter((x): x is { s: LinkSubject; i: number } => x.s !== null);
  const links = wanted.length > 0 ? await link(sql, wanted.map((w) => w.s)) : [];
  const out = notices.map(() => NO_LINK);
  wanted.forEach((w, k) => {
    out[w.i] = links[k]!;
  });
  return out;
}

function rowOf(n: ParsedNotice, link: CompanyLink): NoticeRow {
  const d = n.debtor;
  return {
    edikt_id: n.ediktId, unid: n.unid, aktenzeichen: n.aktenzeichen, court_code: n.court.code, court_name: n.court.name, state_code: n.stateCode,
    proceeding_code: n.proceeding.code, proceeding_text: n.proceeding.text, debtor_type: d.type, debtor_name: d.name, debtor_fnr_raw: d.fnrRaw,
    debtor_fnr: d.fnr, debtor_address: d.address, debtor_birth_date: d.birthDate, debtor_person_id: d.personId,
    fnr: link.fnr, link_evidence: link.evidence, link_confidence: link.confidence, link_candidates: link.candidates,
    first_published_on: n.firstPublishedOn, last_published_on: n.lastPublishedOn, opened_on: n.openedOn, blocks: n.blocks, is_open: n.isOpen,
    data_warnings: [...new Set([...n.warnings, ...link.warnings])].sort(), deleted_at: null,
  };
}

/** The row as a change records it: what GET /edikte/changes/{id} presents (schemas/courtNoticeRecords.ts). */
const snapshotOf = (row: NoticeRow) => row;

/**
 * Which of these companies have a notice on file (hasEdikt). Called first in a transaction, it also
 * takes a lock per company (in order), so two transactions cannot both see a company's first notice as
 * the flip.
 */
async function withNotices(tx: TransactionSql, fnrs: string[], lock = false): Promise<Set<string>> {
  if (fnrs.length === 0) return new Set();
  if (lock) await tx`SELECT pg_advisory_xact_lock(hashtextextended('court_notice:' || f, 0)) FROM unnest(${[...fnrs].sort()}::text[]) AS f ORDER BY f`;
  const rows = await tx<{ fnr: string }[]>`SELECT DISTINCT fnr FROM court_notice WHERE fnr = ANY(${fnrs}::text[])`;
  return new Set(rows.map((r) => r.fnr));
}

/** Business changes for the companies whose hasEdikt flipped (a first notice, or their last one gone). */
async function companyChanges(tx: TransactionSql, touched: Set<string>, before: Set<string>): Promise<NewChange[]> {
  const fnrs = [...touched].sort();
  if (fnrs.length === 0) return [];
  const after = await withNotices(tx, fnrs);
  const companies = new Set((await tx<{ fnr: string }[]>`SELECT fnr FROM company WHERE fnr = ANY(${fnrs}::text[])`).map((r) => r.fnr));
  const changes: NewChange[] = [];
  for (const fnr of fnrs) {
    // Only a flip: how notices of one company fall into batches must not change what the log says.
    if (before.has(fnr) === after.has(fnr) || !companies.has(fnr)) continue;
    changes.push({ type: 'business', fnr, action: 'updated', changedFields: ['hasEdikt'] });
  }
  return changes;
}

const json = (value: unknown) => JSON.stringify(value);

async function writeRows(tx: TransactionSql, rows: Array<NoticeRow & { raw: string | null; source_modified_at: string | null; last_fetched_at: string | null }>): Promise<void> {
  if (rows.length === 0) return;
  await tx`
    INSERT INTO court_notice AS n (edikt_id, unid, aktenzeichen, court_code, court_name, state_code, proceeding_code, proceeding_text, debtor_type,
                                   debtor_name, debtor_fnr_raw, debtor_fnr, debtor_address, debtor_birth_date, debtor_person_id, fnr, link_evidence,
                                   link_confidence, link_candidates, first_published_on, last_published_on, opened_on, blocks, is_open, data_warnings,
                                   deleted_at, raw, source_modified_at, last_fetched_at, updated_at)
    SELECT edikt_id, unid, aktenzeichen, court_code, court_name, state_code, proceeding_code, proceeding_text, debtor_type, debtor_name,
           debtor_fnr_raw, debtor_fnr, debtor_address, debtor_birth_date, debtor_person_id, fnr, link_evidence, link_confidence,
           coalesce(link_candidates, '[]'), first_published_on, last_published_on, opened_on, coalesce(blocks, '[]'), is_open,
           coalesce(data_warnings, '{}'), deleted_at, raw::jsonb, source_modified_at, last_fetched_at, now()
      FROM jsonb_to_recordset(${json(rows)}::text::jsonb) AS r (
             edikt_id text, unid text, aktenzeichen text, court_code text, court_name text, state_code text, proceeding_code text,
             proceeding_text text, debtor_type text, debtor_name text, debtor_fnr_raw text, debtor_fnr text, debtor_address jsonb,
             debtor_birth_date date, debtor_person_id text, fnr text, link_evidence text, link_confidence numeric, link_candidates jsonb,
             first_published_on date, last_published_on date, opened_on date, blocks jsonb, is_open boolean, data_warnings text[],
             deleted_at timestamptz, raw text, source_modified_at timestamptz, last_fetched_at timestamptz)
    ON CONFLICT (edikt_id) DO UPDATE SET
      unid = EXCLUDED.unid, aktenzeichen = EXCLUDED.aktenzeichen, court_code = EXCLUDED.court_code, court_name = EXCLUDED.court_name,
      state_code = EXCLUDED.state_code, proceeding_code = EXCLUDED.proceeding_code, proceeding_text = EXCLUDED.proceeding_text,
      debtor_type = EXCLUDED.debtor_type, debtor_name = EXCLUDED.debtor_name, debtor_fnr_raw = EXCLUDED.debtor_fnr_raw,
      debtor_fnr = EXCLUDED.debtor_fnr, debtor_address = EXCLUDED.debtor_address, debtor_birth_date = EXCLUDED.debtor_birth_date,
      debtor_person_id = EXCLUDED.debtor_person_id, fnr = EXCLUDED.fnr, link_evidence = EXCLUDED.link_evidence,
      link_confidence = EXCLUDED.link_confidence, link_candidates = EXCLUDED.link_candidates, first_published_on = EXCLUDED.first_published_on,
      last_published_on = EXCLUDED.last_published_on, opened_on = EXCLUDED.opened_on, blocks = EXCLUDED.blocks, is_open = EXCLUDED.is_open,
      data_warnings = EXCLUDED.data_warnings, deleted_at = EXCLUDED.deleted_at, raw = coalesce(EXCLUDED.raw, n.raw),
      source_modified_at = coalesce(EXCLUDED.source_modified_at, n.source_modified_at), last_fetched_at = coalesce(EXCLUDED.last_fetched_at, n.last_fetched_at),
      updated_at = now()`;
}

// The driver hands columns back camelCased; the stored rows are compared in NoticeRow's snake_case.
const snake = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v])) as unknown as NoticeRow;

async function storedRows(sql: Sql | TransactionSql, ids: string[], forUpdate: boolean): Promise<Map<string, NoticeRow>> {
  // Locked in key order, so two batches that share notices cannot deadlock on them.
  const rows = await sql.unsafe(`SELECT ${STORED_COLUMNS} FROM court_notice WHERE edikt_id = ANY($1::text[]) ORDER BY edikt_id${forUpdate ? ' FOR UPDATE' : ''}`, [ids]);
  return new Map(rows.map((r) => {
    const row = snake(r as Record<string, unknown>);
    return [row.edikt_id, row];
  }));
}

/**
 * Stores fetched edicts of distinct AZKeys in one transaction (linking them first, outside it).
 * A notice the register had deleted comes back as created when it is published again.
 */
export async function storeNotices(sql: Sql, items: NoticeStoreItem[], link: Linker = linkCompanies): Promise<NoticeStoreResult[]> {
  const links = await linkNotices(sql, items.map((i) => i.notice), link);
  return sql.begin(async (tx) => {
    const existing = await storedRows(tx, items.map((i) => i.notice.ediktId), true);
    const touched = new Set<string>();
    for (const row of existing.values()) if (row.fnr) touched.add(row.fnr);
    items.forEach((_, i) => links[i]!.fnr && touched.add(links[i]!.fnr!));
    const before = await withNotices(tx, [...touched], true);
    const results: NoticeStoreResult[] = [];
    const writes: Parameters<typeof writeRows>[1] = [];
    const changes: NewChange[] = [];
    items.forEach((item, i) => {
      const row = rowOf(item.notice, links[i]!);
      const previous = existing.get(row.edikt_id) ?? null;
      const deletedAt = previous?.deleted_at ? new Date(previous.deleted_at).getTime() : null;
      // A tombstone stays one unless the register published the edict again after deleting it: a
      // fetch that raced the deletion must not bring the erased data back.
      if (deletedAt !== null && !(item.notice.modifiedAt && Date.parse(item.notice.modifiedAt) > deletedAt)) {
        results.push({ ediktId: row.edikt_id, action: 'unchanged', changedFields: [], fnr: null, evidence: null });
        return;
      }
      const fields = deletedAt !== null ? Object.keys(TRACKED) : changedNoticeFields(previous, row);
      writes.push({ ...row, raw: item.raw, source_modified_at: item.notice.modifiedAt, last_fetched_at: (item.fetchedAt ?? new Date()).toISOString() });
      if (previous && deletedAt === null && fields.length === 0) {
        results.push({ ediktId: row.edikt_id, action: 'unchanged', changedFields: [], fnr: row.fnr, evidence: row.link_evidence });
        return;
      }
      const action: ChangeAction = previous && deletedAt === null ? 'updated' : 'created';
      changes.push({ type: 'edikt', fnr: row.fnr, action, changedFields: fields, ediktId: row.edikt_id, snapshot: snapshotOf(row) });
      results.push({ ediktId: row.edikt_id, action, changedFields: fields, fnr: row.fnr, evidence: row.link_evidence });
    });
    await writeRows(tx, writes);
    await recordChanges(tx, [...changes, ...(await companyChanges(tx, touched, before))]);
    return results;
  });
}

export interface NoticeDeletion {
  ediktId: string;
  deletedAt: string;
}

/**
 * Erases deleted edicts down to { ediktId, deletedAt }, with a `deleted` change each and the snapshots of
 * their earlier changes replaced by the tombstone. Deletions of edicts never stored here (or already
 * erased) change nothing. Returns the AZKeys erased now.
 */
export async function deleteNotices(sql: Sql, deletions: NoticeDeletion[]): Promise<string[]> {
  if (deletions.length === 0) return [];
  return sql.begin(async (tx) => {
    const existing = await storedRows(tx, deletions.map((d) => d.ediktId), true);
    const live = deletions.filter((d) => existing.has(d.ediktId) && existing.get(d.ediktId)!.deleted_at === null);
    if (live.length === 0) return [];
    const touched = new Set(live.map((d) => existing.get(d.ediktId)!.fnr).filter((f): f is string => f !== null));
    const before = await withNotices(tx, [...touched], true);
    const tombstones = live.map((d) => ({ edikt_id: d.ediktId, deleted_at: new Date(d.deletedAt).toISOString() }));
    await tx`
      UPDATE court_notice n SET
        deleted_at = r.deleted_at::timestamptz, unid = NULL, aktenzeichen = NULL, court_code = NULL, court_name = NULL, state_code = NULL, proceeding_code = NULL,
        proceeding_text = NULL, debtor_type = NULL, debtor_name = NULL, debtor_fnr_raw = NULL, debtor_fnr = NULL, debtor_address = NULL,
        debtor_birth_date = NULL, debtor_person_id = NULL, fnr = NULL, link_evidence = NULL, link_confidence = NULL, link_candidates = '[]',
        first_published_on = NULL, last_published_on = NULL, opened_on = NULL, blocks = '[]', is_open = false, data_warnings = '{}', raw = NULL,
        source_modified_at = NULL, last_fetched_at = NULL, updated_at = now()
        FROM jsonb_to_recordset(${json(tombstones)}::text::jsonb) AS r (edikt_id text, deleted_at text)
       WHERE n.edikt_id = r.edikt_id`;
    // Earlier changes of these notices recorded the debtor: their snapshots become the tombstone too.
    await tx`
      UPDATE change_log c SET snapshot = jsonb_build_object('edikt_id', r.edikt_id, 'deleted_at', r.deleted_at)
        FROM jsonb_to_recordset(${json(tombstones)}::text::jsonb) AS r (edikt_id text, deleted_at text)
       WHERE c.type = 'edikt' AND c.edikt_id = r.edikt_id`;
    const changes: NewChange[] = tombstones.map((t) => ({
      type: 'edikt', fnr: existing.get(t.edikt_id)!.fnr, action: 'deleted', changedFields: [], ediktId: t.edikt_id, snapshot: t,
    }));
    await recordChanges(tx, [...changes, ...(await companyChanges(tx, touched, before))]);
    return live.map((d) => d.ediktId);
  });
}

/**
 * The stored legal-person notices (not deleted) that name a company by FN, are linked to it, or name it
 * by the core of its name or of a former one (a renamed company's notices under its old name).
 */
export async function noticesNaming(sql: Sql, fnrs: string[]): Promise<string[]> {
  if (fnrs.length === 0) return [];
  const rows = await sql<{ ediktId: string }[]>`
    WITH named AS (SELECT search_core(search_norm(name)) AS core FROM company WHERE fnr = ANY(${fnrs}::text[])
                   UNION SELECT search_core(search_norm(name)) FROM company_name WHERE fnr = ANY(${fnrs}::text[]))
    SELECT n.edikt_id FROM court_notice n
     WHERE n.deleted_at IS NULL AND n.debtor_type = 'J'
       AND (n.debtor_fnr = ANY(${fnrs}::text[]) OR n.fnr = ANY(${fnrs}::text[])
            OR search_core(search_norm(n.debtor_name)) IN (SELECT core FROM named))`;
  return rows.map((r) => r.ediktId);
}

/**
 * Links stored notices again (a company they may name was created, renamed, moved or deleted) and
 * records a change for each whose link differs. Returns how many changed.
 */
export async function relinkNotices(sql: Sql, ediktIds: string[], link: Linker = linkCompanies): Promise<number> {
  if (ediktIds.length === 0) return 0;
  const rows = [...(await storedRows(sql, ediktIds, false)).values()].filter((r) => r.deleted_at === null && r.debtor_type === 'J');
  const links = await link(sql, rows.map((r) => ({ fnr: r.debtor_fnr_raw, name: r.debtor_name ?? '', zipCode: r.debtor_address?.zipCode ?? null, street: r.debtor_address?.street ?? null })));
  const next = new Map(rows.map((r, i) => [r.edikt_id, links[i]!]));
  const linked = (row: NoticeRow, l: CompanyLink): NoticeRow => ({ ...row, fnr: l.fnr, link_evidence: l.evidence, link_confidence: l.confidence, link_candidates: l.candidates });
  const moved = rows.filter((r) => changedNoticeFields(r, linked(r, next.get(r.edikt_id)!)).length > 0).map((r) => r.edikt_id);
  if (moved.length === 0) return 0;
  return sql.begin(async (tx) => {
    // Read again under the lock: a fetch may have stored the notice since.
    const locked = [...(await storedRows(tx, moved, true)).values()].filter((r) => r.deleted_at === null);
    const touched = new Set<string>();
    for (const r of locked) for (const f of [r.fnr, next.get(r.edikt_id)!.fnr]) if (f) touched.add(f);
    const before = await withNotices(tx, [...touched], true);
    const changes: NewChange[] = [];
    const writes: Parameters<typeof writeRows>[1] = [];
    for (const previous of locked) {
      const row = linked(previous, next.get(previous.edikt_id)!);
      const fields = changedNoticeFields(previous, row);
      if (fields.length === 0) continue;
      writes.push({ ...row, raw: null, source_modified_at: null, last_fetched_at: null });
      changes.push({ type: 'edikt', fnr: row.fnr, action: 'updated', changedFields: fields, ediktId: row.edikt_id, snapshot: snapshotOf(row) });
    }
    await writeRows(tx, writes);
    await recordChanges(tx, [...changes, ...(await companyChanges(tx, touched, before))]);
    return changes.length;
  });
}

/**
 * The courts of the notices held here (not deleted): a day of deletions over the search cap is split by
 * them. The court is the edict's Gericht_Code, the first three digits of its AZKey where not stored.
 */
export async function heldCourts(sql: Sql): Promise<string[]> {
  const rows = await sql<{ court: string }[]>`
    SELECT DISTINCT coalesce(court_code, left(edikt_id, 3)) AS court FROM court_notice WHERE deleted_at IS NULL ORDER BY 1`;
  return rows.map((r) => r.court);
}

/** The AZKeys of the notices held here (not deleted) of one court, in key order. */
export async function heldKeys(sql: Sql, court: string): Promise<string[]> {
  const rows = await sql<{ ediktId: string }[]>`
    SELECT edikt_id FROM court_notice WHERE deleted_at IS NULL AND coalesce(court_code, left(edikt_id, 3)) = ${court} ORDER BY edikt_id`;
  return rows.map((r) => r.ediktId);
}

/** Notices linked to companies, by evidence (`none`: a legal person linked to nobody), for /metrics. */
export async function noticeLinkCounts(sql: Sql): Promise<Record<string, number>> {
  const rows = await sql<{ evidence: string; n: number }[]>`
    SELECT coalesce(link_evidence, 'none') AS evidence, count(*)::int AS n FROM court_notice
     WHERE deleted_at IS NULL AND debtor_type = 'J' GROUP BY 1`;
  return Object.fromEntries(rows.map((r) => [r.evidence, r.n]));
}
