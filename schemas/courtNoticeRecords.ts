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

/** A company the notice may concern, below the threshold that asserts a link: kept for review. */
const storedCandidate = z.object({ fnr: z.string(), name: text, evidence: text, confidence: decimal });

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
  debtor_person_id: text,
  fnr: text,
  link_evidence: text,
  link_confidence: decimal,
  link_candidates: z.array(storedCandidate).nullish().transform((v) => v ?? []),
  opened_on: text,
  first_published_on: text,
  last_published_on: text,
  is_open: flag,
  deleted_at: instant,
  blocks: z.array(storedBlock).nullish().transform((v) => v ?? []),
});

// ---------------------------------------------------------------------------------------------------
// What the Ediktsdatei adapter (pipeline/edikte) reads from the IWG interface, as types: the parser
// produces them, the store, the fake upstream and the tests consume them.

/** One publication (Baustein) of an edict: `Bekanntmachungsdatum~Name~Inhalt~Beschlussdatum`. */
export interface NoticeBlock {
  publishedOn: string | null;
  name: string | null;
  /** Entities decoded, `&lt;br&gt;` line breaks as `\n`. */
  text: string | null;
  decidedOn: string | null;
}

export interface NoticeAddress {
  street: string | null;
  zipCode: string | null;
  city: string | null;
  /** Schuldner_Akt_Staat as given (`A` = Austria). */
  country: string | null;
}

export interface NoticeDebtor {
  /** `J` legal person, `N` natural person (Schuldner_Akt_Type); null when the edict leaves it out. */
  type: 'J' | 'N' | null;
  /** The whole name: Vorname and Name joined (a company name is split across both arbitrarily). */
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  title: string | null;
  address: NoticeAddress | null;
  /** Schuldner_Akt_FBNr as given. */
  fnrRaw: string | null;
  /** The canonical FN when the field holds one whose check letter fits; else null (see warnings). */
  fnr: string | null;
  birthDate: string | null;
  /** Natural persons with a birth date: the personId the register's rule gives (`maria-huber-1970-01-31`). */
  personId: string | null;
}

/** An edict of the `All` view (`@form` Edikt), as the document endpoint gives it. */
export interface ParsedNotice {
  /** AZKey: the only key stable across a deletion. */
  ediktId: string;
  unid: string | null;
  /** `@modified`, for If-Modified-Since. */
  modifiedAt: string | null;
  aktenzeichen: string | null;
  court: { code: string | null; name: string | null };
  /** Bundesland_Code in the Ediktsdatei's own scheme (0 Wien ... 8 Vbg, A Österreich, 9 abroad). */
  stateCode: string | null;
  proceeding: { code: string | null; text: string | null };
  debtor: NoticeDebtor;
  firstPublishedOn: string | null;
  lastPublishedOn: string | null;
  openedOn: string | null;
  blocks: NoticeBlock[];
  /** False once a closing block (Aufhebung, Einstellung, Nichteröffnung) is published. */
  isOpen: boolean;
  /** Data-quality notes: `fnr-check-letter`, `fnr-unreadable`, `date-unreadable:<field>`, ... */
  warnings: string[];
}

/** One entry of a view page (`All` or `Deletions`). */
export interface ViewEntry {
  unid: string;
  form: string | null;
  aktenzeichen: string | null;
  /** Deletions only (view columns): the deleted edict's key and when it was deleted. */
  ediktId: string | null;
  deletedAt: string | null;
}

export interface ViewPage {
  entries: ViewEntry[];
  /** From `Content-Range: items 0-99/89306`; null when the header is missing. */
  total: number | null;
}
