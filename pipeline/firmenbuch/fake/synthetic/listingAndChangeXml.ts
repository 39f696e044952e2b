// SUCHEURKUNDE document listings and the VERAENDERUNGENFIRMA / VERAENDERUNGENURKUNDE change feeds.
import type { CompanyChange, DocumentChange, DocumentListing } from '../../../../schemas/firmenbuchRecords.js';
import { fnrPadded, fnrSpaced } from './registerKeys.js';
import type { ResponseXml } from './responseXml.js';

/** One SUCHEURKUNDE hit; optional fields are left out when null, as on older recorded entries. */
export function documentListingXml(w: ResponseXml, d: DocumentListing): string {
  return w.el(
    'ERGEBNIS',
    null,
    w.text('KEY', d.key),
    d.fnr ? w.text('FNR', fnrSpaced(d.fnr)) : '',
    w.text('AZ', d.az),
    w.codeText('DOKUMENTART', d.documentType),
    w.text('DOKUMENTENDATUM', d.documentDate),
    w.text('CONTENTTYPE', d.contentType),
    w.text('DATEIENDUNG', d.fileExtension),
    w.text('GROESSE', d.sizeBytes),
    w.text('BEMERKUNG', d.remark),
    w.text('STICHTAG', d.balanceSheetDate),
    w.text('GKL', d.sizeClass),
    w.text('VNR', d.vnr),
    w.text('EINGEREICHT', d.filedOn),
  );
}

export function sucheUrkundeResponseRoot(w: ResponseXml, request: { fnr?: string | null; az?: string | null }, documents: readonly DocumentListing[]): string {
  return w.root(
    { REQUEST_AZ: request.az ?? undefined, REQUEST_FNR: request.fnr ? fnrSpaced(request.fnr) : undefined },
    ...documents.map((d) => documentListingXml(w, d)),
  );
}

function changeDetailXml(w: ResponseXml, detail: CompanyChange['details'][number]): string {
  if (detail.type === 'function') {
    // PNR and FKEN come space-padded in the XSD example ("  A", "GF ").
    return w.el('DETAIL', null, w.text('PNR', detail.pnr.padStart(3)), w.text('FKEN', detail.functionCode.padEnd(3)));
  }
  return w.el(
    'DETAIL',
    null,
    detail.takingOverFnr ? w.text('FNR_UEBERNEHMENDE', fnrPadded(detail.takingOverFnr)) : '',
    detail.transferringFnr ? w.text('FNR_UEBERTRAGENDE', fnrPadded(detail.transferringFnr)) : '',
  );
}

export function companyChangeXml(w: ResponseXml, c: CompanyChange): string {
  return w.el(
    'VERAENDERUNG',
    null,
    w.text('FNR', fnrSpaced(c.fnr)),
    w.text('VNR', c.vnr),
    w.text('VOLLZUGSDATUM', c.executedOn),
    w.text('ARTDERVERAENDERUNG', c.kindText),
    ...c.details.map((d) => changeDetailXml(w, d)),
  );
}

export interface ChangeFilter {
  von: string;
  bis: string;
  gericht?: string | null;
  rechtsform?: string | null;
  artDerVeraenderung?: string | null;
}

export function veraenderungenFirmaResponseRoot(w: ResponseXml, filter: ChangeFilter, changes: readonly CompanyChange[]): string {
  return w.root(
    {
      ARTDERVERAENDERUNG: filter.artDerVeraenderung || undefined,
      BIS: filter.bis,
      GERICHT: filter.gericht || undefined,
      RECHTSFORM: filter.rechtsform || undefined,
      VON: filter.von,
    },
    ...changes.map((c) => companyChangeXml(w, c)),
  );
}

export function documentChangeXml(w: ResponseXml, d: DocumentChange): string {
  return w.el(
    'VERAENDERUNG',
    null,
    w.text('KEY', d.key),
    w.codeText('DOKUMENTART', d.documentType),
    w.text('VOLLZUGSDATUM', d.executedOn),
    w.text('CONTENTTYPE', d.contentType),
    w.text('DATEIENDUNG', d.fileExtension),
  );
}

export function veraenderungenUrkundeResponseRoot(w: ResponseXml, filter: ChangeFilter, changes: readonly DocumentChange[]): string {
  return w.root({ BIS: filter.bis, VON: filter.von }, ...changes.map((c) => documentChangeXml(w, c)));
}
