// The register's identifiers as the service spells them: FN variants, Aktenzeichen and document KEYs.
import { fnrCheckLetter, fnrDigitsPadded } from '../../../../schemas/identifiers.js';

/** Canonical FN for a number: digits plus check letter (`30435h`). */
export function fnrOf(digits: number): string {
  return `${digits}${fnrCheckLetter(digits)}`;
}

function fnrParts(fnr: string): { digits: string; letter: string } {
  const m = /^0*(\d{1,6})\s*([a-z])$/i.exec(fnr.trim());
  if (!m) throw new RangeError(`not a Firmenbuchnummer: ${fnr}`);
  return { digits: m[1]!, letter: m[2]!.toLowerCase() };
}

/** `12345 x`: AUSZUG_V2, SUCHEURKUNDE and VERAENDERUNGENFIRMA spell the FN this way. */
export function fnrSpaced(fnr: string): string {
  const { digits, letter } = fnrParts(fnr);
  return `${digits} ${letter}`;
}

/** `012345x`: filings and some PE_FNR values. */
export function fnrPadded(fnr: string): string {
  const { digits, letter } = fnrParts(fnr);
  return `${digits.padStart(6, '0')}${letter}`;
}

/** `12345x`: SUCHEFIRMA hits. */
export function fnrPlain(fnr: string): string {
  const { digits, letter } = fnrParts(fnr);
  return `${digits}${letter}`;
}

export interface AktenzeichenParts {
  court: string;
  /** Abteilung, 3 digits. */
  department?: string;
  /** Four-digit year of the application. */
  year: number;
  number: number;
}

/** `458 020 Fr 871/26 f` (the trailing letter is the AZ's own check letter; its rule is unknown). */
export function aktenzeichen(p: AktenzeichenParts): string {
  const yy = String(p.year % 100).padStart(2, '0');
  const letter = 'abdfghikmpstvwxyz'.charAt((p.number * 7 + p.year) % 17);
  return `${p.court} ${p.department ?? '020'} Fr ${p.number}/${yy} ${letter}`;
}

export interface DocumentKeyParts extends AktenzeichenParts {
  fnr: string;
  znr?: string;
  pnr?: string;
  fken?: string;
  unr?: string;
  /** `30` for annual accounts, `00` for contracts in the recorded keys. */
  dkz: string;
  urkid: number;
  type: 'XML' | 'PDF';
}

/** KEY = `FNR6_AZ_ZNR_PNR_FKEN_UNR_DKZ_URKID_TYPE`, AZ = court(3) + Abteilung(3) + year(2) + number(5). */
export function documentKey(p: DocumentKeyParts): string {
  const az = `${p.court}${p.department ?? '020'}${String(p.year % 100).padStart(2, '0')}${String(p.number).padStart(5, '0')}`;
  return [fnrDigitsPadded(fnrPlain(p.fnr)), az, p.znr ?? '000', p.pnr ?? '', p.fken ?? '', p.unr ?? '000', p.dkz, String(p.urkid), p.type].join('_');
}
