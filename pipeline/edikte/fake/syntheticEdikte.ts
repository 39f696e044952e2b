// Many typical edicts for the benchmark and the tests that need volume (the 5000 cap): deterministic
// per (seed, index). About 40 % legal persons, of which most name a company of the caller's register
// (by FN, or by name and address), some a namesake elsewhere and some nobody; the rest are natural
// persons in debt settlement. Written as the IWG interface writes them (iwgDocuments.ts).
import type { NoticeBlock } from '../../../schemas/courtNoticeRecords.js';
import { pick, seededRandom } from '../../firmenbuch/fake/synthetic/random.js';
import { azKeyOf, unidOf, type EdictSpec } from './iwgDocuments.js';

/** A company an edict may name, as the register holds it. */
export interface EdictCompany {
  fnr: string;
  name: string;
  street: string | null;
  zipCode: string | null;
  city: string | null;
}

/** How a legal-person edict names its company: what linking must make of it. */
export type EdictKind = 'fn' | 'name-address' | 'namesake' | 'unknown' | 'person';

export interface SyntheticEdict {
  spec: EdictSpec;
  kind: EdictKind;
  /** The company the edict is about (fn, name-address), or null. */
  fnr: string | null;
}

const COURTS = [['007', 'Handelsgericht Wien', '0'], ['458', 'Landesgericht Linz', '3'], ['638', 'Landesgericht für Zivilrechtssachen Graz', '5'],
  ['818', 'Landesgericht Innsbruck', '7'], ['569', 'Landesgericht Salzburg', '4'], ['729', 'Landesgericht Klagenfurt', '6'],
  ['199', 'Landesgericht St. Pölten', '1'], ['929', 'Landesgericht Feldkirch', '8'], ['309', 'Landesgericht Eisenstadt', '2']] as const;
const FIRST = ['Johann', 'Maria', 'Franz', 'Anna', 'Josef', 'Elisabeth', 'Karl', 'Sabine', 'Andreas', 'Michael', 'Christina', 'Stefan'];
const LAST = ['Gruber', 'Huber', 'Bauer', 'Wagner', 'Müller', 'Pichler', 'Steiner', 'Moser', 'Mayer', 'Hofer', 'Leitner', 'Berger', 'Fuchs'];
const TOWNS = [['1100', 'Wien'], ['8020', 'Graz'], ['4020', 'Linz'], ['5020', 'Salzburg'], ['6020', 'Innsbruck'], ['9020', 'Klagenfurt am Wörthersee']] as const;

const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export interface SyntheticEdictOptions {
  seed?: number;
  /** First publications fall on `from` .. `from + days - 1`. */
  from: string;
  days: number;
  /** The company edict `index` may name (null: a legal person without one). */
  companyAt?: (index: number) => EdictCompany | null;
}

/** Edict `index` (0-based): its spec, how it names its debtor, and the company it is about. */
export function syntheticEdict(index: number, options: SyntheticEdictOptions): SyntheticEdict {
  const r = seededRandom(((options.seed ?? 1) * 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b));
  const [courtCode, courtName, stateCode] = pick(r, COURTS);
  const published = addDays(options.from, Math.floor(r() * options.days));
  const legal = r() < 0.4;
  const company = legal ? options.companyAt?.(index) ?? null : null;
  const roll = r();
  const kind: EdictKind = !legal ? 'person' : company === null ? 'unknown' : roll < 0.5 ? 'fn' : roll < 0.85 ? 'name-address' : 'namesake';
  const [zip, town] = pick(r, TOWNS);
  let debtor: EdictSpec['debtor'];
  if (kind === 'person') {
    const first = pick(r, FIRST);
    const last = pick(r, LAST);
    const birth = `${1950 + Math.floor(r() * 50)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`;
    debtor = { type: 'N', name: `${first} ${last}`, split: [first, last], street: `${pick(r, LAST)}gasse ${1 + Math.floor(r() * 60)}`, zipCode: zip, city: town, country: 'A', birthDate: birth };
  } else if (kind === 'unknown') {
    const name = `${pick(r, LAST)} ${pick(r, ['Bau', 'Handel', 'Transporte', 'Gastronomie'])} ${index} GmbH`;
    const cut = name.lastIndexOf(' ');
    debtor = { type: 'J', name, split: [name.slice(0, cut), name.slice(cut + 1)], street: 'Hauptplatz 1', zipCode: zip, city: town, country: 'A' };
  } else {
    const c = company!;
    const words = c.name.split(' ');
    const cut = Math.max(1, Math.floor(r() * words.length));
    const split: [string, string] = [words.slice(0, cut).join(' '), words.slice(cut).join(' ')];
    const elsewhere = kind === 'namesake';
    debtor = {
      type: 'J', name: c.name, split: split[1] === '' ? [split[0], ''] : split,
      street: elsewhere ? 'Bahnhofstraße 99' : c.street ?? undefined, zipCode: elsewhere ? (c.zipCode === '9999' ? '9998' : '9999') : c.zipCode ?? undefined,
      city: elsewhere ? 'Anderswo' : c.city ?? undefined, country: 'A',
      ...(kind === 'fn' ? { fnrRaw: r() < 0.5 ? c.fnr : c.fnr.replace(/([a-z])$/, ' $1'), fnr: c.fnr } : {}),
    };
  }
  const closed = r() < 0.2;
  const blocks: NoticeBlock[] = [
    { publishedOn: published, name: 'Eröffnung', text: `Über das Vermögen wurde das ${kind === 'person' ? 'Schuldenregulierungsverfahren' : 'Konkursverfahren'} eröffnet.\nAnmeldungsfrist: ${addDays(published, 35)}`, decidedOn: addDays(published, -1) },
    { publishedOn: published, name: kind === 'person' ? 'Schuldner' : 'Masseverwalter', text: kind === 'person' ? debtor.name : 'Dr. Peter Kranzl, Rechtsanwalt', decidedOn: null },
    ...(closed ? [{ publishedOn: addDays(published, 1), name: 'Aufhebung', text: 'Das Verfahren wird aufgehoben.', decidedOn: published }] : []),
  ];
  const base = { courtCode, ga: kind === 'person' ? '001' : '038', gattung: 'S', number: 1 + (index % 99_999), year: 26 - Math.floor(index / 99_999), seq: 1 };
  const spec: EdictSpec = {
    unid: unidOf(`synthetic:${options.seed ?? 1}:${azKeyOf(base)}`),
    ...base,
    courtName, stateCode,
    proceeding: kind === 'person' ? { code: 'SRV', text: 'Schuldenregulierungsverfahren' } : { code: 'KV', text: 'Konkursverfahren' },
    debtor,
    published: [...new Set(blocks.map((b) => b.publishedOn!))],
    openedOn: addDays(published, -1),
    blocks,
    closed,
    modified: `${blocks[blocks.length - 1]!.publishedOn}T06:00:00Z`,
  };
  return { spec, kind, fnr: kind === 'fn' || kind === 'name-address' ? company!.fnr : null };
}
