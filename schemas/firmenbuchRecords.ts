// The records the Firmenbuch adapter parses and the stores take, as types: the parsers
// (pipeline/firmenbuch/extractParser.ts, registerParsers.ts, annualAccountParser.ts) produce them, the
// stores, the fake upstream and the tests consume them, and none of those owns the contract.
import type { FigureValues } from './keyFigures.js';

// ---------------------------------------------------------------------------------------------------
// Extract (AUSZUG_V2)

export interface CodeText {
  code: string;
  text: string | null;
}

export interface MoneyAmount {
  /** Exact decimal as a string (`35000`, `17500.50`): never a float. */
  amount: string;
  /** WHR as given (`EUR`); null when the register leaves it out. */
  currency: string | null;
}

export interface FormerName {
  name: string;
  lines: string[];
  vnr: string | null;
}

export interface CompanyAddress {
  isCurrent: boolean;
  vnr: string | null;
  /** `line`: one-liner STELLE; `structured`: STRASSE/HAUSNUMMER/STIEGE/TUERNUMMER. */
  form: 'line' | 'structured';
  /** Display line for both forms: STELLE lines, or `Street 3/2/14` (number/staircase/door, Austrian style). */
  streetLine: string | null;
  street: string | null;
  houseNumber: string | null;
  staircase: string | null;
  door: string | null;
  deliveryNote: string | null;
  zipCode: string | null;
  city: string | null;
  /** ISO 3166 alpha-3 as given (`AUT`). */
  country: string | null;
  deliverable: boolean | null;
}

export interface RegisterEntry {
  vnr: string;
  executedOn: string | null;
  court: CodeText | null;
  az: string | null;
  applicationTexts: string[];
  receivedOn: string | null;
}

export interface CompanyFunction {
  pnr: string;
  functionCode: string;
  functionText: string | null;
  /** VART, e.g. `{ code: 'E', text: 'Einzelvertretung' }`. */
  representation: CodeText | null;
  since: string | null;
  until: string | null;
  capital: string | null;
  paidIn: string | null;
  currency: string | null;
  isCurrent: boolean;
  vnr: string | null;
  /** TXTVERTR then TEXT lines of the function data group (e.g. "vertritt seit 01.01.2023 selbständig"). */
  texts: string[];
}

export interface PersonParty {
  kind: 'person';
  pnr: string;
  vnr: string | null;
  personId: string;
  firstName: string | null;
  lastName: string | null;
  titles: { before: string | null; after: string | null };
  birthDate: string | null;
}

export interface CompanyParty {
  kind: 'company';
  pnr: string;
  vnr: string | null;
  relatedFnr: string;
  relatedFnrCheckLetterValid: boolean;
  name: string | null;
  address: CompanyAddress | null;
}

export interface ForeignRegistration {
  court: string | null;
  registerNumber: string | null;
  seat: string | null;
  legalForm: CodeText | null;
}

export interface OrganisationParty {
  kind: 'organisation';
  pnr: string;
  vnr: string | null;
  name: string;
  address: CompanyAddress | null;
  foreignRegistration: ForeignRegistration | null;
}

export type Party = PersonParty | CompanyParty | OrganisationParty;

export interface Holding {
  holderPnr: string;
  holderKind: Party['kind'] | null;
  holderPersonId: string | null;
  holderFnr: string | null;
  capital: string | null;
  paidIn: string | null;
  currency: string | null;
  since: string | null;
  until: string | null;
  isCurrent: boolean;
  vnr: string | null;
}

export interface CompanyExtract {
  fnr: string;
  fnrCheckLetterValid: boolean;
  /** STICHTAG of the extract. */
  asOf: string | null;
  /** ABFRAGEZEITPUNKT as sent (ISO date-time with offset). */
  queriedAt: string | null;
  /** PRUEFSUMME: unchanged checksum = unchanged extract. */
  checksum: string | null;
  name: string | null;
  nameLines: string[];
  formerNames: FormerName[];
  addresses: CompanyAddress[];
  seat: string | null;
  municipalityCode: string | null;
  municipality: string | null;
  legalForm: CodeText | null;
  capital: MoneyAmount | null;
  businessPurpose: string | null;
  status: 'active' | 'deleted';
  deletion: { vnr: string | null; executedOn: string | null } | null;
  /** Court keeping the register: latest VOLLZ HG, else the court prefix of its AZ (text unknown then). */
  court: CodeText | null;
  euid: string | null;
  /** Unternehmensregister key (KUR), the join key of the BMF list. */
  kur: string | null;
  registerEntries: RegisterEntry[];
  functions: CompanyFunction[];
  parties: Party[];
  holdings: Holding[];
  /** Data-quality notes (invalid check letters, unreadable dates or amounts): kept, never fixed silently. */
  warnings: string[];
}

// ---------------------------------------------------------------------------------------------------
// SUCHEFIRMA

export type SearchStatus = 'active' | 'historical' | 'deleted';

export interface CompanySearchHit {
  fnr: string;
  fnrCheckLetterValid: boolean;
  status: SearchStatus;
  /** STATUS as sent: "" (registered), "historisch", "gelöscht". */
  statusText: string;
  name: string | null;
  nameLines: string[];
  seat: string | null;
  legalForm: CodeText | null;
  /** RECHTSEIGENSCHAFT, e.g. "Kreditunternehmen"; null when empty. */
  legalCharacteristic: string | null;
  court: CodeText | null;
}

export interface CompanySearchResult {
  request: {
    name: string | null;
    exact: boolean | null;
    searchArea: number | null;
    court: string | null;
    legalForm: string | null;
    legalCharacteristic: string | null;
    municipalityCode: string | null;
  };
  /** The service stops at 1000 hits without paging: a full page means "narrow the search". */
  hits: CompanySearchHit[];
  capped: boolean;
  warnings: string[];
}

// ---------------------------------------------------------------------------------------------------
// SUCHEURKUNDE

export interface DocumentListing {
  key: string;
  /** Canonical FN (from FNR; older/odd entries without it fall back to the request FN when the KEY agrees). */
  fnr: string | null;
  /** FN digits from the KEY prefix, without leading zeros (`30435`); null only for a KEY without that prefix. */
  fnrDigits: string | null;
  az: string | null;
  documentType: CodeText | null;
  documentDate: string | null;
  contentType: string | null;
  fileExtension: string | null;
  sizeBytes: number | null;
  /** BEMERKUNG, e.g. "zum 31.03.2008". */
  remark: string | null;
  /** STICHTAG: balance-sheet date of annual accounts. */
  balanceSheetDate: string | null;
  /** GKL: W/K/M/G (micro…large), J on 2006–2009 filings (meaning unknown). */
  sizeClass: string | null;
  vnr: string | null;
  /** EINGEREICHT: filed with the court on. */
  filedOn: string | null;
}

export interface DocumentSearchResult {
  requestFnr: string | null;
  requestAz: string | null;
  documents: DocumentListing[];
  warnings: string[];
}

// ---------------------------------------------------------------------------------------------------
// URKUNDE

export interface DocumentMetadata {
  key: string;
  /** URKID: document number. */
  documentId: string | null;
  fnr: string | null;
  fnrDigits: string | null;
  az: string | null;
  documentType: CodeText | null;
  documentDate: string | null;
  /** ZNR: branch number, `000` = head office. */
  branchNumber: string | null;
  pnr: string | null;
  functionCode: string | null;
  unr: string | null;
  dkz: string | null;
  vnr: string | null;
  remark: string | null;
  balanceSheetDate: string | null;
  sizeClass: string | null;
  /** VON: this version entered the document archive on. */
  archivedOn: string | null;
  /** OEFFENTLICH: public document (vs court-internal). */
  isPublic: boolean | null;
}

export interface DocumentContent {
  /** Root STICHTAG: date the document extract was made. */
  asOf: string | null;
  metadata: DocumentMetadata;
  /**
   * Decoded bytes, null when the response has no DOKUMENT. XML documents are encoded as their XML
   * declaration says, ISO-8859-1 without one: decoding text is left to the document parser.
   */
  content: Buffer | null;
  contentType: string | null;
  fileExtension: string | null;
  sizeBytes: number | null;
  warnings: string[];
}

// ---------------------------------------------------------------------------------------------------
// VERAENDERUNGENFIRMA

/** The typed kinds of change VERAENDERUNGENFIRMA can filter on (and then reports). */
export const ARTEN_DER_VERAENDERUNG = [
  'FIRMENBEZEICHNUNG', 'FIRMENSITZ', 'RECHTSFORM', 'EINTRITT_IN_FUNKTION', 'AUSSCHEIDEN_AUS_EINER_FUNKTION', 'VERSCHMELZUNG',
  'UEBERTRAGENDE_UMWANDLUNG', 'EINBRINGUNG', 'ZUSAMMENSCHLUSS', 'REALTEILUNG', 'SPALTUNG', 'KAPITALAENDERUNG_DER_FIRMA',
  'KAPITALAENDERUNG_EINES_GESELLSCHAFTERS',
] as const;

export type ArtDerVeraenderung = (typeof ARTEN_DER_VERAENDERUNG)[number];

/** The three kinds every unfiltered feed reports, plus the typed ones a filtered request returns. */
export type ChangeKind = 'Neueintragung' | 'Änderung' | 'Löschung' | ArtDerVeraenderung;

export type ChangeDetail =
  | { type: 'function'; pnr: string; functionCode: string }
  | { type: 'transformation'; takingOverFnr: string | null; transferringFnr: string | null };

export interface CompanyChange {
  fnr: string;
  fnrCheckLetterValid: boolean;
  vnr: string | null;
  executedOn: string | null;
  /** ARTDERVERAENDERUNG; `unknown` for a value outside the documented list (kept in kindText). */
  kind: ChangeKind | 'unknown';
  kindText: string;
  details: ChangeDetail[];
}

export interface CompanyChangesResult {
  from: string | null;
  to: string | null;
  filter: { court: string | null; legalForm: string | null; kind: string | null };
  changes: CompanyChange[];
  warnings: string[];
}

// ---------------------------------------------------------------------------------------------------
// VERAENDERUNGENURKUNDE

export interface DocumentChange {
  key: string;
  /**
   * FN digits from the KEY prefix (`4075` from `004075_…`). The feed carries no FNR element, so the check
   * letter is left to the caller (computable with fnrCheckLetter, or looked up).
   */
  fnrDigits: string | null;
  documentType: CodeText | null;
  executedOn: string | null;
  contentType: string | null;
  fileExtension: string | null;
}

export interface DocumentChangesResult {
  from: string | null;
  to: string | null;
  documents: DocumentChange[];
  warnings: string[];
}

// ---------------------------------------------------------------------------------------------------
// Filed annual accounts (Jahresabschluss XML)

export interface ParsedAnnualAccount {
  format: 'legacy' | 'jab4';
  /** Canonical FN (`30435h`), null when the filing carries none or an unreadable one. */
  fnr: string | null;
  companyName: string | null;
  /** Balance-sheet date `yyyy-mm-dd` (`GJ/ENDE`, `GESCHAEFTSJAHR/ENDE`). */
  documentDate: string | null;
  fiscalYearStart: string | null;
  fiscalYearEnd: string | null;
  /** `WAEHRUNG` (legacy) / `BILANZ_WAEHRUNG` (JAb 4.0). */
  currency: string | null;
  /** JAb 4.0: `E`, `HE`, `TE`, `ZTE`, `HTE`, `ME`; legacy: `TSD` (WERT_TSD = j) or `E`. */
  unit: string;
  unitFactor: number;
  /** `EINORDNUNG`/`EINSTUFUNG` (legacy) or `GROESSENKLASSE` (JAb 4.0). */
  sizeClass: string | null;
  /** Gesamtkostenverfahren / Umsatzkostenverfahren; null when the filing has no P&L. */
  pnlMethod: 'GKV' | 'UKV' | null;
  /** JAb 4.0 `JAHRESABSCHLUSS_KONZERNABSCHLUSS` (`JAB`, `JAB-ANLAGE12`, ...); legacy `ABSCHLUSSART`. */
  kind: string | null;
  /** False for "skeleton" filings that carry no position with a current-year amount at all. */
  hasPositions: boolean;
  /** JSON key -> canonical decimal string (EUR after unit scaling; headcount for `employees`) or null. */
  figures: FigureValues;
  warnings: string[];
}

// ---------------------------------------------------------------------------------------------------
// What the stores take (pipeline/store/companyStore.ts, documentStore.ts)

export interface CompanyStoreItem {
  extract: CompanyExtract;
  crawledAt?: Date;
  /** The register entry that triggered the crawl (from the change feed), when known. */
  vnr?: string | null;
}

export interface AnnualAccountInput {
  documentKey: string;
  fnr: string;
  parsed: ParsedAnnualAccount;
  rawXml: string;
  filedOn: string | null;
  parserVersion: number;
  /** The document's fetched bytes, stored (as storeDocumentContent does) in the same transaction. */
  content?: Buffer;
}

export interface DocumentListingsItem {
  fnr: string;
  listings: DocumentListing[];
}

export interface AnnualAccountBatchItem extends Omit<AnnualAccountInput, 'filedOn'> {
  /** The filing date; undefined = the document row's, read in the same statement. */
  filedOn?: string | null;
}
