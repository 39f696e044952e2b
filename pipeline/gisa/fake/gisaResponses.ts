// GISA V2 answers as the service writes them (WCF DataContractSerializer, XML style): members in
// ordinal order, empty values as `i:nil="true"`, the entities in a namespace of their own under a
// prefix that varies, dates as DateTime. Used to write the fixtures (writeFixtures.ts) and by the fake.
import { escapeXml, GISA_ENTITY_NS, GISA_SERVICE_NS, outputName, XSI_NS, type GisaMethod } from '../gisaXml.js';
import { CATALOGUE, type ModelAddress, type ModelHolder, type ModelLicence, type ModelPerson } from './fixtureModel.js';

class Writer {
  constructor(private readonly prefix: string, private readonly offsetDates: boolean) {}

  el(name: string, content: string | null | undefined): string {
    const p = this.prefix ? `${this.prefix}:` : '';
    if (content === null || content === undefined) return `<${p}${name} i:nil="true"/>`;
    return `<${p}${name}>${content}</${p}${name}>`;
  }

  text(name: string, value: string | null | undefined): string {
    return this.el(name, value === null || value === undefined ? null : escapeXml(value));
  }

  date(name: string, value: string | null | undefined): string {
    return this.el(name, value ? `${value}T00:00:00${this.offsetDates ? '+01:00' : ''}` : null);
  }

  bool(name: string, value: boolean): string {
    return this.el(name, value ? 'true' : 'false');
  }
}

let personCounter = 900000;
const personIds = new Map<string, number>();
function personIdOf(key: string): string {
  if (!personIds.has(key)) personIds.set(key, ++personCounter);
  return String(personIds.get(key));
}

function natPerson(w: Writer, p: ModelPerson): string {
  return w.el('NatPerson', w.text('Familienname', p.last) + w.date('GebDatum', p.born) + w.text('NachTitel', null)
    + w.text('PersonID', personIdOf(`${p.first} ${p.last} ${p.born ?? ''}`)) + w.text('Titel', p.title ?? null) + w.text('Vorname', p.first));
}

function jurPerson(w: Writer, name: 'JurPerson' | 'Firma', fnrSpelled: string | null, firmName: string, form: string): string {
  return w.el(name, w.text('FBNummer', fnrSpelled) + w.text('Firmenname', firmName) + w.text('GLN', null) + w.text('KUR', null)
    + w.text('PersonID', personIdOf(firmName)) + w.el('Rechtsform', w.text('Bezeichnung', null) + w.text('Code', form)) + w.text('ZVRZahl', null));
}

function postadresse(w: Writer, at: ModelAddress): string {
  return w.el('Postadresse', w.el('Gemeinden', '') + w.text('Katastralgemeinde', null) + w.text('Ort', at.city) + w.text('Orientierungsnummer', at.number)
    + w.text('PLZ', at.zip) + w.el('Staat', w.text('Code', 'AUT') + w.text('Isocode3', 'AUT') + w.text('Name', 'Österreich')) + w.text('Strassenname', at.street));
}

function standort(w: Writer, at: ModelAddress, from: string, ended: string | null): string {
  return w.el('Standort', w.text('AlternativeBezeichnung', null) + w.date('EndigungDatum', ended) + postadresse(w, at) + w.date('RechtswirksamAb', from));
}

function holder(w: Writer, h: ModelHolder, from: string): string {
  const firm = h.firmFnr ? w.el('FirmaListe', w.el('FirmaDaten', jurPerson(w, 'Firma', h.firmFnr, `${h.person!.first} ${h.person!.last} e.U.`, 'EU'))) : w.el('FirmaListe', '');
  const jur = h.company ? jurPerson(w, 'JurPerson', h.company.spelled ?? h.company.fnr, h.company.name, h.company.form) : w.el('JurPerson', null);
  const nat = h.person ? natPerson(w, h.person) : w.el('NatPerson', null);
  return w.el('InhaberDaten', w.el('Inhaber', w.date('EndigungDatum', null) + firm + jur + nat + w.date('RechtswirksamAb', from)));
}

const catalogueName = (key: string) => CATALOGUE.find(([k]) => k === key)?.[1] ?? '';

function berechtigung(w: Writer, l: ModelLicence): string {
  const ruhend = w.el('Ruhend', w.bool('ImmobilienBautraeger', false) + w.bool('ImmobilienMakler', false) + w.bool('ImmobilienVerwalter', false)
    + w.bool('IstRuhend', Boolean(l.dormant)) + w.date('RuhendBis', l.dormant?.[1] ?? null) + w.date('RuhendVon', l.dormant?.[0] ?? null));
  return w.el('Berechtigung', w.el('Behoerde', w.text('Bezeichnung', l.authority[1]) + w.text('Kuerzel', l.authority[0]))
    + w.date('EndigungDatum', l.ended ?? null) + w.text('GewerbeSchluessel', l.key) + w.bool('IstIndustriebetrieb', l.industrial ?? false)
    + w.text('KreditvermittlungsArt', null) + w.bool('RLBBerechtigt', false) + w.date('RechtswirksamAb', l.from) + ruhend
    + w.text('Wortlaut', l.wording ?? catalogueName(l.key)));
}

function formerBerechtigung(w: Writer, [key, wording, from, ended]: [string, string, string, string], authority: [string, string]): string {
  return w.el('Berechtigung', w.el('Behoerde', w.text('Bezeichnung', authority[1]) + w.text('Kuerzel', authority[0])) + w.date('EndigungDatum', ended)
    + w.text('GewerbeSchluessel', key) + w.bool('IstIndustriebetrieb', false) + w.text('KreditvermittlungsArt', null) + w.bool('RLBBerechtigt', false)
    + w.date('RechtswirksamAb', from) + w.el('Ruhend', w.bool('IstRuhend', false)) + w.text('Wortlaut', wording));
}

function manager(w: Writer, l: ModelLicence): string {
  const now = l.manager ? w.el('Geschaeftsfuehrer', w.date('EndigungDatum', null) + natPerson(w, l.manager) + w.date('RechtswirksamAb', l.formerManager?.[2] ?? l.from)) : '';
  const before = l.formerManager
    ? w.el('Historisch', w.el('Geschaeftsfuehrer', w.date('EndigungDatum', l.formerManager[2]) + natPerson(w, l.formerManager[0]) + w.date('RechtswirksamAb', l.formerManager[1])))
    : '';
  return w.el('GeschaeftsfuehrerDaten', now + before);
}

/** The `Gewerbe` element of one licence, declaring its own namespaces (so it can be cut out and reused). */
export function gewerbeElement(l: ModelLicence): string {
  const quirks = new Set(l.quirks ?? []);
  const prefix = quirks.has('defaultNs') ? '' : quirks.has('prefixB') ? 'b' : 'a';
  const w = new Writer(prefix, quirks.has('offsetDates'));
  const ns = prefix ? `xmlns:${prefix}="${GISA_ENTITY_NS}"` : `xmlns="${GISA_ENTITY_NS}"`;
  const history = (l.formerly ?? []).map((f) => formerBerechtigung(w, f, l.authority)).join('');
  const moved = (l.moved ?? []).map(([at, from, ended]) => standort(w, at, from, ended)).join('');
  const body = w.el('BerechtigungDaten', berechtigung(w, l) + (history ? w.el('Historisch', history) : ''))
    + w.el('FortbetriebListe', '') + w.text('GISAZahl', l.gisaZahl) + manager(w, l) + holder(w, l.holder, l.from) + w.el('PaechterListe', '')
    + w.el('StandortDaten', standort(w, l.at, l.moved?.[0]?.[2] ? dayAfter(l.moved[0][2]) : l.from, null) + (moved ? w.el('Historisch', moved) : ''))
    + w.el('WeitereBetriebsstaetteListe', '');
  return `<Gewerbe ${ns} xmlns:i="${XSI_NS}">${body}</Gewerbe>`;
}

export function dayAfter(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** An output element with `members` (already in ordinal order) and Returncode OK. */
export function okOutput(method: GisaMethod, members: string): string {
  return output(method, members, '<MeldungListe/>', 'OK');
}

function output(method: GisaMethod, before: string, messages: string, code: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><${outputName(method)} xmlns="${GISA_SERVICE_NS}" xmlns:i="${XSI_NS}">${before}${messages}<Returncode>${code}</Returncode></${outputName(method)}>`;
}

/** Returncode=ERROR with one coded message (Meldungsart F). */
export function errorOutput(method: GisaMethod, code: string, text: string): string {
  const message = `<MeldungListe><Meldung><Beschreibung>${escapeXml(text)}</Beschreibung><Code>${code}</Code><Meldungsart>F</Meldungsart></Meldung></MeldungListe>`;
  return output(method, '', message, 'ERROR');
}

export const gewerbeOutput = (gewerbe: string) => okOutput('GetGewerbeV2', gewerbe);

/** The hit list's summary of a licence: its current entities only (no Historisch, no manager). */
export function hitSummary(gewerbe: string): string {
  return gewerbe
    .replace(/<(\w+:)?Historisch>[\s\S]*?<\/\1?Historisch>/g, '')
    .replace(/<(\w+:)?GeschaeftsfuehrerDaten>[\s\S]*?<\/\1?GeschaeftsfuehrerDaten>/g, '');
}

export function searchOutput(method: 'SearchPersonJur' | 'SearchPersonNat', gewerbe: string[]): string {
  return output(method, `<GewerbeListe>${gewerbe.map(hitSummary).join('')}</GewerbeListe>`, '<MeldungListe/>', 'OK').replace('</Returncode>', '</Returncode><VkrAuslaendischeListe/>');
}

export function catalogueOutput(): string {
  const entries = CATALOGUE.map(([key, name, kind, historical]) =>
    `<GewerbeSchluessel><GewerbeArt>${kind}</GewerbeArt><IstHistorisch>${historical ? 'true' : 'false'}</IstHistorisch><Kennzahl>${key}</Kennzahl><Wortlaut>${escapeXml(name)}</Wortlaut></GewerbeSchluessel>`);
  return okOutput('GetKatalogGewerbeschluessel', `<GewerbeSchluesselListe>${entries.join('')}</GewerbeSchluesselListe>`);
}

export function kindsOutput(kinds: Array<[string, string]>): string {
  const entries = kinds.map(([code, name]) => `<GewerbeArt><Bezeichnung>${escapeXml(name)}</Bezeichnung><Code>${code}</Code><IstHistorisch>false</IstHistorisch></GewerbeArt>`);
  return okOutput('GetKatalogGewerbeart', `<GewerbeArtListe>${entries.join('')}</GewerbeArtListe>`);
}
