// A court notice as a change left it. A court-notice change records the notice's `court_notice` row
// as `to_jsonb(court_notice)` writes it (snake_case columns, dates as 'YYYY-MM-DD') in change_log.snapshot;
// presentCourtNotice shapes it for GET /edikte/changes/{id}, so no stored row reaches a client as is.
import { z } from 'zod';
import { codeAndText } from './screenerRecords.js';

const text = z.string().nullish().transform((v) => v ?? null);
// to_jsonb writes numeric as a JSON number; a writer that went through text would give a string.
const decimal = z.union([z.number(), z.string()]).nullish().transform((v) => (v === null || v === undefined || v === '' ? null : Number(v)));
const flag = z.boolean().nullish().transform((v) => v ?? null);
// to_jsonb writes timestamptz in the writer's TimeZone (2025-06-01T14:34:56.789123+02:00); answers
// carry UTC with milliseconds, as recordedAt does.
const instant = z.string().nullish().refine((v) => v == null || !Number.isNaN(Date.parse(v)), 'not a timestamp')
  .transform((v) => (v == null ? null : new Date(v).toISOString()));

/** A block (Baustein) of the notice: one publication in its history. */
const storedBlock = z.object({ publishedOn: text, name: text, text, decidedOn: text });

/** The debtor's address as the Ediktsdatei gives it. */
const storedAddress = z.object({ street: text, zipCode: text, city: text });

/** The columns of court_notice (schemas/sql/0005) a presented notice is made from; others are dropped. */
export const courtNoticeSnapshot = z.object({
  edikt_id: z.string(),
  aktenzeichen: text,
  court_code: text,
  court_name: text,
  proceeding_code: text,
  proceeding_text: text,
  debtor_type: text,
  debtor_name: text,
  debtor_address: storedAddress.nullish().transform((v) => v ?? null),
  fnr: text,
  link_evidence: text,
  link_confidence: decimal,
  opened_on: text,
  first_published_on: text,
  last_published_on: text,
  is_open: flag,
  deleted_at: instant,
  blocks: z.array(storedBlock).nullish().transform((v) => v ?? []),
});

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
    debtor: { type: n.debtor_type, name: n.debtor_name, fnr: n.fnr, address: n.debtor_address },
    openedOn: n.opened_on,
    firstPublishedOn: n.first_published_on,
    lastPublishedOn: n.last_published_on,
    isOpen: n.is_open,
    deletedAt: n.deleted_at,
    blocks: n.blocks.map((b) => ({ publishedOn: b.publishedOn, name: b.name, text: b.text, decidedOn: b.decidedOn })),
    link: { evidence: n.link_evidence, confidence: n.link_confidence },
  };
}
