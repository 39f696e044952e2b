// Building blocks for company descriptions: dates as the register spells them, document listings and
// company change entries.
import type { CompanyChange, DocumentListing } from '../../../../schemas/firmenbuchRecords.js';
import { DOCUMENT_TYPES } from './registerCodes.js';

export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** `2019-05-06` -> `20190506`, the register's usual spelling of DATVON and GEBURTSDATUM. */
export function compactDate(isoDate: string): string {
  return isoDate.replace(/-/g, '');
}

export interface ListingSpec {
  fnr: string;
  key: string;
  az: string;
  type: string;
  contentType: 'application/xml' | 'application/pdf';
  documentDate?: string;
  balanceSheetDate?: string;
  sizeClass?: string;
  vnr?: string;
  filedOn?: string;
}

/** A SUCHEURKUNDE entry (GROESSE is filled in from the bytes when the corpus is written). */
export function listing(s: ListingSpec): DocumentListing {
  const [y, m, d] = (s.balanceSheetDate ?? '').split('-');
  return {
    key: s.key,
    fnr: s.fnr,
    fnrDigits: String(Number(s.key.slice(0, 6))),
    az: s.az,
    documentType: { code: s.type, text: DOCUMENT_TYPES[s.type] ?? null },
    documentDate: s.documentDate ?? null,
    contentType: s.contentType,
    fileExtension: s.contentType === 'application/pdf' ? 'pdf' : 'xml',
    sizeBytes: null,
    remark: s.balanceSheetDate ? `zum ${d}.${m}.${y}` : null,
    balanceSheetDate: s.balanceSheetDate ?? null,
    sizeClass: s.sizeClass ?? null,
    vnr: s.vnr ?? null,
    filedOn: s.filedOn ?? null,
  };
}

export function companyChange(fnr: string, vnr: string, executedOn: string, kind: CompanyChange['kind'], details: CompanyChange['details'] = []): CompanyChange {
  return { fnr, fnrCheckLetterValid: true, vnr, executedOn, kind, kindText: kind, details };
}
