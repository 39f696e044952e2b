// Synthetic Austrian companies for the read benchmark (bench/readBench.ts): deterministic per index
// (company i is the same on every run with the same seed), so the load generator can pick real names
// and fnrs without reading them back. Distributions:
// - legal forms weighted like the register (GmbH dominant, then e.U., KG, OG, AG), the name ends in a
//   matching suffix spelling (GmbH / Ges.m.b.H. / GesmbH ...), umlauts in surnames, places and words;
// - ~2% deleted, ~10% with a former name, 1-2 ÖNACE 2008 classes (5% none), city / zip / municipality
//   from postal_locality, a court from the catalogue;
// - about a third with one filing (a few with two), figures long-tailed (log-normal, scaled by a
//   company size), some negatives (equity, results), many nulls (small companies publish no P&L).
import type { CompanyExtract, DocumentListing, ParsedAnnualAccount } from '../schemas/firmenbuchRecords.js';
import { fnrCheckLetter } from '../schemas/identifiers.js';
import { KEY_FIGURES, emptyFigures, figureJsonKey, type FigureValues } from '../schemas/keyFigures.js';

/** The corpus generator's seeded PRNG (mulberry32): the same seed gives the same companies. */
import { seededRandom as rng } from '../pipeline/firmenbuch/fake/synthetic/random.js';

export { rng };

export type Rand = () => number;
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
/** Standard normal (Box-Muller). */
export function normal(r: Rand): number {
  const u = Math.max(r(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}
function weighted<T>(r: Rand, items: ReadonlyArray<readonly [T, number]>): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = r() * total;
  for (const [item, w] of items) if ((x -= w) < 0) return item;
  return items[items.length - 1]![0];
}

const SURNAMES = [
  'Gruber', 'Huber', 'Bauer', 'Wagner', 'Müller', 'Pichler', 'Steiner', 'Moser', 'Mayer', 'Hofer', 'Leitner', 'Berger', 'Fuchs',
  'Eder', 'Fischer', 'Schmid', 'Winkler', 'Weber', 'Schwarz', 'Maier', 'Schneider', 'Reiter', 'Mayr', 'Schmidt', 'Wimmer', 'Egger',
  'Brunner', 'Lang', 'Baumgartner', 'Auer', 'Binder', 'Lechner', 'Wolf', 'Wallner', 'Aigner', 'Ebner', 'Koller', 'Lehner', 'Haas',
  'Schuster', 'Holzer', 'Strasser', 'Haider', 'Kogler', 'Hödl', 'Pöll', 'Gößler', 'Krenn', 'Zöhrer', 'Kößler', 'Fröhlich', 'Jäger',
  'Köck', 'Würtz', 'Grünwald', 'Hütter', 'Schöberl', 'Stöger', 'Pölzl', 'Größbacher', 'Oberhuber', 'Unterberger', 'Kräutler',
  'Platzer', 'Rainer', 'Hackl', 'Url', 'Wieser', 'Neubauer', 'Hofbauer', 'Mühlbacher', 'Zauner', 'Sommer', 'Windisch', 'Trummer',
  'Kern', 'Riedl', 'Seidl', 'Brandstätter', 'Kaltenbrunner', 'Pfeiffer', 'Gschwandtner', 'Obermüller', 'Schönherr', 'Kröll',
];
const FIRST_NAMES = ['Johann', 'Maria', 'Franz', 'Anna', 'Josef', 'Elisabeth', 'Karl', 'Theresia', 'Günther', 'Jürgen', 'Sabine', 'Andreas', 'Michael', 'Christina', 'Stefan', 'Brigitte'];
const INDUSTRY = [
  'Bau', 'Holzbau', 'Installationen', 'Elektrotechnik', 'Transporte', 'Logistik', 'Immobilien', 'Beteiligungs', 'Handel', 'Gastronomie',
  'Hotel', 'Tischlerei', 'Zimmerei', 'Metallbau', 'Dachdeckerei', 'Spenglerei', 'Malerei', 'Reinigung', 'Consulting', 'Software',
  'IT-Services', 'Maschinenbau', 'Kfz-Technik', 'Autohaus', 'Steuerberatung', 'Vermögensverwaltung', 'Bäckerei', 'Fleischerei',
  'Gärtnerei', 'Landtechnik', 'Energietechnik', 'Solartechnik', 'Haustechnik', 'Medizintechnik', 'Druckerei', 'Werbeagentur',
  'Möbelwerkstätte', 'Glaserei', 'Fliesenleger', 'Schlosserei', 'Brauerei', 'Weinbau', 'Sägewerk', 'Erdbau', 'Tiefbau', 'Hochbau',
  'Projektentwicklung', 'Facility Management', 'Vertriebs', 'Verwaltungs', 'Holding', 'Dienstleistungs', 'Planungs', 'Handels',
];
const GENERIC = ['Alpen', 'Donau', 'Tirol', 'Austria', 'Ost', 'West', 'Süd', 'Nord', 'Inntal', 'Mühlviertel', 'Waldviertel', 'Pannonia', 'Tauern', 'Kärntner', 'Steirische', 'Salzburger', 'Wiener', 'Grazer', 'Linzer', 'Vorarlberger', 'Ötztaler', 'Wörthersee', 'Traunsee', 'Bergland'];
const CONNECT = ['und', '&', 'u.', '+'];

/** Legal form codes with weights (share of the register) and the suffix spellings used in names. */
const LEGAL_FORMS: ReadonlyArray<readonly [{ code: string; suffixes: string[] }, number]> = [
  [{ code: 'GES', suffixes: ['GmbH', 'GmbH', 'GmbH', 'GmbH', 'Ges.m.b.H.', 'GesmbH', 'Gesellschaft m.b.H.', 'G.m.b.H.'] }, 62],
  [{ code: 'EU', suffixes: ['e.U.', 'e.U.', 'eU'] }, 14],
  [{ code: 'KG', suffixes: ['KG', 'KG', 'GmbH & Co KG', 'GmbH & Co. KG'] }, 12],
  [{ code: 'OG', suffixes: ['OG', 'OG', 'OEG'] }, 7],
  [{ code: 'AG', suffixes: ['AG', 'AG', 'Aktiengesellschaft'] }, 2],
  [{ code: 'PST', suffixes: ['Privatstiftung'] }, 1.5],
  [{ code: 'GEN', suffixes: ['eGen', 'reg.Gen.m.b.H.'] }, 1],
  [{ code: 'SE', suffixes: ['SE'] }, 0.1],
];

export interface Catalogue {
  oenaceCodes: string[];
  localities: Array<{ zipCode: string; place: string; municipalityCode: string | null }>;
  courts: string[];
}

export interface SyntheticFiling {
  listing: DocumentListing;
  parsed: ParsedAnnualAccount;
}

export interface SyntheticCompany {
  digits: number;
  fnr: string;
  extract: CompanyExtract;
  oenace: string[];
  filings: SyntheticFiling[];
}

export const fnrOf = (digits: number) => `${digits}${fnrCheckLetter(digits)}`;
/** Company i (0-based) has fnr digits i + 1. */
export const digitsOf = (index: number) => index + 1;

function companyName(r: Rand, suffix: string, code: string): string {
  const shape = r();
  let core: string;
  if (code === 'EU') core = `${pick(r, FIRST_NAMES)} ${pick(r, SURNAMES)}${r() < 0.5 ? ` ${pick(r, INDUSTRY)}` : ''}`;
  else if (shape < 0.35) core = `${pick(r, SURNAMES)} ${pick(r, INDUSTRY)}`;
  else if (shape < 0.55) core = `${pick(r, SURNAMES)} ${pick(r, CONNECT)} ${pick(r, SURNAMES)}`;
  else if (shape < 0.75) core = `${pick(r, GENERIC)} ${pick(r, INDUSTRY)}`;
  else if (shape < 0.9) core = `${pick(r, SURNAMES)} ${pick(r, GENERIC)} ${pick(r, INDUSTRY)}`;
  else core = `${pick(r, INDUSTRY)} ${pick(r, SURNAMES)}${r() < 0.5 ? ` ${pick(r, GENERIC)}` : ''}`;
  // A running number on a few keeps names from colliding too often, as in the register ("... Nr. 2").
  if (r() < 0.15) core += ` ${1 + Math.floor(r() * 99)}`;
  return `${core} ${suffix}`;
}

const money = (x: number) => (Math.round(x * 100) / 100).toFixed(2);

/** The 47 figures of one filing; `scale` is the company's size (balance-sheet total in EUR). */
function figures(r: Rand, scale: number, fullPnl: boolean): FigureValues {
  const f = emptyFigures();
  const share = (lo: number, hi: number) => scale * (lo + r() * (hi - lo));
  const maybe = (key: string, value: () => number, pNull = 0.15) => {
    if (r() >= pNull) f[key] = money(value());
  };
  f.bilanzSumme = money(scale);
  const fixed = share(0.05, 0.8);
  maybe('anlageVermoegen', () => fixed, 0.05);
  maybe('immaterielleVermoegensgegenstaende', () => fixed * r() * 0.1, 0.5);
  maybe('sachanlagen', () => fixed * (0.3 + r() * 0.7), 0.1);
  maybe('finanzanlagen', () => fixed * r() * 0.5, 0.5);
  maybe('beteiligungen', () => fixed * r() * 0.4, 0.7);
  maybe('umlaufvermoegen', () => scale - fixed, 0.05);
  maybe('vorraete', () => (scale - fixed) * r() * 0.5, 0.4);
  maybe('forderungen', () => (scale - fixed) * r() * 0.6, 0.1);
  maybe('forderungenLuL', () => (scale - fixed) * r() * 0.4, 0.4);
  maybe('wertpapiereUmlaufvermoegen', () => (scale - fixed) * r() * 0.2, 0.8);
  maybe('liquideMittel', () => (scale - fixed) * r() * 0.7, 0.05);
  maybe('aktiveRechnungsabgrenzung', () => scale * r() * 0.02, 0.4);
  maybe('aktiveLatenteSteuern', () => scale * r() * 0.01, 0.85);
  // Equity negative for ~15% (over-indebted small companies are common).
  const equity = r() < 0.15 ? -share(0.01, 0.6) : share(0.02, 0.7);
  f.eigenkapital = money(equity);
  maybe('nennKapital', () => pick(r, [35000, 35000, 35000, 10000, 70000, 100000, 1000000]), 0.1);
  maybe('kapitalruecklagen', () => share(0, 0.2), 0.6);
  maybe('gewinnruecklagen', () => share(0, 0.2), 0.6);
  maybe('bilanzGewinn', () => (r() < 0.3 ? -1 : 1) * share(0, 0.3), 0.05);
  maybe('gewinnVortrag', () => (r() < 0.35 ? -1 : 1) * share(0, 0.2), 0.3);
  maybe('investitionszuschuesse', () => share(0, 0.05), 0.85);
  maybe('rueckstellungen', () => share(0.005, 0.15), 0.05);
  const liabilities = Math.max(0, scale - equity) * (0.5 + r() * 0.5);
  maybe('verbindlichkeiten', () => liabilities, 0.05);
  maybe('verbindlichkeitenKurzfristig', () => liabilities * r(), 0.2);
  maybe('verbindlichkeitenKreditinstitute', () => liabilities * r() * 0.6, 0.4);
  maybe('verbindlichkeitenLuL', () => liabilities * r() * 0.4, 0.3);
  maybe('passiveRechnungsabgrenzung', () => scale * r() * 0.02, 0.6);
  if (fullPnl) {
    const revenue = scale * Math.exp(normal(r) * 0.6) * 1.3;
    f.umsatzerloese = money(revenue);
    maybe('bestandsveraenderung', () => (r() < 0.5 ? -1 : 1) * revenue * r() * 0.03, 0.6);
    maybe('aktivierteEigenleistungen', () => revenue * r() * 0.02, 0.8);
    maybe('sonstigeBetrieblicheErtraege', () => revenue * r() * 0.05, 0.1);
    maybe('materialaufwand', () => revenue * (0.2 + r() * 0.5), 0.1);
    maybe('rohergebnis', () => revenue * (0.1 + r() * 0.5), 0.5);
    maybe('personalaufwand', () => revenue * (0.1 + r() * 0.4), 0.05);
    maybe('abschreibungen', () => revenue * r() * 0.08, 0.05);
    maybe('sonstigeBetrieblicheAufwendungen', () => revenue * r() * 0.2, 0.05);
    maybe('bruttoergebnisVomUmsatz', () => revenue * (0.1 + r() * 0.4), 0.85);
    const operating = revenue * normal(r) * 0.08;
    maybe('betriebsErfolg', () => operating, 0.05);
    maybe('beteiligungsErtraege', () => revenue * r() * 0.02, 0.8);
    maybe('zinsErtraege', () => revenue * r() * 0.005, 0.3);
    maybe('zinsAufwendungen', () => revenue * r() * 0.02, 0.2);
    maybe('finanzErfolg', () => -revenue * r() * 0.015, 0.1);
    const ebt = operating - revenue * r() * 0.01;
    maybe('ergebnisVorSteuern', () => ebt, 0.05);
    maybe('steuernVomEinkommen', () => Math.max(500, ebt * 0.24), 0.1);
    maybe('ergebnisNachSteuern', () => ebt * 0.76, 0.3);
    maybe('jahresueberschuss', () => ebt * 0.76, 0.05);
  } else if (r() < 0.3) {
    // Small companies sometimes give the result only.
    f.jahresueberschuss = money((r() < 0.3 ? -1 : 1) * share(0, 0.2));
  }
  // Employees: long-tailed, roughly tied to size; null for half (not reported by micro companies).
  if (r() < 0.5) f.employees = String(Math.max(0, Math.round((scale / 150000) * Math.exp(normal(r) * 0.8))));
  for (const def of KEY_FIGURES) if (!(figureJsonKey(def) in f)) throw new Error(`unknown figure ${figureJsonKey(def)}`);
  return f;
}

/** Company `index` (0-based), deterministic for (seed, index). */
export function syntheticCompany(index: number, catalogue: Catalogue, seed = 1): SyntheticCompany {
  const r = rng((seed * 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b));
  const digits = digitsOf(index);
  const fnr = fnrOf(digits);
  const lf = weighted(r, LEGAL_FORMS);
  const name = companyName(r, pick(r, lf.suffixes), lf.code);
  const formerNames = r() < 0.1 ? [companyName(r, pick(r, lf.suffixes), lf.code)].filter((n) => n !== name) : [];
  const loc = pick(r, catalogue.localities);
  const court = r() < 0.3 ? '007' : pick(r, catalogue.courts);
  const deleted = r() < 0.02;
  const year = 1990 + Math.floor(r() * 35);
  const street = `${pick(r, SURNAMES)}straße`;
  const extract: CompanyExtract = {
    fnr, fnrCheckLetterValid: true, asOf: null, queriedAt: null, checksum: null,
    name, nameLines: [name],
    formerNames: formerNames.map((n, i) => ({ name: n, lines: [n], vnr: String(i + 1).padStart(3, '0') })),
    addresses: [{
      isCurrent: true, vnr: '001', form: 'structured', streetLine: `${street} ${1 + Math.floor(r() * 80)}`, street,
      houseNumber: String(1 + Math.floor(r() * 80)), staircase: null, door: null, deliveryNote: null,
      zipCode: loc.zipCode, city: loc.place, country: 'AUT', deliverable: true,
    }],
    seat: loc.place, municipalityCode: loc.municipalityCode, municipality: loc.place,
    legalForm: { code: lf.code, text: null }, capital: null, businessPurpose: null,
    status: deleted ? 'deleted' : 'active', deletion: null,
    court: { code: court, text: null }, euid: null, kur: null,
    registerEntries: [{ vnr: '001', executedOn: `${year}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`, court: null, az: null, applicationTexts: [], receivedOn: null }],
    functions: [], parties: [], holdings: [], warnings: [],
  };
  const oenace = r() < 0.05 ? [] : r() < 0.9 ? [pick(r, catalogue.oenaceCodes)] : [...new Set([pick(r, catalogue.oenaceCodes), pick(r, catalogue.oenaceCodes)])];

  const filings: SyntheticFiling[] = [];
  // About a third with filings (GmbH/AG/GmbH & Co KG file; e.U. and OG mostly not), a few with two.
  const files = lf.code === 'GES' || lf.code === 'AG' || lf.code === 'SE' ? r() < 0.5 : r() < 0.06;
  if (files) {
    const count = r() < 0.12 ? 2 : 1;
    // Balance-sheet total: log-normal around ~400k EUR, long tail into the billions.
    const scale = Math.exp(12.9 + normal(r) * 1.8) * (lf.code === 'AG' ? 20 : 1);
    const fullPnl = scale > 5e6 || r() < 0.12;
    for (let k = 0; k < count; k++) {
      const fy = 2024 - k;
      const documentDate = `${fy}-12-31`;
      const key = `${String(digits).padStart(6, '0')}_${fy}0000000000_000___000_30_${digits}${k}_XML`;
      const listing: DocumentListing = {
        key, fnr, fnrDigits: String(digits), az: null, documentType: { code: '48', text: 'Jahresabschluss' }, documentDate,
        contentType: 'application/xml', fileExtension: 'xml', sizeBytes: 20000 + Math.floor(r() * 80000), remark: null,
        balanceSheetDate: documentDate, sizeClass: scale > 2e7 ? 'G' : scale > 5e6 ? 'M' : scale > 350000 ? 'K' : 'W', vnr: null,
        filedOn: `${fy + 1}-0${1 + Math.floor(r() * 9)}-15`,
      };
      const parsed: ParsedAnnualAccount = {
        format: 'jab4', fnr, companyName: name, documentDate, fiscalYearStart: `${fy}-01-01`, fiscalYearEnd: documentDate,
        currency: 'EUR', unit: 'E', unitFactor: 1, sizeClass: listing.sizeClass, pnlMethod: fullPnl ? 'GKV' : null, kind: 'JAB',
        hasPositions: true, figures: figures(r, scale * (k === 0 ? 1 : 0.9 + r() * 0.2), fullPnl), warnings: [],
      };
      filings.push({ listing, parsed });
    }
  }
  return { digits, fnr, extract, oenace, filings };
}
