// Minimal company rows for API tests: the company, its current address, an optional latest filing
// with figures (JSON keys of schemas/keyFigures.ts), a bogus-company listing and a court notice.
import type { Sql } from '../../runtime/db.js';

export interface TestCompany {
  fnr: string;
  name: string;
  legalFormCode?: string;
  legalFormText?: string;
  courtCode?: string;
  status?: 'active' | 'deleted';
  city?: string;
  zipCode?: string;
  /** Filings: the one with the latest documentDate is the company's latest. */
  filings?: { documentDate: string; figures: Record<string, number | string | null> }[];
  scheinunternehmen?: boolean;
  edikt?: boolean;
}

export async function seedCompanies(sql: Sql, companies: TestCompany[]): Promise<void> {
  for (const c of companies) {
    await sql`
      INSERT INTO company (fnr, name, legal_form_code, legal_form_text, court_code, status)
      VALUES (${c.fnr}, ${c.name}, ${c.legalFormCode ?? null}, ${c.legalFormText ?? null}, ${c.courtCode ?? null}, ${c.status ?? 'active'})`;
    if (c.city || c.zipCode) {
      await sql`
        INSERT INTO company_address (fnr, vnr, position, is_current, street, zip_code, city)
        VALUES (${c.fnr}, '1', 0, true, 'Hauptstraße 1', ${c.zipCode ?? null}, ${c.city ?? null})`;
    }
    for (const [i, filing] of (c.filings ?? []).entries()) {
      const key = `${c.fnr}-${i}`;
      await sql`INSERT INTO document (document_key, fnr, document_type_code, document_date) VALUES (${key}, ${c.fnr}, '48', ${filing.documentDate})`;
      await sql`
        INSERT INTO annual_account (document_key, fnr, document_date, format, has_positions, figures, raw_xml, parser_version)
        VALUES (${key}, ${c.fnr}, ${filing.documentDate}, 'jab4', true, ${sql.json(filing.figures as never)}, '<xml/>', 1)`;
    }
    if (c.scheinunternehmen) {
      await sql`INSERT INTO bogus_company_listing (listing_key, name, fnr) VALUES (${`fn:${c.fnr}`}, ${c.name}, ${c.fnr})`;
    }
    if (c.edikt) {
      await sql`INSERT INTO court_notice (edikt_id, fnr, debtor_name) VALUES (${`edikt-${c.fnr}`}, ${c.fnr}, ${c.name})`;
    }
  }
}
