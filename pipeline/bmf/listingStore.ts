// Applies one version of the BMF list to bogus_company_listing / _publication by diff, in one
// transaction with its change rows: listings new to the list are added, listings gone from it get
// removed_at, listings back on it lose it. The `Stand:` footer is the version: a version already applied
// (or older) changes nothing. The safety valve: an empty list, or one that would remove more than
// MAX_REMOVED_SHARE of the current listings, is not applied at all, so one broken download never
// clears the list. A linked company whose isScheinunternehmen flips, or whose publications change, gets a
// `business` change naming the field, and the indexer carries it to the screener.
import type { Sql, TransactionSql } from '../../runtime/db.js';
import type { BogusListing, LsuList } from '../../schemas/bmfRecords.js';
import { linkCompanies, type CompanyLink, type LinkCandidate, type LinkSubject } from '../linking/companyLink.js';
import { recordChanges, type NewChange } from '../store/changeLog.js';
import { addressParts, listingsOf } from './lsuParser.js';

/** More than this share of the current listings gone in one version: refused, not applied. */
export const MAX_REMOVED_SHARE = 0.2;
const SOURCE = 'bmf-lsu';
const STATE_KEY = 'list';
const BMF_LOCK = 0x424d464c; // 'BMFL'

type JsonRows = Parameters<Sql['json']>[0];

export type RefusalReason = 'empty' | 'too-many-removals' | 'no-footer' | 'unreadable' | 'too-large';

export interface ListState {
  /** The version applied last (`YYYY-MM-DDTHH:MM:SS`), null before the first. */
  version: string | null;
  etag: string | null;
  lastModified: string | null;
}

export type ApplyResult =
  | { status: 'unchanged' | 'stale'; version: string }
  | { status: 'refused'; reason: RefusalReason; message: string }
  | { status: 'applied'; version: string; listings: number; added: number; removed: number; returned: number; updated: number; changes: number };

export interface ApplyOptions {
  /** Validators of the answer that carried the list, for the next conditional download. */
  etag?: string | null;
  lastModified?: string | null;
  /** Apply even when more than MAX_REMOVED_SHARE would go (an operator who checked the list). */
  force?: boolean;
  link?: (sql: Sql, subjects: LinkSubject[]) => Promise<CompanyLink[]>;
}

export async function readListState(sql: Sql): Promise<ListState> {
  const [row] = await sql<{ watermark: string | null; state: { etag?: string; lastModified?: string } }[]>`
    SELECT watermark, state FROM crawl_state WHERE source = ${SOURCE} AND key = ${STATE_KEY}`;
  return { version: row?.watermark ?? null, etag: row?.state.etag ?? null, lastModified: row?.state.lastModified ?? null };
}

/** Keeps why a version was not applied (crawl_state.state.lastRefusal), beside the version that stays applied. */
export async function recordRefusal(sql: Sql, refusal: { reason: RefusalReason; message: string; version: string | null }): Promise<void> {
  const value = { lastRefusal: { ...refusal, at: new Date().toISOString() } };
  await sql`
    INSERT INTO crawl_state (source, key, state) VALUES (${SOURCE}, ${STATE_KEY}, ${sql.json(value)})
    ON CONFLICT (source, key) DO UPDATE SET state = crawl_state.state || EXCLUDED.state, updated_at = now()`;
}

/** Current listings by link evidence (`none`: not linked to a company), for /metrics. */
export async function linkCounts(sql: Sql): Promise<Record<string, number>> {
  const rows = await sql<{ evidence: string; n: number }[]>`
    SELECT coalesce(link_evidence, 'none') AS evidence, count(*)::int AS n FROM bogus_company_listing WHERE removed_at IS NULL GROUP BY 1`;
  return Object.fromEntries(rows.map((r) => [r.evidence, r.n]));
}

/** Per linked company, what its profile shows of the list, as one comparable text. */
async function profilePrints(tx: TransactionSql, fnrs: string[]): Promise<Map<string, string>> {
  if (fnrs.length === 0) return new Map();
  const rows = await tx<{ fnr: string; print: string }[]>`
    SELECT bl.fnr, string_agg(concat_ws('|', bl.listing_key, bl.name, bp.published_on, bp.decision_final_on, bp.deemed_since, bl.link_evidence),
                              ';' ORDER BY bl.listing_key, bp.published_on) AS print
      FROM bogus_company_listing bl LEFT JOIN bogus_company_publication bp USING (listing_key)
     WHERE bl.removed_at IS NULL AND bl.fnr = ANY(${fnrs}::text[])
     GROUP BY bl.fnr`;
  return new Map(rows.map((r) => [r.fnr, r.print]));
}

/**
 * A `business` change for each stored company whose profile shows the list differently than before
 * (`printsBefore`): naming isScheinunternehmen when the flag flipped. Returns how many were written.
 */
async function recordProfileChanges(tx: TransactionSql, touched: string[], printsBefore: Map<string, string>): Promise<number> {
  const printsAfter = await profilePrints(tx, touched);
  const existing = new Set((await tx<{ fnr: string }[]>`SELECT fnr FROM company WHERE fnr = ANY(${touched}::text[])`).map((r) => r.fnr));
  const changes: NewChange[] = [];
  for (const fnr of touched) {
    const [was, is] = [printsBefore.get(fnr), printsAfter.get(fnr)];
    if (was === is || !existing.has(fnr)) continue;
    const flips = (was === undefined) !== (is === undefined);
    changes.push({ type: 'business', fnr, action: 'updated', changedFields: flips ? ['isScheinunternehmen', 'scheinunternehmenKundmachungen'] : ['scheinunternehmenKundmachungen'] });
  }
  await recordChanges(tx, changes);
  return changes.length;
}

function listingRow(l: BogusListing, link: CompanyLink, version: string) {
  return {
    listing_key: l.listingKey, kind: l.kind, name: l.name, address: l.address, zip_code: l.zipCode, listed_fnr: l.fnr, uid: l.uid,
    ur_code: l.urCode, birth_date: l.birthDate, data_warnings: [...new Set([...l.warnings, ...link.warnings])], fnr: link.fnr, link_evidence: link.evidence,
    link_confidence: link.confidence, link_candidates: link.candidates, list_version: version,
  };
}

/**
 * What a listing says about a company. A person on the list (a birth date) is kept as such: linked only
 * by an FN the list gives (a sole trader's, e.U.), never by name, which would find namesake companies.
 */
const linkSubject = (l: { kind: string; fnr: string | null; name: string; zipCode: string | null; street: string | null }): LinkSubject => ({
  fnr: l.fnr, name: l.kind === 'natural' ? '' : l.name, zipCode: l.zipCode, street: l.street,
});

export async function applyListVersion(sql: Sql, list: LsuList, options: ApplyOptions = {}): Promise<ApplyResult> {
  if (list.rows.length === 0) return { status: 'refused', reason: 'empty', message: `BMF list ${list.version} has no rows` };
  const before = await readListState(sql);
  if (before.version !== null && list.version <= before.version) return { status: before.version === list.version ? 'unchanged' : 'stale', version: list.version };
  const listings = listingsOf(list);
  const links = await (options.link ?? linkCompanies)(sql, listings.map(linkSubject));
  const rows = listings.map((l, i) => listingRow(l, links[i]!, list.version));
  const publications = listings.flatMap((l) => l.publications.map((p) => ({
    listing_key: l.listingKey, published_on: p.publishedOn, decision_final_on: p.decisionFinalOn, deemed_since: p.deemedSince, list_version: list.version,
  })));

  return sql.begin(async (tx): Promise<ApplyResult> => {
    await tx`SELECT pg_advisory_xact_lock(${BMF_LOCK})`;
    // Another worker may have applied this version while the list was linked.
    const [stored] = await tx<{ watermark: string | null }[]>`SELECT watermark FROM crawl_state WHERE source = ${SOURCE} AND key = ${STATE_KEY}`;
    if (stored?.watermark && list.version <= stored.watermark) return { status: stored.watermark === list.version ? 'unchanged' : 'stale', version: list.version };
    const current = await tx<{ listingKey: string; fnr: string | null; active: boolean }[]>`
      SELECT listing_key, fnr, removed_at IS NULL AS active FROM bogus_company_listing`;
    const known = new Map(current.map((c) => [c.listingKey, c]));
    const listed = new Set(listings.map((l) => l.listingKey));
    const active = current.filter((c) => c.active);
    const removed = active.filter((c) => !listed.has(c.listingKey)).map((c) => c.listingKey);
    if (!options.force && active.length > 0 && removed.length / active.length > MAX_REMOVED_SHARE) {
      return {
        status: 'refused', reason: 'too-many-removals',
        message: `BMF list ${list.version} would remove ${removed.length} of ${active.length} current listings (more than ${MAX_REMOVED_SHARE * 100} %): not applied`,
      };
    }
    const flaggedBefore = new Set(active.map((c) => c.fnr).filter((f): f is string => f !== null));
    const touched = [...new Set([...flaggedBefore, ...rows.map((r) => r.fnr).filter((f): f is string => f !== null)])];
    const printsBefore = await profilePrints(tx, touched);

    const [written] = await tx<{ updated: number }[]>`
      WITH input AS (
        SELECT * FROM jsonb_to_recordset(${tx.json(rows as unknown as JsonRows)}) AS r(
          listing_key text, kind text, name text, address text, zip_code text, listed_fnr text, uid text, ur_code text, birth_date date,
          data_warnings text[], fnr text, link_evidence text, link_confidence numeric, link_candidates jsonb, list_version text)),
      upserted AS (
        INSERT INTO bogus_company_listing AS b (listing_key, kind, name, address, zip_code, listed_fnr, uid, ur_code, birth_date, data_warnings,
                                               fnr, link_evidence, link_confidence, link_candidates, list_version)
        SELECT listing_key, kind, name, address, zip_code, listed_fnr, uid, ur_code, birth_date, data_warnings,
               fnr, link_evidence, link_confidence, link_candidates, list_version FROM input
        ON CONFLICT (listing_key) DO UPDATE SET
          kind = EXCLUDED.kind, name = EXCLUDED.name, address = EXCLUDED.address, zip_code = EXCLUDED.zip_code, listed_fnr = EXCLUDED.listed_fnr,
          uid = EXCLUDED.uid, ur_code = EXCLUDED.ur_code, birth_date = EXCLUDED.birth_date, data_warnings = EXCLUDED.data_warnings,
          fnr = EXCLUDED.fnr, link_evidence = EXCLUDED.link_evidence, link_confidence = EXCLUDED.link_confidence,
          link_candidates = EXCLUDED.link_candidates, list_version = EXCLUDED.list_version, removed_at = NULL,
          updated_at = CASE WHEN (b.kind, b.name, b.address, b.listed_fnr, b.uid, b.ur_code, b.birth_date, b.data_warnings, b.fnr, b.link_evidence,
                                  b.link_confidence, b.link_candidates, b.removed_at)
                                 IS DISTINCT FROM (EXCLUDED.kind, EXCLUDED.name, EXCLUDED.address, EXCLUDED.listed_fnr, EXCLUDED.uid, EXCLUDED.ur_code,
                                  EXCLUDED.birth_date, EXCLUDED.data_warnings, EXCLUDED.fnr, EXCLUDED.link_evidence, EXCLUDED.link_confidence,
                                  EXCLUDED.link_candidates, NULL::timestamptz)
                            THEN now() ELSE b.updated_at END
        RETURNING updated_at = now() AND first_seen_at < now() AS updated)
      SELECT count(*) FILTER (WHERE updated)::int AS updated FROM upserted`;
    if (removed.length > 0) await tx`UPDATE bogus_company_listing SET removed_at = now(), updated_at = now() WHERE listing_key = ANY(${removed}::text[])`;
    const pubs = tx.json(publications as unknown as JsonRows);
    await tx`
      DELETE FROM bogus_company_publication p
       WHERE p.listing_key = ANY(${[...listed]}::text[])
         AND NOT EXISTS (SELECT 1 FROM jsonb_to_recordset(${pubs}) AS r(listing_key text, published_on date)
                          WHERE r.listing_key = p.listing_key AND r.published_on = p.published_on)`;
    await tx`
      INSERT INTO bogus_company_publication (listing_key, published_on, decision_final_on, deemed_since, list_version)
      SELECT listing_key, published_on, decision_final_on, deemed_since, list_version
        FROM jsonb_to_recordset(${pubs}) AS r(listing_key text, published_on date, decision_final_on date, deemed_since date, list_version text)
      ON CONFLICT (listing_key, published_on) DO UPDATE SET decision_final_on = EXCLUDED.decision_final_on, deemed_since = EXCLUDED.deemed_since`;

    const changes = await recordProfileChanges(tx, touched, printsBefore);
    const state = { etag: options.etag ?? null, lastModified: options.lastModified ?? null, appliedAt: new Date().toISOString(), rows: list.rows.length, listings: listings.length };
    await tx`
      INSERT INTO crawl_state (source, key, watermark, state) VALUES (${SOURCE}, ${STATE_KEY}, ${list.version}, ${tx.json(state)})
      ON CONFLICT (source, key) DO UPDATE SET watermark = EXCLUDED.watermark, state = EXCLUDED.state, updated_at = now()`;
    const added = listings.filter((l) => !known.has(l.listingKey)).length;
    const returned = listings.filter((l) => known.get(l.listingKey)?.active === false).length;
    return { status: 'applied', version: list.version, listings: listings.length, added, removed: removed.length, returned, updated: written!.updated, changes };
  });
}

// jsonb keeps its own key order, so candidates compare by their values.
const candidatesKey = (candidates: LinkCandidate[]) => candidates.map((c) => `${c.fnr}:${c.evidence}:${c.confidence}`).join(',');

interface StoredLink {
  listingKey: string;
  kind: string;
  name: string;
  listedFnr: string | null;
  address: string | null;
  fnr: string | null;
  linkEvidence: string | null;
  linkConfidence: string | null;
  linkCandidates: unknown[];
}

/**
 * Links the current listings of companies again, for a list version that did not change: companies
 * stored since it came may now match by name and address (or a linked one be gone). Writes the links
 * that differ, with their change rows; returns how many changes it wrote.
 */
export async function relinkListings(sql: Sql, link: NonNullable<ApplyOptions['link']> = linkCompanies): Promise<number> {
  const stored = await sql<StoredLink[]>`
    SELECT listing_key, kind, name, listed_fnr, address, fnr, link_evidence, link_confidence::float8::text AS link_confidence, link_candidates
      FROM bogus_company_listing WHERE removed_at IS NULL ORDER BY listing_key`;
  const links = await link(sql, stored.map((l) => {
    const parts = addressParts(l.address);
    return linkSubject({ kind: l.kind, fnr: l.listedFnr, name: l.name, zipCode: parts?.zipCode ?? null, street: parts?.street ?? null });
  }));
  const same = (l: StoredLink, n: CompanyLink) =>
    l.fnr === n.fnr && l.linkEvidence === n.evidence && (l.linkConfidence === null ? null : Number(l.linkConfidence)) === n.confidence
    && candidatesKey(l.linkCandidates as LinkCandidate[]) === candidatesKey(n.candidates);
  const updates = stored.flatMap((l, i) => (same(l, links[i]!) ? [] : [{
    listing_key: l.listingKey, fnr: links[i]!.fnr, link_evidence: links[i]!.evidence, link_confidence: links[i]!.confidence, link_candidates: links[i]!.candidates,
  }]));
  if (updates.length === 0) return 0;
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${BMF_LOCK})`;
    const touched = [...new Set(updates.flatMap((u) => [u.fnr, stored.find((l) => l.listingKey === u.listing_key)!.fnr]).filter((f): f is string => f !== null))];
    const printsBefore = await profilePrints(tx, touched);
    await tx`
      UPDATE bogus_company_listing b
         SET fnr = r.fnr, link_evidence = r.link_evidence, link_confidence = r.link_confidence, link_candidates = r.link_candidates, updated_at = now()
        FROM jsonb_to_recordset(${tx.json(updates as unknown as JsonRows)})
             AS r(listing_key text, fnr text, link_evidence text, link_confidence numeric, link_candidates jsonb)
       WHERE b.listing_key = r.listing_key AND b.removed_at IS NULL`;
    return recordProfileChanges(tx, touched, printsBefore);
  });
}
