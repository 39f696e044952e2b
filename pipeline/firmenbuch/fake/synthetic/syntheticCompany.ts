// Typical synthetic companies for benchmarks and cap tests: a GmbH or AG with a seat, people, register
// entries and one annual-account filing, all drawn from the PRNG.
import type { CodeText } from '../../../../schemas/firmenbuchRecords.js';
import type { CompanyChange } from '../../../../schemas/firmenbuchRecords.js';
import type { CompanySpec, FunctionSpec, PersonSpec } from './auszugXml.js';
import { addDays, companyChange, compactDate, listing } from './builders.js';
import type { CorpusDocumentSpec } from './corpusDirectory.js';
import { generateFiling } from './filing.js';
import { between, intBetween, pick, type Random } from './random.js';
import { aktenzeichen, documentKey, fnrOf } from './registerKeys.js';

const EINZELVERTRETUNG: CodeText = { code: 'E', text: 'Einzelvertretung' };

export interface Municipality {
  code: string;
  name: string;
  zip: string;
  court: string;
}

/** Seats with their Gemeindekennziffer (first digit = Bundesland, three digits = Bezirk) and court. */
export const MUNICIPALITIES: readonly Municipality[] = [
  { code: '90001', name: 'Wien', zip: '1010', court: '007' },
  { code: '90001', name: 'Wien', zip: '1030', court: '007' },
  { code: '90001', name: 'Wien', zip: '1220', court: '007' },
  { code: '10101', name: 'Eisenstadt', zip: '7000', court: '309' },
  { code: '20101', name: 'Klagenfurt am Wörthersee', zip: '9020', court: '729' },
  { code: '20201', name: 'Villach', zip: '9500', court: '729' },
  { code: '30101', name: 'Krems an der Donau', zip: '3500', court: '129' },
  { code: '30201', name: 'St. Pölten', zip: '3100', court: '199' },
  { code: '30401', name: 'Wiener Neustadt', zip: '2700', court: '239' },
  { code: '31235', name: 'Korneuburg', zip: '2100', court: '119' },
  { code: '40101', name: 'Linz', zip: '4020', court: '458' },
  { code: '40201', name: 'Steyr', zip: '4400', court: '499' },
  { code: '40301', name: 'Wels', zip: '4600', court: '519' },
  { code: '41227', name: 'Ried im Innkreis', zip: '4910', court: '469' },
  { code: '50101', name: 'Salzburg', zip: '5020', court: '569' },
  { code: '60101', name: 'Graz', zip: '8010', court: '638' },
  { code: '61108', name: 'Leoben', zip: '8700', court: '609' },
  { code: '70101', name: 'Innsbruck', zip: '6020', court: '818' },
  { code: '80207', name: 'Bregenz', zip: '6900', court: '929' },
  { code: '80404', name: 'Feldkirch', zip: '6800', court: '929' },
];

const NAME_STEMS = [
  'Alpen', 'Donau', 'Tauern', 'Gletscher', 'Wörthersee', 'Mühlviertler', 'Zirben', 'Enns', 'Murtaler', 'Traun',
  'Salzkammergut', 'Lungauer', 'Waldviertler', 'Weinviertler', 'Mostviertler', 'Südsteirische', 'Kärntner', 'Tiroler',
  'Vorarlberger', 'Böhmerwald', 'Pöstlingberg', 'Schöckl', 'Dachstein', 'Großglockner', 'Ötscher', 'Hochschwab',
  'Semmering', 'Bärnbacher', 'Fürstenfelder', 'Gmündner', 'Pinzgauer', 'Thayatal', 'Wachauer', 'Zillertaler',
];
const NAME_TRADES = [
  'Holzbau', 'Metalltechnik', 'Elektrotechnik', 'Bäckerei', 'Fleischwaren', 'Maschinenbau', 'Logistik', 'Spedition',
  'Glaserei', 'Möbelwerkstätte', 'Softwareentwicklung', 'Immobilienverwaltung', 'Gastronomie', 'Hotelbetriebs',
  'Kunststofftechnik', 'Getränkehandel', 'Baustoffhandel', 'Energietechnik', 'Reinigungsdienste', 'Druckerei',
  'Schlosserei', 'Gärtnerei', 'Käserei', 'Brauerei', 'Medizintechnik', 'Photovoltaik', 'Installationen', 'Fördertechnik',
];
const GMBH_SUFFIXES = ['GmbH', 'GmbH', 'Gesellschaft m.b.H.', 'GesmbH', 'Ges.m.b.H.'];
const AG_SUFFIXES = ['AG', 'Aktiengesellschaft'];
export const FIRST_NAMES = [
  'Anna', 'Maria', 'Elisabeth', 'Johann', 'Franz', 'Josef', 'Karl', 'Stefan', 'Andreas', 'Michael', 'Thomas', 'Christian',
  'Martina', 'Claudia', 'Sabine', 'Jürgen', 'Günther', 'Jörg', 'Ursula', 'Lukas', 'Katharina', 'Sophie', 'Florian',
  'Matthias', 'Bernhard', 'Doris', 'Gerlinde', 'Herbert', 'Wolfgang', 'Zoë',
];
export const LAST_NAMES = [
  'Gruber', 'Huber', 'Bauer', 'Wagner', 'Müller', 'Pichler', 'Steiner', 'Moser', 'Mayer', 'Hofer', 'Leitner', 'Berger',
  'Fuchs', 'Eder', 'Fischer', 'Schmid', 'Winkler', 'Weber', 'Schwarz', 'Maier', 'Reiter', 'Wimmer', 'Egger', 'Brunner',
  'Baumgartner', 'Auer', 'Höller', 'Jäger', 'Köhler', 'Fürst', 'Schöberl', 'Pröll', 'Strößner', 'Großauer',
];
const STREETS = ['Hauptplatz', 'Bahnhofstraße', 'Kirchengasse', 'Industriestraße', 'Gewerbepark', 'Schlossgasse', 'Mühlweg', 'Lände', 'Grabenstraße', 'Dorfstraße'];

/** Splits long names over two lines at the last space before 35 characters, as long Firmenwortlaute are. */
function nameLines(name: string): string[] {
  if (name.length <= 35) return [name];
  const cut = name.lastIndexOf(' ', 35);
  return cut <= 0 ? [name] : [name.slice(0, cut), name.slice(cut + 1)];
}

function birthDate(random: Random): string {
  const d = new Date(Date.UTC(intBetween(random, 1952, 1996), 0, 1) + intBetween(random, 0, 364) * 86_400_000);
  return d.toISOString().slice(0, 10);
}

export interface SyntheticOptions {
  /** Number of companies. */
  companies: number;
  seed: number;
  /** First FN digits; companies get consecutive numbers from here (default 600001). */
  firstFnr?: number;
  changesFrom?: string;
  changesTo?: string;
  /** false writes companies and change feeds only (search and cap tests): no filings, much faster. */
  filings?: boolean;
}

export interface SyntheticCompany {
  company: CompanySpec;
  documents: CorpusDocumentSpec[];
  change: CompanyChange;
}

/** One typical company: a GmbH or AG with managing directors, maybe shareholders, and one ~25 KB filing. */
export function syntheticCompany(index: number, random: Random, options: Required<Omit<SyntheticOptions, 'companies' | 'seed' | 'filings'>>): SyntheticCompany {
  const fnr = fnrOf(options.firstFnr + index);
  const legalForm: 'GES' | 'AG' = random() < 0.85 ? 'GES' : 'AG';
  const suffix = pick(random, legalForm === 'AG' ? AG_SUFFIXES : GMBH_SUFFIXES);
  const lines = nameLines(`${pick(random, NAME_STEMS)} ${pick(random, NAME_TRADES)} ${suffix}`);
  const seat = pick(random, MUNICIPALITIES);
  const span = Math.max(0, Math.round((Date.parse(options.changesTo) - Date.parse(options.changesFrom)) / 86_400_000));
  const changedOn = addDays(options.changesFrom, index % (span + 1));
  const founded = intBetween(random, 1995, 2022);
  const person = (pnr: string): PersonSpec => ({ pnr, firstName: pick(random, FIRST_NAMES), lastName: pick(random, LAST_NAMES), birthDate: compactDate(birthDate(random)) });
  const persons = [person('A'), person('B')];
  const boardCode = legalForm === 'AG' ? 'VM' : 'GF';
  const functions: FunctionSpec[] = [
    { pnr: 'A', code: boardCode, vnr: '001', since: `${founded}0301`, representation: EINZELVERTRETUNG },
    { pnr: 'B', code: legalForm === 'AG' ? 'AR' : 'PR', vnr: '002', since: compactDate(addDays(`${founded + 2}-01-15`, index % 200)) },
  ];
  const capital = legalForm === 'AG' ? '70000.00' : '35000.00';
  if (legalForm === 'GES' && random() < 0.6) functions.push({ pnr: 'A', code: 'GS', vnr: '001', capital, paidIn: '17500.00' });
  const court = seat.court;
  const company: CompanySpec = {
    fnr,
    names: [{ vnr: '001', lines }],
    addresses: [{ vnr: '001', street: pick(random, STREETS), houseNumber: String(intBetween(random, 1, 120)), zip: seat.zip, city: seat.name, deliverable: true }],
    purpose: [`${lines[0]!.split(' ')[1] ?? 'Handel'} und verwandte Tätigkeiten`],
    seat: { code: seat.code, name: seat.name },
    legalForm,
    capital: { amount: capital },
    court,
    functions,
    persons,
    entries: [
      { vnr: '001', date: `${founded}-03-01`, texts: [`Antrag auf Neueintragung einer Firma eingelangt am 20.02.${founded}`], receivedOn: `${founded}-02-20` },
      { vnr: '002', date: changedOn, texts: [`Antrag auf Änderung eingelangt am ${changedOn.slice(8, 10)}.${changedOn.slice(5, 7)}.${changedOn.slice(0, 4)}`], receivedOn: addDays(changedOn, -5) },
    ],
    kur: `R${String(intBetween(random, 100, 999))}${pick(random, ['K', 'P', 'R', 'V'])}${intBetween(random, 1000, 9999)}`,
    asOf: addDays(options.changesTo, 1),
  };

  const jab4 = random() < 0.5;
  const year = jab4 ? 2025 : 2024;
  const filing = generateFiling(
    {
      fnr, nameLines: lines, legalForm, variant: jab4 ? 'jab4' : 'legacy', year,
      revenue: Math.round(between(random, 1.5e8, 4e9)), employees: intBetween(random, 8, 260),
      signer: { firstName: persons[0]!.firstName!, lastName: persons[0]!.lastName!, birthDate: birthDate(random) },
    },
    random,
  );
  const number = 1000 + (index % 90000);
  const filedOn = addDays(`${year + 1}-06-01`, index % 120);
  const key = documentKey({ fnr, court, year: year + 1, number, dkz: '30', urkid: 40_000_000 + index, type: 'XML' });
  const document: CorpusDocumentSpec = {
    listing: listing({
      fnr, key, az: aktenzeichen({ court, year: year + 1, number }), type: '48', contentType: 'application/xml',
      balanceSheetDate: filing.documentDate, sizeClass: filing.sizeClass, vnr: '002', filedOn,
    }),
    bytes: Buffer.from(filing.xml, 'utf8'),
    executedOn: changedOn,
    expected: filing.expected,
  };
  return { company, documents: [document], change: companyChange(fnr, '002', changedOn, 'Änderung') };
}
