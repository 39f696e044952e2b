// The rows of a company export, in the order of the fnrs given, read through a database cursor so a
// CSV export holds one batch at a time, whatever its size. Definitions match the read model
// (indexer/companySearchTable.ts): legal form text from the catalogue, city and zip code from the
// first current address, Scheinunternehmen from an active listing by fnr, Edikt from any court notice
// by fnr, figures from the filing with the latest documentDate. Figures come as decimal strings so
// the CSV carries them exactly as stored.
import type { Sql } from '../../runtime/db.js';

export interface ExportRow {
  fnr: string;
  name: string;
  legalForm: string | null;
  legalFormCode: string | null;
  courtCode: string | null;
  street: string | null;
  city: string | null;
  zipCode: string | null;
  isActive: boolean;
  isScheinunternehmen: boolean;
  hasEdikt: boolean;
  documentDate: string | null;
  /** JSON key -> decimal string; null without a filing. */
  figures: Record<string, string | null> | null;
}

export const EXPORT_CURSOR_BATCH = 100;

export function exportRowsCursor(sql: Sql, fnrs: string[]): AsyncIterable<ExportRow[]> {
  return sql<ExportRow[]>`
    SELECT c.fnr, c.name, coalesce(lf.name, c.legal_form_text) AS legal_form, c.legal_form_code, c.court_code,
           nullif(concat_ws(' ', address.street, address.house_number), '') AS street, address.city, address.zip_code,
           c.status = 'active' AS is_active,
           EXISTS (SELECT 1 FROM bogus_company_listing b WHERE b.fnr = c.fnr AND b.removed_at IS NULL) AS is_scheinunternehmen,
           EXISTS (SELECT 1 FROM court_notice n WHERE n.fnr = c.fnr) AS has_edikt,
           to_char(latest.document_date, 'YYYY-MM-DD') AS document_date,
           (SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each_text(latest.figures) AS e) AS figures
      FROM unnest(${fnrs}::text[]) WITH ORDINALITY AS input(fnr, ord)
      JOIN company c ON c.fnr = input.fnr
      LEFT JOIN legal_form lf ON lf.code = c.legal_form_code
      LEFT JOIN LATERAL (
        SELECT a.street, a.house_number, a.city, a.zip_code FROM company_address a
         WHERE a.fnr = c.fnr AND a.is_current ORDER BY a.position LIMIT 1
      ) address ON true
      LEFT JOIN LATERAL (
        SELECT x.document_date, x.figures FROM annual_account x
         WHERE x.fnr = c.fnr ORDER BY x.document_date DESC NULLS LAST, x.document_key LIMIT 1
      ) latest ON true
     ORDER BY input.ord`.cursor(EXPORT_CURSOR_BATCH);
}
