// A court notice as a change left it. A court-notice change records the notice's `court_notice` row
// as `to_jsonb(court_notice)` writes it (snake_case columns, dates as 'YYYY-MM-DD') in change_log.snapshot;
// presentCourtNotice (api/presenters/changes.ts) shapes it for GET /edikte/changes/{id}, so no stored
// row reaches a client as is.
import { z } from 'zod';

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
