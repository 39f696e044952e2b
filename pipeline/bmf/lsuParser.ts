// The BMF list of bogus companies (Liste der Scheinunternehmen) as served by __Gen_Csv.asp, read
// by pure functions: a `~`-separated text without quoting, a header whose names carry stray spaces,
// nine columns (rows sometimes end in an extra `~`), `""` or `" "` for empty cells, HTML entities in
// values, and a `Stand: DD.MM.YYYY HH:MM:SS` footer that is the list's version. Column mix-ups of the
// hand-kept list are repaired where certain and always reported as row warnings (schemas/bmfRecords.ts).
import { decodeHTML } from 'entities';
import type { BogusListing, LsuList, LsuRow, LsuWarning } from '../../schemas/bmfRecords.js';
import { canonicalFnr, registerDate } from '../../schemas/identifiers.js';
import { UnrecoverableInputError } from '../jobs/errors.js';

export const LSU_COLUMNS = [
  'Name', 'Anschrift', 'Veröffentlichung', 'Rechtskraft Bescheid', 'Zeitpunkt als Scheinunternehmen', 'Geburts-Datum',
  'Firmenbuch-Nr', 'UID-Nr.', 'Kennziffer des UR',
] as const;

/** A complete list that cannot be read (another header, a row of the wrong width): retrying fetches the same. */
export class LsuParseError extends UnrecoverableInputError {}

const FOOTER = /^Stand:\s+(\d{1,2})\.(\d{1,2})\.(\d{4})\s+(\d{1,2}):(\d{2}):(\d{2})\s*$/;
const AT_UID = /^ATU\d{8}$/;
const FOREIGN_VAT = /^(?!AT)[A-Z]{2}[A-Z0-9]{6,12}$/;
const KENNZIFFER = /^R\d{3}[A-Z]\d{3,4}[A-Z0-9]?$/;
const ADDRESS = /^(\d{4})\s+([^,]+?)\s*(?:,\s*(.*))?$/;

const lines = (text: string) => text.split(/\r\n|\r|\n/);

/** "PLZ Ort, Straße Nr" as zip code, city and street; null without a leading Austrian zip code. */
export function addressParts(address: string | null): { zipCode: string; city: string; street: string | null } | null {
  const m = address ? ADDRESS.exec(address) : null;
  return m ? { zipCode: m[1]!, city: m[2]!, street: m[3] || null } : null;
}

/**
 * True when the text ends with its `Stand:` footer. A body without one was cut off on the way (or
 * is no list at all): a transport fault to retry, never a list to apply.
 */
export function lsuListComplete(text: string): boolean {
  const last = lines(text).map((l) => l.trim()).filter((l) => l !== '').pop();
  return last !== undefined && FOOTER.test(last);
}

/** An ATU number's check digit: alternate doubling over digits 1-7, (10 - (S + 4) mod 10) mod 10. */
export function atUidCheckDigitValid(uid: string): boolean {
  const d = uid.slice(3).split('').map(Number);
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const v = i % 2 === 1 ? d[i]! * 2 : d[i]!;
    sum += Math.floor(v / 10) + (v % 10);
  }
  return (10 - ((sum + 4) % 10)) % 10 === d[7];
}

/** A cell's value: entities decoded, surrounding quotes and spaces dropped; `""`, `" "` and nothing are null. */
function cell(raw: string | undefined): string | null {
  const v = decodeHTML(raw ?? '').replace(/\s+/g, ' ').trim().replace(/^"(.*)"$/, '$1').trim();
  return v === '' ? null : v;
}

const isUid = (v: string | null) => v !== null && (AT_UID.test(v) || FOREIGN_VAT.test(v));
const isKennziffer = (v: string | null) => v !== null && KENNZIFFER.test(v);
const isFnr = (v: string | null) => v !== null && canonicalFnr(v) !== null;

interface Identifiers {
  fnr: string | null;
  uid: string | null;
  kz: string | null;
  warnings: LsuWarning[];
}

/** Repairs the column mix-ups the list is known for, in this order, each reported. */
function sortIdentifiers(fnrCell: string | null, uidCell: string | null, kzCell: string | null): Identifiers {
  let [fnr, uid, kz] = [fnrCell, uidCell?.replace(/\s/g, '') ?? null, kzCell?.replace(/\s/g, '') ?? null];
  const warnings: LsuWarning[] = [];
  if (!isUid(uid) && !isKennziffer(kz) && ((uid !== null && isKennziffer(uid)) || (kz !== null && AT_UID.test(kz)))) {
    [uid, kz] = [kz, uid];
    warnings.push('uid-kennziffer-swapped');
  }
  if (fnr !== null && isKennziffer(fnr) && (kz === null || isFnr(kz))) {
    [fnr, kz] = [kz, fnr];
    warnings.push('fnr-kennziffer-swapped');
  }
  if (isFnr(kz) && (fnr === null || canonicalFnr(fnr)?.fnr === canonicalFnr(kz)?.fnr)) {
    fnr = fnr ?? kz;
    kz = null;
    warnings.push('fnr-in-kennziffer');
  }
  if (kz !== null && kz === uid) {
    kz = null;
    warnings.push('kennziffer-duplicates-uid');
  }
  if (uid === null && kz !== null && FOREIGN_VAT.test(kz)) [uid, kz] = [kz, null];
  if (uid !== null && FOREIGN_VAT.test(uid)) warnings.push('foreign-vat');
  return { fnr, uid, kz, warnings };
}

function readDate(raw: string | null, warning: LsuWarning, warnings: LsuWarning[]): string | null {
  if (raw === null) return null;
  const iso = registerDate(raw);
  if (!iso) warnings.push(warning);
  return iso;
}

function readRow(fields: string[], line: number): LsuRow {
  const [name, address, published, decision, deemed, birth, fnrCell, uidCell, kzCell] = fields.map(cell);
  if (!name) throw new LsuParseError(`BMF list line ${line}: a row without a name`);
  const ids = sortIdentifiers(fnrCell ?? null, uidCell ?? null, kzCell ?? null);
  const warnings = [...ids.warnings];
  const fnr = ids.fnr === null ? null : canonicalFnr(ids.fnr);
  if (ids.fnr !== null) {
    if (!fnr) warnings.push('fnr-unreadable');
    else {
      if (/^FN/i.test(ids.fnr)) warnings.push('fnr-prefixed');
      if (/[A-Z]\s*$/.test(ids.fnr)) warnings.push('fnr-upper-case-letter');
      if (!fnr.checkLetterValid) warnings.push('fnr-check-letter');
    }
  }
  if (ids.uid !== null && !isUid(ids.uid)) warnings.push('uid-unreadable');
  if (ids.uid !== null && AT_UID.test(ids.uid) && !atUidCheckDigitValid(ids.uid)) warnings.push('uid-check-digit');
  if (ids.kz !== null && !isKennziffer(ids.kz)) warnings.push('kennziffer-unreadable');
  const parts = addressParts(address ?? null);
  if (address && !parts) warnings.push('address-without-zip');
  return {
    line,
    kind: birth ? 'natural' : 'legal',
    name,
    address: address ?? null,
    zipCode: parts?.zipCode ?? null,
    city: parts?.city ?? null,
    street: parts?.street ?? null,
    publishedOn: readDate(published ?? null, 'published-on-unreadable', warnings),
    decisionFinalOn: readDate(decision ?? null, 'decision-final-on-unreadable', warnings),
    deemedSince: readDate(deemed ?? null, 'deemed-since-unreadable', warnings),
    birthDate: readDate(birth ?? null, 'birth-date-unreadable', warnings),
    fnr: fnr?.fnr ?? null,
    fnrCheckLetterValid: fnr ? fnr.checkLetterValid : null,
    uid: ids.uid,
    urCode: ids.kz,
    warnings,
  };
}

/** Reads a whole list (decoded text). A list without its footer is refused: lsuListComplete() tells it first. */
export function parseLsuList(text: string): LsuList {
  if (!lsuListComplete(text)) throw new LsuParseError('BMF list without its Stand: footer (cut off?)', text);
  const all = lines(text);
  const headerAt = all.findIndex((l) => l.trim() !== '');
  const header = (all[headerAt] ?? '').split('~').map((h) => h.trim());
  if (header.length === LSU_COLUMNS.length + 1 && header.at(-1) === '') header.pop();
  if (header.join('~') !== LSU_COLUMNS.join('~')) {
    throw new LsuParseError(`BMF list: unexpected header ${JSON.stringify(all[headerAt] ?? '')}`, text);
  }
  const rows: LsuRow[] = [];
  let version: string | null = null;
  for (let i = headerAt + 1; i < all.length; i++) {
    const raw = all[i]!;
    if (raw.trim() === '') continue;
    const line = i + 1;
    if (version !== null) throw new LsuParseError(`BMF list line ${line}: text after the Stand: footer`, text);
    const footer = FOOTER.exec(raw.trim());
    if (footer) {
      const [, d, m, y, hh, mm, ss] = footer;
      version = `${y}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}T${hh!.padStart(2, '0')}:${mm}:${ss}`;
      continue;
    }
    const fields = raw.split('~');
    if (fields.length === LSU_COLUMNS.length + 1 && fields.at(-1)!.trim() === '') fields.pop();
    if (fields.length !== LSU_COLUMNS.length) {
      throw new LsuParseError(`BMF list line ${line}: ${fields.length} columns instead of ${LSU_COLUMNS.length}`, text);
    }
    try {
      rows.push(readRow(fields, line));
    } catch (err) {
      throw err instanceof LsuParseError ? new LsuParseError(err.message, text) : err;
    }
  }
  if (version === null) throw new LsuParseError('BMF list without its Stand: footer', text);
  return { version, rows };
}

const fold = (v: string | null) => (v ?? '').toLowerCase().replace(/\s+/g, ' ').trim();

/** The key bogus_company_listing is keyed by: the normalised FN, else the UID, else name + address + decision date. */
export function listingKey(row: Pick<LsuRow, 'fnr' | 'uid' | 'name' | 'address' | 'decisionFinalOn'>): string {
  if (row.fnr) return `fn:${row.fnr}`;
  if (row.uid) return `uid:${row.uid}`;
  return `name:${fold(row.name)}|${fold(row.address)}|${row.decisionFinalOn ?? ''}`;
}

/** The rows of a list grouped into listings; a listing's fields come from its latest publication's row. */
export function listingsOf(list: LsuList): BogusListing[] {
  const groups = new Map<string, LsuRow[]>();
  for (const row of list.rows) {
    const key = listingKey(row);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups].map(([listingKey, rows]) => {
    const byDate = [...rows].sort((a, b) => (a.publishedOn ?? '').localeCompare(b.publishedOn ?? '') || a.line - b.line);
    const latest = byDate.at(-1)!;
    const warnings = new Set(rows.flatMap((r) => r.warnings));
    const publications = new Map<string, BogusListing['publications'][number]>();
    for (const r of byDate) {
      if (!r.publishedOn) continue;
      if (publications.has(r.publishedOn)) warnings.add('duplicate-row');
      publications.set(r.publishedOn, { publishedOn: r.publishedOn, decisionFinalOn: r.decisionFinalOn, deemedSince: r.deemedSince });
    }
    return {
      listingKey,
      kind: rows.some((r) => r.kind === 'natural') ? 'natural' : 'legal',
      name: latest.name, address: latest.address, zipCode: latest.zipCode, street: latest.street,
      fnr: latest.fnr, fnrCheckLetterValid: latest.fnrCheckLetterValid, uid: latest.uid, urCode: latest.urCode, birthDate: latest.birthDate,
      warnings: [...warnings],
      publications: [...publications.values()],
    };
  });
}
