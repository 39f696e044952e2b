// Pure readers of GISA V2 outputs (GISA-XLSX sheet "Gewerbe", upstream-interfaces.md §3.3): the
// licence object `Gewerbe`, the search hit lists, the two catalogues, the extract job's answers and the
// key's quotas. Each takes the output element of gisaXml.parseAnswer (Returncode OK) and throws a
// GisaResponseParseError (an UnrecoverableInputError) when the content is not what the method returns.
import { canonicalFnr, personId, registerDate } from '../../schemas/identifiers.js';
import type {
  TradeCatalogueEntry, TradeEntitlement, TradeHolder, TradeKind, TradeLicence, TradeLicenceHit, TradeLocation, TradeManager,
} from '../../schemas/tradeRecords.js';
import { childElement, childElements, childText, GisaResponseParseError, type XmlElement } from './gisaXml.js';

/** SearchPersonNat/-Jur answer at most this many hits (GISA-V2). */
export const SEARCH_MAX_HITS = 250;

/** WCF DateTime (`2018-06-15T00:00:00`, with or without offset), ISO date or `dd.mm.yyyy` -> yyyy-mm-dd. */
function date(parent: XmlElement | null, name: string): string | null {
  return registerDate(childText(parent, name));
}

function bool(parent: XmlElement | null, name: string): boolean | null {
  const v = childText(parent, name)?.toLowerCase();
  if (v === 'true' || v === 't' || v === '1') return true;
  if (v === 'false' || v === 'f' || v === '0') return false;
  return null;
}

/** The current entity of a `…Daten` group, and its `Historisch` ones in GISA's order: newest first (§3.3). */
function current(group: XmlElement | null, entity: string): XmlElement | null {
  return childElement(group, entity);
}

function historical(group: XmlElement | null, entity: string): XmlElement[] {
  return childElements(childElement(group, 'Historisch'), entity);
}

function fnrOf(raw: string | null, warnings: string[]): string | null {
  if (raw === null) return null;
  const canonical = canonicalFnr(raw);
  if (!canonical) {
    warnings.push(`FBNummer "${raw}" is no Firmenbuch number`);
    return null;
  }
  if (!canonical.checkLetterValid) warnings.push(`FBNummer "${raw}" has a check letter that does not match its digits`);
  return canonical.fnr;
}

function naturalName(p: XmlElement): { firstName: string | null; lastName: string | null; name: string; birthDate: string | null } {
  const firstName = childText(p, 'Vorname');
  const lastName = childText(p, 'Familienname');
  return { firstName, lastName, name: [firstName, lastName].filter(Boolean).join(' '), birthDate: date(p, 'GebDatum') };
}

function holderOf(gewerbe: XmlElement, warnings: string[]): TradeHolder {
  const group = childElement(gewerbe, 'InhaberDaten');
  const inhaber = current(group, 'Inhaber') ?? historical(group, 'Inhaber')[0] ?? null;
  const jur = childElement(inhaber, 'JurPerson');
  if (jur && childText(jur, 'Firmenname') !== null) {
    return {
      type: 'legal', name: childText(jur, 'Firmenname')!, fnr: fnrOf(childText(jur, 'FBNummer'), warnings),
      personId: null, firstName: null, lastName: null, birthDate: null,
    };
  }
  const nat = childElement(inhaber, 'NatPerson');
  if (!nat) throw new GisaResponseParseError(`Gewerbe ${childText(gewerbe, 'GISAZahl')} names no holder (Inhaber)`);
  const person = naturalName(nat);
  // A sole trader is linked to a company only where the register says so: a registered firm (FirmaListe).
  const firms = childElements(childElement(inhaber, 'FirmaListe'), 'FirmaDaten').map((d) => childElement(d, 'Firma'));
  const firm = firms.find((f) => childText(f, 'FBNummer') !== null) ?? null;
  return {
    type: 'natural', name: person.name, fnr: firm ? fnrOf(childText(firm, 'FBNummer'), warnings) : null,
    personId: person.birthDate ? personId(person.firstName, person.lastName, person.birthDate) : null,
    firstName: person.firstName, lastName: person.lastName, birthDate: person.birthDate,
  };
}

function locationOf(standort: XmlElement): TradeLocation {
  const address = childElement(standort, 'Postadresse');
  const street = [childText(address, 'Strassenname'), childText(address, 'Orientierungsnummer')].filter(Boolean).join(' ');
  return {
    street: street === '' ? null : street,
    zipCode: childText(address, 'PLZ'),
    city: childText(address, 'Ort'),
    effectiveFrom: date(standort, 'RechtswirksamAb'),
    endedOn: date(standort, 'EndigungDatum'),
  };
}

function managerOf(gewerbe: XmlElement): TradeManager | null {
  const gf = current(childElement(gewerbe, 'GeschaeftsfuehrerDaten'), 'Geschaeftsfuehrer');
  const nat = childElement(gf, 'NatPerson');
  if (!gf || !nat || date(gf, 'EndigungDatum') !== null) return null;
  const person = naturalName(nat);
  if (person.name === '') return null;
  return { name: person.name, personId: person.birthDate ? personId(person.firstName, person.lastName, person.birthDate) : null };
}

function entitlementOf(b: XmlElement): TradeEntitlement {
  return { tradeKey: childText(b, 'GewerbeSchluessel'), wording: childText(b, 'Wortlaut'), effectiveFrom: date(b, 'RechtswirksamAb'), endedOn: date(b, 'EndigungDatum') };
}

/** One `Gewerbe` (GetGewerbeV2 detail) as a licence record. */
export function parseGewerbe(gewerbe: XmlElement): TradeLicence {
  const gisaZahl = childText(gewerbe, 'GISAZahl');
  if (!gisaZahl || !/^\d{1,10}$/.test(gisaZahl)) throw new GisaResponseParseError(`Gewerbe without a valid GISAZahl (${gisaZahl ?? 'none'})`);
  const warnings: string[] = [];
  const rights = childElement(gewerbe, 'BerechtigungDaten');
  const berechtigung = current(rights, 'Berechtigung') ?? historical(rights, 'Berechtigung')[0] ?? null;
  if (!berechtigung) throw new GisaResponseParseError(`Gewerbe ${gisaZahl} has no Berechtigung`);
  const ruhend = childElement(berechtigung, 'Ruhend');
  const behoerde = childElement(berechtigung, 'Behoerde');
  const places = childElement(gewerbe, 'StandortDaten');
  // Without a current Standort (an ended licence) the newest former one is where it was last.
  const formerPlaces = historical(places, 'Standort');
  const here = current(places, 'Standort') ?? formerPlaces[0] ?? null;
  const own = entitlementOf(berechtigung);
  return {
    gisaZahl,
    tradeKey: own.tradeKey,
    wording: own.wording,
    authority: { code: childText(behoerde, 'Kuerzel'), text: childText(behoerde, 'Bezeichnung') },
    effectiveFrom: own.effectiveFrom,
    endedOn: own.endedOn,
    isIndustrial: bool(berechtigung, 'IstIndustriebetrieb'),
    isDormant: bool(ruhend, 'IstRuhend') ?? false,
    dormantFrom: date(ruhend, 'RuhendVon'),
    dormantUntil: date(ruhend, 'RuhendBis'),
    holder: holderOf(gewerbe, warnings),
    location: here ? locationOf(here) : null,
    locationHistory: formerPlaces.filter((s) => s !== here).map(locationOf),
    history: historical(rights, 'Berechtigung').filter((b) => b !== berechtigung).map(entitlementOf),
    manager: managerOf(gewerbe),
    warnings,
  };
}

/** GetGewerbeV2Output -> the licence. */
export function parseGetGewerbeV2(root: XmlElement): TradeLicence {
  const gewerbe = childElement(root, 'Gewerbe');
  if (!gewerbe || childText(gewerbe, 'GISAZahl') === null) throw new GisaResponseParseError('GetGewerbeV2 answered OK without a Gewerbe');
  return parseGewerbe(gewerbe);
}

/** SearchPersonOutput -> the hit list's licences (at most 250: `capped` says the list may be cut). */
export function parseSearchPerson(root: XmlElement): { hits: TradeLicenceHit[]; capped: boolean } {
  const hits = childElements(childElement(root, 'GewerbeListe'), 'Gewerbe').map((g): TradeLicenceHit => {
    const gisaZahl = childText(g, 'GISAZahl');
    if (!gisaZahl) throw new GisaResponseParseError('a search hit without GISAZahl');
    const b = current(childElement(g, 'BerechtigungDaten'), 'Berechtigung');
    const inhaber = current(childElement(g, 'InhaberDaten'), 'Inhaber');
    const jur = childElement(inhaber, 'JurPerson');
    const nat = childElement(inhaber, 'NatPerson');
    const person = nat ? naturalName(nat) : null;
    return {
      gisaZahl, tradeKey: childText(b, 'GewerbeSchluessel'), endedOn: date(b, 'EndigungDatum'), holderFnr: canonicalFnr(childText(jur, 'FBNummer'))?.fnr ?? null,
      holderPerson: person && (person.lastName || person.birthDate) ? { firstName: person.firstName, lastName: person.lastName, birthDate: person.birthDate } : null,
    };
  });
  return { hits, capped: hits.length >= SEARCH_MAX_HITS };
}

export function parseKatalogGewerbeschluessel(root: XmlElement): TradeCatalogueEntry[] {
  const list = childElement(root, 'GewerbeSchluesselListe');
  if (!list) throw new GisaResponseParseError('GetKatalogGewerbeschluessel answered without GewerbeSchluesselListe');
  return childElements(list, 'GewerbeSchluessel').map((k) => {
    const tradeKey = childText(k, 'Kennzahl');
    const name = childText(k, 'Wortlaut');
    if (!tradeKey || !/^\d{1,6}$/.test(tradeKey) || !name) throw new GisaResponseParseError(`catalogue entry without Kennzahl or Wortlaut (${tradeKey ?? '?'})`);
    return { tradeKey, name, kindCode: childText(k, 'GewerbeArt'), isHistorical: bool(k, 'IstHistorisch') ?? false };
  });
}

export function parseKatalogGewerbeart(root: XmlElement): TradeKind[] {
  const list = childElement(root, 'GewerbeArtListe');
  if (!list) throw new GisaResponseParseError('GetKatalogGewerbeart answered without GewerbeArtListe');
  return childElements(list, 'GewerbeArt').map((k) => {
    const code = childText(k, 'Code');
    const name = childText(k, 'Bezeichnung');
    if (!code || !name) throw new GisaResponseParseError('GewerbeArt without Code or Bezeichnung');
    return { code, name, isHistorical: bool(k, 'IstHistorisch') ?? false };
  });
}

export function parseStartAuszug(root: XmlElement): number {
  const id = Number(childText(root, 'Jobid'));
  if (!Number.isInteger(id) || id <= 0) throw new GisaResponseParseError(`StartGISAAuszug answered no Jobid (${childText(root, 'Jobid') ?? 'none'})`);
  return id;
}

export function parseAuszugStatus(root: XmlElement): 'Working' | 'Completed' {
  const status = childText(root, 'Status');
  if (status !== 'Working' && status !== 'Completed') throw new GisaResponseParseError(`GetAuszugStatus answered status ${status ?? 'none'}`);
  return status;
}

/** GetAuszug's byte array (base64): a PDF, or the answer is refused. */
export function parseAuszug(root: XmlElement): Buffer {
  const base64 = childText(root, 'Auszug');
  const pdf = base64 ? Buffer.from(base64.replace(/\s+/g, ''), 'base64') : Buffer.alloc(0);
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new GisaResponseParseError('GetAuszug answered no PDF');
  return pdf;
}

export interface ApikeyInfo {
  quotaDataPerMinute: number | null;
  quotaExtractsPerMinute: number | null;
  expiresOn: string | null;
}

export function parseApikeyInfo(root: XmlElement): ApikeyInfo {
  const n = (name: string) => {
    const v = Number(childText(root, name));
    return Number.isFinite(v) && childText(root, name) !== null ? v : null;
  };
  return { quotaDataPerMinute: n('QuotaDatenMinute'), quotaExtractsPerMinute: n('QuotaAuszugMinute'), expiresOn: date(root, 'AblaufDatum') };
}
