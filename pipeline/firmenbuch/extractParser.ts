// AUSZUG_V2 (Firmenbuch extract) -> normalised CompanyExtract record.
//
// Every "data group" (FI_DKZ02, FU_DKZ10, PE_DKZ02, …) carries VNR / AUFRECHT / MIT_FIRMA_GELOESCHT_DURCH_VNR;
// history is several instances of the same group, the overwritten ones with AUFRECHT="false". The HVD tier
// serves "Kurzinformation", which may or may not carry history, shareholders (FKEN="GS") or VOLLZ: all of
// them are optional here.

import type {
  CodeText, CompanyAddress, CompanyExtract, CompanyFunction, ForeignRegistration, Holding, MoneyAmount, Party, RegisterEntry,
} from '../../schemas/firmenbuchRecords.js';
import { canonicalFnr, personId, registerDate } from '../../schemas/identifiers.js';
import {
  FirmenbuchResponseParseError,
  attribute,
  childElement,
  childElements,
  childText,
  childTexts,
  parseSoapResponse,
  type XmlElement,
} from './soapResponse.js';
import type { FirmenbuchOperation } from './soapEnvelope.js';

// ---------------------------------------------------------------------------------------------------
// Shared value readers (also used by registerParsers.ts)

/** Collects data-quality warnings while one response is parsed. */
export class Warnings {
  readonly list: string[] = [];
  add(message: string): void {
    if (!this.list.includes(message)) this.list.push(message);
  }
}

export function codeText(element: XmlElement | null): CodeText | null {
  const code = childText(element, 'CODE');
  return code === null ? null : { code, text: childText(element, 'TEXT') };
}

/** YYYYMMDD or ISO -> YYYY-MM-DD; an unreadable value is a warning and null. */
export function dateValue(raw: string | null, field: string, warnings: Warnings): string | null {
  if (raw === null) return null;
  const date = registerDate(raw);
  if (date === null) warnings.add(`${field}: unreadable date ${JSON.stringify(raw)}`);
  return date;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d+))?$/;

/** xs:decimal -> exact decimal string without leading zeros; the fraction is kept as given. */
export function decimalValue(raw: string | null, field: string, warnings: Warnings): string | null {
  if (raw === null) return null;
  const m = DECIMAL.exec(raw.trim());
  if (!m || (m[2] === '' && m[3] === undefined)) {
    warnings.add(`${field}: unreadable amount ${JSON.stringify(raw)}`);
    return null;
  }
  const integer = m[2]!.replace(/^0+(?=\d)/, '') || '0';
  return `${m[1] === '-' ? '-' : ''}${integer}${m[3] !== undefined ? `.${m[3]}` : ''}`;
}

export function fnrValue(raw: string | null, field: string, warnings: Warnings): { fnr: string; checkLetterValid: boolean } | null {
  if (raw === null) return null;
  const fnr = canonicalFnr(raw);
  if (!fnr) warnings.add(`${field}: not a Firmenbuchnummer ${JSON.stringify(raw)}`);
  else if (!fnr.checkLetterValid) warnings.add(`${field}: check letter does not match digits in ${JSON.stringify(raw)}`);
  return fnr;
}

/** PNR is padded with spaces upstream (`"  A"`); trimmed it is the key between FUN and PER. */
export function pnrValue(raw: string | null): string {
  return (raw ?? '').trim();
}

/** Accepts a parsed response root or the raw SOAP XML of the expected operation. */
export function responseRoot(input: XmlElement | string, operation: FirmenbuchOperation): XmlElement {
  if (typeof input !== 'string') return input;
  const response = parseSoapResponse(input);
  if (response.operation !== operation) {
    throw new FirmenbuchResponseParseError('unexpectedRoot', `expected a ${operation} response, got ${response.operation}`, input);
  }
  return response.root;
}

// ---------------------------------------------------------------------------------------------------
// Data groups

function isAufrecht(group: XmlElement): boolean {
  // Missing attribute = not overwritten.
  return attribute(group, 'AUFRECHT')?.trim() !== 'false';
}

function vnrOf(group: XmlElement): string | null {
  return attribute(group, 'VNR')?.trim() || null;
}

function vnrNumber(vnr: string | null): number {
  return vnr === null ? -1 : Number.parseInt(vnr, 10) || 0;
}

function byVnr<T>(vnr: (item: T) => string | null): (a: T, b: T) => number {
  return (a, b) => vnrNumber(vnr(a)) - vnrNumber(vnr(b));
}

/** The standing instance of a group: AUFRECHT, highest VNR; else the latest overwritten one. */
function currentGroup(groups: XmlElement[]): XmlElement | null {
  const sorted = [...groups].sort(byVnr(vnrOf)).reverse();
  return sorted.find(isAufrecht) ?? sorted[0] ?? null;
}

function deletedWithCompanyBy(group: XmlElement): string | null {
  return attribute(group, 'MIT_FIRMA_GELOESCHT_DURCH_VNR')?.trim() || null;
}

function joinLines(lines: string[], separator = ' '): string | null {
  return lines.length === 0 ? null : lines.join(separator);
}

/** Lower-case words that follow a hyphen at a line end in an elided compound ("Bau-" / "und Handels..."). */
const AFTER_ELIDED_COMPOUND = /^(?:und|u\.|oder|bzw\.|sowie|bis|als|mit|für|in|im|zur|zum|der|die|das|des|von|vom|am|an|auf|aus|bei|nach|über|unter)(?=[\s,.;:]|$)/;

/**
 * Name and text lines as the register breaks them: a word hyphenated at a line end ("Handels-" /
 * "gesellschaft") is one word again, without the hyphen. Only a letter and a hyphen at the end of a line
 * before a lower-case letter are that case; a hyphen after a space ("Müller -" / "Bau") and a hyphen
 * before "und", "oder" and the like ("Meier-" / "und Partner": an elided compound) keep the space.
 */
export function joinRegisterLines(lines: string[]): string | null {
  if (lines.length === 0) return null;
  let joined = lines[0]!;
  for (const line of lines.slice(1)) {
    const next = line.trimStart();
    const wordBroken = /\p{L}-$/u.test(joined) && /^\p{Ll}/u.test(next) && !AFTER_ELIDED_COMPOUND.test(next);
    joined = wordBroken ? joined.slice(0, -1) + next : `${joined} ${line}`;
  }
  return joined;
}

// ---------------------------------------------------------------------------------------------------
// FIRMA

function names(firma: XmlElement | null): Pick<CompanyExtract, 'name' | 'nameLines' | 'formerNames'> {
  const groups = childElements(firma, 'FI_DKZ02');
  const current = currentGroup(groups);
  const nameLines = childTexts(current, 'BEZEICHNUNG');
  const formerNames = groups
    .filter((g) => g !== current && !isAufrecht(g))
    .map((g) => ({ lines: childTexts(g, 'BEZEICHNUNG'), vnr: vnrOf(g) }))
    .filter((n) => n.lines.length > 0)
    .sort(byVnr((n) => n.vnr))
    .map(({ lines, vnr }) => ({ name: joinRegisterLines(lines)!, lines, vnr }));
  return { name: joinRegisterLines(nameLines), nameLines, formerNames };
}

function streetLine(street: string | null, houseNumber: string | null, staircase: string | null, door: string | null): string | null {
  if (street === null) return houseNumber;
  const number = [houseNumber, staircase, door].filter((p): p is string => p !== null).join('/');
  return number === '' ? street : `${street} ${number}`;
}

/** DKZ03_A_Typ: a choice between STELLE lines and the split street fields, then STAAT/PLZ/ORT. */
export function address(group: XmlElement, isCurrent: boolean): CompanyAddress {
  const stelle = childTexts(group, 'STELLE');
  const street = childText(group, 'STRASSE');
  const houseNumber = childText(group, 'HAUSNUMMER');
  const staircase = childText(group, 'STIEGE');
  const door = childText(group, 'TUERNUMMER');
  const deliverable = childText(group, 'ZUSTELLBAR');
  const structured = stelle.length === 0;
  return {
    isCurrent,
    vnr: vnrOf(group),
    form: structured ? 'structured' : 'line',
    streetLine: structured ? streetLine(street, houseNumber, staircase, door) : stelle.join(', '),
    street,
    houseNumber,
    staircase,
    door,
    deliveryNote: childText(group, 'ZUSTELLANWEISUNG'),
    zipCode: childText(group, 'PLZ'),
    city: childText(group, 'ORT'),
    country: childText(group, 'STAAT'),
    deliverable: deliverable === null ? null : deliverable === 'true' || deliverable === '1',
  };
}

/** Current address first, then the overwritten ones, newest first. */
function addresses(firma: XmlElement | null): CompanyAddress[] {
  const groups = childElements(firma, 'FI_DKZ03');
  const current = currentGroup(groups);
  const others = groups.filter((g) => g !== current).sort(byVnr(vnrOf)).reverse();
  return [...(current ? [address(current, isAufrecht(current))] : []), ...others.map((g) => address(g, false))];
}

function seat(firma: XmlElement | null): Pick<CompanyExtract, 'seat' | 'municipalityCode' | 'municipality'> {
  const group = currentGroup(childElements(firma, 'FI_DKZ06'));
  const ortnr = codeText(childElement(group, 'ORTNR'));
  return { seat: childText(group, 'SITZ'), municipalityCode: ortnr?.code ?? null, municipality: ortnr?.text ?? null };
}

function legalForm(firma: XmlElement | null): CodeText | null {
  return codeText(childElement(currentGroup(childElements(firma, 'FI_DKZ07')), 'RECHTSFORM'));
}

function capital(firma: XmlElement | null, warnings: Warnings): MoneyAmount | null {
  const group = currentGroup(childElements(firma, 'FI_DKZ20'));
  const amount = decimalValue(childText(group, 'KAPITAL'), 'FI_DKZ20/KAPITAL', warnings);
  return amount === null ? null : { amount, currency: childText(group, 'WHR') };
}

function businessPurpose(firma: XmlElement | null): string | null {
  return joinRegisterLines(childTexts(currentGroup(childElements(firma, 'FI_DKZ05')), 'TEXT'));
}

// ---------------------------------------------------------------------------------------------------
// VOLLZ, status, court, EUID

function registerEntries(root: XmlElement, warnings: Warnings): RegisterEntry[] {
  return childElements(root, 'VOLLZ')
    .map((v) => ({
      vnr: childText(v, 'VNR') ?? '',
      executedOn: dateValue(childText(v, 'VOLLZUGSDATUM'), 'VOLLZ/VOLLZUGSDATUM', warnings),
      court: codeText(childElement(v, 'HG')),
      az: childText(v, 'AZ'),
      applicationTexts: childTexts(v, 'ANTRAGSTEXT'),
      receivedOn: dateValue(childText(v, 'EINGELANGTAM'), 'VOLLZ/EINGELANGTAM', warnings),
    }))
    .sort(byVnr((e) => e.vnr));
}

/** All data groups of the company (FIRMA, FUN, PER), for the deletion markers they carry. */
function allDataGroups(root: XmlElement): XmlElement[] {
  const firma = childElement(root, 'FIRMA');
  const groupsOf = (parent: XmlElement | null) =>
    Object.keys(parent ?? {})
      .filter((key) => /^(FI|FU|PE)_DKZ\d+$/.test(key))
      .flatMap((key) => childElements(parent, key));
  return [firma, ...childElements(root, 'FUN'), ...childElements(root, 'PER')].flatMap(groupsOf);
}

// "Löschung" of the company, not of a branch (Zweigniederlassung) or a single entry.
const COMPANY_DELETION = /L(?:ö|oe)schung/i;
const NOT_COMPANY_DELETION = /Zweigniederlassung|Funktion|Prokura/i;

function isDeletionEntry(entry: RegisterEntry): boolean {
  return entry.applicationTexts.some((t) => COMPANY_DELETION.test(t) && !NOT_COMPANY_DELETION.test(t));
}

function deletion(root: XmlElement, entries: RegisterEntry[]): CompanyExtract['deletion'] {
  const markedBy = allDataGroups(root).map(deletedWithCompanyBy).find((v) => v !== null) ?? null;
  const entry = markedBy !== null ? entries.find((e) => e.vnr === markedBy) : [...entries].reverse().find(isDeletionEntry);
  if (markedBy === null && !entry) return null;
  return { vnr: markedBy ?? entry?.vnr ?? null, executedOn: entry?.executedOn ?? null };
}

const AZ_COURT = /^(\d{3})\s/;

function companyCourt(entries: RegisterEntry[]): CodeText | null {
  const latestFirst = [...entries].reverse();
  const withCourt = latestFirst.find((e) => e.court !== null);
  if (withCourt) return withCourt.court;
  const az = latestFirst.map((e) => (e.az === null ? null : AZ_COURT.exec(e.az))).find((m) => m);
  return az ? { code: az[1]!, text: null } : null;
}

/** EUID of the head office (ZNR 000); branches have their own. */
function headOfficeEuid(root: XmlElement): string | null {
  const euids = childElements(root, 'EUID');
  const head = euids.find((e) => (childText(e, 'ZNR') ?? '000') === '000') ?? euids[0];
  return childText(head, 'EUID');
}

// ---------------------------------------------------------------------------------------------------
// FUN and PER

function isCurrentFunction(group: XmlElement | null, until: string | null, asOf: string | null): boolean {
  if (!group || !isAufrecht(group) || deletedWithCompanyBy(group) !== null) return false;
  return until === null || asOf === null || until > asOf;
}

function companyFunction(fun: XmlElement, asOf: string | null, warnings: Warnings): CompanyFunction {
  const pnr = pnrValue(attribute(fun, 'PNR'));
  const main = currentGroup(childElements(fun, 'FU_DKZ10'));
  const paid = currentGroup(childElements(fun, 'FU_DKZ11'));
  const until = dateValue(childText(main, 'DATBIS'), `FUN ${pnr}/DATBIS`, warnings);
  return {
    pnr,
    functionCode: (attribute(fun, 'FKEN') ?? '').trim(),
    functionText: attribute(fun, 'FKENTEXT')?.trim() || null,
    representation: codeText(childElement(main, 'VART')),
    since: dateValue(childText(main, 'DATVON'), `FUN ${pnr}/DATVON`, warnings),
    until,
    capital: decimalValue(childText(main, 'KAPITAL'), `FUN ${pnr}/KAPITAL`, warnings),
    paidIn: decimalValue(childText(paid, 'EINBEZAHLT'), `FUN ${pnr}/EINBEZAHLT`, warnings),
    currency: childText(main, 'WHR') ?? childText(paid, 'WHR'),
    isCurrent: isCurrentFunction(main, until, asOf),
    vnr: main ? vnrOf(main) : null,
    texts: [...childTexts(main, 'TXTVERTR'), ...childTexts(main, 'TEXT')],
  };
}

function foreignRegistration(group: XmlElement | null): ForeignRegistration | null {
  if (!group) return null;
  return {
    court: joinLines(childTexts(group, 'AUSL_HG')),
    registerNumber: childText(group, 'AUSL_FN'),
    seat: childText(group, 'AUSL_SITZ'),
    legalForm: codeText(childElement(group, 'AUSL_FORM')),
  };
}

function currentAddress(per: XmlElement): CompanyAddress | null {
  const group = currentGroup(childElements(per, 'PE_DKZ03'));
  return group ? address(group, isAufrecht(group)) : null;
}

/**
 * Legal-entity persons (BEZEICHNUNG instead of first/last name) are not people: with PE_FNR they are
 * that company, otherwise an organisation. Addresses are kept only for those: a natural person's
 * address is private data this service does not store.
 */
function party(per: XmlElement, warnings: Warnings): Party {
  const pnr = pnrValue(attribute(per, 'PNR'));
  const nameGroup = currentGroup(childElements(per, 'PE_DKZ02'));
  const vnr = nameGroup ? vnrOf(nameGroup) : null;
  const designation = joinRegisterLines(childTexts(nameGroup, 'BEZEICHNUNG'));
  const relatedFnr = fnrValue(childText(currentGroup(childElements(per, 'PE_DKZ09')), 'PE_FNR'), `PER ${pnr}/PE_FNR`, warnings);
  if (relatedFnr) {
    return {
      kind: 'company',
      pnr,
      vnr,
      relatedFnr: relatedFnr.fnr,
      relatedFnrCheckLetterValid: relatedFnr.checkLetterValid,
      name: designation,
      address: currentAddress(per),
    };
  }
  if (designation !== null) {
    return {
      kind: 'organisation',
      pnr,
      vnr,
      name: designation,
      address: currentAddress(per),
      foreignRegistration: foreignRegistration(currentGroup(childElements(per, 'PE_DKZ06'))),
    };
  }
  const firstName = childText(nameGroup, 'VORNAME');
  const lastName = childText(nameGroup, 'NACHNAME');
  const birthDate = dateValue(childText(nameGroup, 'GEBURTSDATUM'), `PER ${pnr}/GEBURTSDATUM`, warnings);
  return {
    kind: 'person',
    pnr,
    vnr,
    personId: personId(firstName, lastName, birthDate),
    firstName,
    lastName,
    titles: { before: childText(nameGroup, 'TITELVOR'), after: childText(nameGroup, 'TITELNACH') },
    birthDate,
  };
}

function holding(fn: CompanyFunction, parties: Map<string, Party>): Holding {
  const holder = parties.get(fn.pnr) ?? null;
  return {
    holderPnr: fn.pnr,
    holderKind: holder?.kind ?? null,
    holderPersonId: holder?.kind === 'person' ? holder.personId : null,
    holderFnr: holder?.kind === 'company' ? holder.relatedFnr : null,
    capital: fn.capital,
    paidIn: fn.paidIn,
    currency: fn.currency,
    since: fn.since,
    until: fn.until,
    isCurrent: fn.isCurrent,
    vnr: fn.vnr,
  };
}

function checkPartyLinks(functions: CompanyFunction[], parties: Map<string, Party>, warnings: Warnings): void {
  for (const fn of functions) {
    if (!parties.has(fn.pnr)) warnings.add(`FUN ${fn.pnr}/${fn.functionCode}: no PER block for this PNR`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Entry point

function extractFnr(root: XmlElement, warnings: Warnings, xml: string | undefined): { fnr: string; checkLetterValid: boolean } {
  const fnr = fnrValue(attribute(root, 'FNR'), 'AUSZUG_V2_RESPONSE/@FNR', warnings);
  if (!fnr) throw new FirmenbuchResponseParseError('unexpectedContent', 'extract without a readable FNR', xml);
  return fnr;
}

/** Parses AUSZUG_V2_RESPONSE (the parsed root, or the whole SOAP response XML). */
export function parseAuszug(input: XmlElement | string): CompanyExtract {
  const root = responseRoot(input, 'auszug');
  const warnings = new Warnings();
  const { fnr, checkLetterValid } = extractFnr(root, warnings, typeof input === 'string' ? input : undefined);
  const firma = childElement(root, 'FIRMA');
  const asOf = dateValue(attribute(root, 'STICHTAG'), 'AUSZUG_V2_RESPONSE/@STICHTAG', warnings);
  const entries = registerEntries(root, warnings);
  const functions = childElements(root, 'FUN').map((fun) => companyFunction(fun, asOf, warnings));
  const parties = childElements(root, 'PER').map((per) => party(per, warnings));
  const partiesByPnr = new Map(parties.map((p) => [p.pnr, p]));
  checkPartyLinks(functions, partiesByPnr, warnings);
  const deleted = deletion(root, entries);
  return {
    fnr,
    fnrCheckLetterValid: checkLetterValid,
    asOf,
    queriedAt: attribute(root, 'ABFRAGEZEITPUNKT')?.trim() || null,
    checksum: attribute(root, 'PRUEFSUMME')?.trim() || null,
    ...names(firma),
    addresses: addresses(firma),
    ...seat(firma),
    legalForm: legalForm(firma),
    capital: capital(firma, warnings),
    businessPurpose: businessPurpose(firma),
    status: deleted ? 'deleted' : 'active',
    deletion: deleted,
    court: companyCourt(entries),
    euid: headOfficeEuid(root),
    kur: childText(root, 'KUR'),
    registerEntries: entries,
    functions,
    parties,
    holdings: functions.filter((f) => f.functionCode === 'GS').map((f) => holding(f, partiesByPnr)),
    warnings: warnings.list,
  };
}
