// Change entries (the feeds, GET /globalchanges/aggregated, GET /edikte/changes/{id}) and the court
// notice a court-notice change recorded. The feed pages themselves are built as JSON in Postgres in
// presentChange's shape (runtime/changeLog.ts, schemas/sql/0013); test/integration/changeLog.test.ts
// holds the two to the same entries.
import type { ChangeRow } from '../../runtime/changeLog.js';
import { courtNoticeSnapshot } from '../../schemas/courtNoticeRecords.js';
import { codeAndText } from '../../schemas/screenerRecords.js';

/** Change entry per api-decisions.md: the common fields plus the type's own key. */
export function presentChange(c: ChangeRow) {
  const entry: Record<string, unknown> = {
    id: c.id, type: c.type, fnr: c.fnr, recordedAt: c.recordedAt.toISOString(), action: c.action, changedFields: c.changedFields,
  };
  if (c.type === 'business') entry.vnr = c.vnr;
  if (c.type === 'document') entry.documentKey = c.documentKey;
  if (c.type === 'edikt') entry.ediktId = c.ediktId;
  if (c.type === 'trade') entry.gisaZahl = c.gisaZahl;
  return entry;
}

/**
 * The notice as presented, or null when the change recorded none (or one in another shape: such a
 * snapshot is the writer's bug, and a client is better served by null than by a raw row).
 */
export function presentCourtNotice(snapshot: unknown) {
  const parsed = courtNoticeSnapshot.safeParse(snapshot);
  if (!parsed.success) return null;
  const n = parsed.data;
  return {
    ediktId: n.edikt_id,
    aktenzeichen: n.aktenzeichen,
    court: codeAndText(n.court_code, n.court_name),
    proceeding: codeAndText(n.proceeding_code, n.proceeding_text),
    debtor: { type: n.debtor_type, name: n.debtor_name, fnr: n.fnr, personId: n.debtor_person_id, address: n.debtor_address },
    openedOn: n.opened_on,
    firstPublishedOn: n.first_published_on,
    lastPublishedOn: n.last_published_on,
    isOpen: n.is_open,
    deletedAt: n.deleted_at,
    blocks: n.blocks.map((b) => ({ publishedOn: b.publishedOn, name: b.name, text: b.text, decidedOn: b.decidedOn })),
    link: {
      evidence: n.link_evidence, confidence: n.link_confidence,
      candidates: n.link_candidates.map((c) => ({ fnr: c.fnr, name: c.name, evidence: c.evidence, confidence: c.confidence })),
    },
  };
}
