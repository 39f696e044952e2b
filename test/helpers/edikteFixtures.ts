// What the API must answer for the Ediktsdatei fixtures after a replay of the bundled corpus: a
// company's hasEdikt and openNotices, and a person's openNotices, built from the expected parses and
// the labelled links (fixtures/corpus/edikte/links.json), not by the code under test. An edict whose
// deletion (deletions.json) lies in the past is not in the register any more, so not in a replay.
import { readFileSync } from 'node:fs';
import type { ParsedNotice } from '../../schemas/courtNoticeRecords.js';

const EDIKTE = new URL('../../fixtures/corpus/edikte/', import.meta.url).pathname;
const LABELS = JSON.parse(readFileSync(`${EDIKTE}links.json`, 'utf8')) as Array<{
  ediktId: string; unid: string; truth: string | null; clear: boolean; evidence?: string; confidence?: number;
}>;
const DELETED = new Set((JSON.parse(readFileSync(`${EDIKTE}deletions.json`, 'utf8')) as Array<{ AZKey: string; Dat_Loeschung: string }>)
  .filter((d) => Date.parse(d.Dat_Loeschung) <= Date.now()).map((d) => d.AZKey));

const NOTICES = LABELS.filter((l) => !DELETED.has(l.ediktId)).map((l) => ({
  label: l, notice: JSON.parse(readFileSync(`${EDIKTE}expected/${l.unid}.json`, 'utf8')) as ParsedNotice,
}));

const newestFirst = (a: { firstPublishedOn: string | null; ediktId: string }, b: { firstPublishedOn: string | null; ediktId: string }) =>
  (b.firstPublishedOn ?? '').localeCompare(a.firstPublishedOn ?? '') || a.ediktId.localeCompare(b.ediktId);

/** The notices asserted to concern `fnr`: the labelled clear evidence (FN, or name plus address). */
function noticesOf(fnr: string) {
  return NOTICES.filter(({ label }) => label.clear && label.truth === fnr).map(({ notice, label }) => ({ ...notice, label }));
}

/** A company's hasEdikt and openNotices as its profile shows them. */
export function companyNotices(fnr: string) {
  const notices = noticesOf(fnr);
  return {
    hasEdikt: notices.length > 0,
    openNotices: notices.filter((n) => n.isOpen).sort(newestFirst).map((n) => ({
      ediktId: n.ediktId, aktenzeichen: n.aktenzeichen, court: { code: n.court.code, text: n.court.name },
      proceeding: { code: n.proceeding.code, text: n.proceeding.text }, firstPublishedOn: n.firstPublishedOn, lastPublishedOn: n.lastPublishedOn,
      // docs/linking.md: the court's FN is 1.0; a clear case linked otherwise is labelled with its evidence.
      link: n.label.evidence ? { evidence: n.label.evidence, confidence: n.label.confidence } : { evidence: 'register-fn', confidence: 1 },
    })),
  };
}

/** A person's open notices: their own, and those of the companies of their current functions. */
export function personOpenNotices(personId: string, functions: Array<{ fnr: string; isCurrent: boolean }>) {
  const own = NOTICES.filter(({ notice }) => notice.debtor.personId === personId && notice.isOpen)
    .map(({ notice: n }) => ({ n, relation: 'debtor' as const, fnr: undefined as string | undefined }));
  const companies = [...new Set(functions.filter((f) => f.isCurrent).map((f) => f.fnr))]
    .flatMap((fnr) => noticesOf(fnr).filter((n) => n.isOpen).map((n) => ({ n, relation: 'company' as const, fnr })));
  return [...own, ...companies]
    .map(({ n, relation, fnr }) => ({
      ediktId: n.ediktId, aktenzeichen: n.aktenzeichen, proceeding: { code: n.proceeding.code, text: n.proceeding.text },
      firstPublishedOn: n.firstPublishedOn, relation, ...(fnr ? { fnr } : {}),
    }))
    .sort(newestFirst);
}
