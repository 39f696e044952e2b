// The company profile (GET /businesses/{fnr}). One statement reads the source tables (one round trip
// and, prepared, one plan per connection instead of 12 queries queueing for a pool of 5); the
// presenter (api/presenters/businesses.ts) shapes every field, so no row is returned as is. The JSON
// is not built in SQL: Postgres would print numbers differently from JSON.stringify (1e+15, not
// 1000000000000000).
import type { Sql } from '../../runtime/db.js';
import { notFound } from '../errors.js';
import { presentProfile, type Profile, type ProfileRow } from '../presenters/businesses.js';
import { LICENCE_CATALOGUE_JOIN, licenceJson, LICENCE_ORDER } from '../presenters/licences.js';

/**
 * The whole profile in one statement (one round trip, one prepared plan): the company row plus one
 * correlated json_agg per collection, each with the ORDER BY of the former per-collection query.
 */
async function loadProfile(sql: Sql, fnr: string): Promise<Profile | null> {
  const [row] = await sql<ProfileRow[]>`
    SELECT c.fnr, c.name, c.legal_form_code, coalesce(lf.name, c.legal_form_text) AS legal_form_text, c.court_code, ct.name AS court_text,
           c.status, c.euid, c.seat, c.municipality_code, c.municipality_text, c.capital_amount, c.capital_currency,
           c.business_purpose, c.oenace_numeric_code, c.last_crawled_at,
           -- As the screener and the export decide it: a current listing, with or without a publication yet.
           EXISTS (SELECT 1 FROM bogus_company_listing b WHERE b.fnr = c.fnr AND b.removed_at IS NULL) AS is_scheinunternehmen,
           (SELECT json_agg(json_build_object('name', n.name, 'vnr', n.vnr) ORDER BY n.vnr, n.name)
              FROM company_name n WHERE n.fnr = c.fnr AND NOT n.is_current) AS names,
           (SELECT json_agg(json_build_object('line', a.line, 'street', a.street, 'houseNumber', a.house_number, 'staircase', a.staircase,
                     'door', a.door, 'zipCode', a.zip_code, 'city', a.city, 'country', a.country, 'isCurrent', a.is_current)
                     ORDER BY a.is_current DESC, a.position)
              FROM company_address a WHERE a.fnr = c.fnr) AS addresses,
           (SELECT json_agg(json_build_object('code', co.code, 'isPrimary', co.is_primary, 'shortTitleDe', o.short_title_de, 'titleDe', o.title_de,
                     'level', o.level, 'edvCode', o.edv_code, 'source', co.source, 'confidence', co.confidence, 'evidence', co.evidence)
                     ORDER BY co.is_primary DESC, co.confidence DESC NULLS FIRST, co.code)
              FROM company_oenace co LEFT JOIN oenace_class o ON o.version = co.version AND o.code = co.code
             WHERE co.fnr = c.fnr AND co.version = '2008') AS oenaces,
           (SELECT json_agg(json_build_object('vnr', e.vnr, 'executedOn', e.executed_on, 'courtCode', e.court_code, 'courtText', e.court_text,
                     'az', e.az, 'applicationTexts', e.application_texts) ORDER BY e.vnr)
              FROM register_entry e WHERE e.fnr = c.fnr) AS entries,
           (SELECT json_agg(json_build_object('pnr', f.pnr, 'functionCode', f.function_code, 'functionText', coalesce(f.function_text, fc.text),
                     'representationCode', f.representation_code, 'representationText', coalesce(f.representation_text, rk.text),
                     'since', f.since, 'until', f.until, 'isCurrent', f.is_current, 'kind', p.kind, 'personId', p.person_id,
                     'relatedFnr', p.related_fnr, 'organisationId', p.organisation_id,
                     'partyName', coalesce(nullif(concat_ws(' ', pe.first_name, pe.last_name), ''), rc.name, o.name))
                     ORDER BY f.is_current DESC, f.function_code, f.pnr, f.vnr)
              FROM company_function f
              JOIN company_party p USING (fnr, pnr)
              LEFT JOIN function_code fc ON fc.code = f.function_code
              LEFT JOIN representation_kind rk ON rk.code = f.representation_code
              LEFT JOIN person pe ON pe.person_id = p.person_id
              LEFT JOIN company rc ON rc.fnr = p.related_fnr
              LEFT JOIN organisation o ON o.organisation_id = p.organisation_id
             WHERE f.fnr = c.fnr) AS functions,
           (SELECT json_agg(json_build_object('pnr', h.pnr, 'capital', h.capital::text, 'paidIn', h.paid_in::text, 'currency', h.currency,
                     'since', h.since, 'until', h.until, 'isCurrent', h.is_current, 'kind', p.kind, 'personId', p.person_id,
                     'relatedFnr', p.related_fnr, 'organisationId', p.organisation_id,
                     'partyName', coalesce(nullif(concat_ws(' ', pe.first_name, pe.last_name), ''), rc.name, o.name))
                     ORDER BY h.is_current DESC, h.pnr, h.vnr)
              FROM holding h
              JOIN company_party p USING (fnr, pnr)
              LEFT JOIN person pe ON pe.person_id = p.person_id
              LEFT JOIN company rc ON rc.fnr = p.related_fnr
              LEFT JOIN organisation o ON o.organisation_id = p.organisation_id
             WHERE h.fnr = c.fnr) AS holdings,
           (SELECT json_agg(json_build_object('documentKey', aa.document_key, 'documentDate', aa.document_date,
                     'fiscalYearStart', aa.fiscal_year_start, 'fiscalYearEnd', aa.fiscal_year_end, 'currency', aa.currency,
                     'sizeClass', aa.size_class, 'format', aa.format, 'pnlMethod', aa.pnl_method, 'kind', aa.kind, 'filedOn', aa.filed_on,
                     'figures', aa.figures) ORDER BY aa.document_date DESC NULLS LAST, aa.document_key DESC)
              FROM annual_account aa WHERE aa.fnr = c.fnr) AS filings,
           -- Every filed document; for annual accounts (type 48) also what became of its parse.
           (SELECT json_agg(json_build_object('documentKey', d.document_key, 'typeCode', d.document_type_code, 'typeText', d.document_type_text,
                     'documentDate', d.document_date, 'balanceSheetDate', d.balance_sheet_date, 'filedOn', d.filed_on,
                     'contentType', d.content_type, 'fileExtension', d.file_extension, 'sizeClass', d.size_class, 'sizeBytes', d.size_bytes,
                     'remark', d.remark, 'contentRefused', d.content_refused,
                     'parseError', d.parse_error, 'parsedDate', aa.document_date, 'parsed', aa.document_key IS NOT NULL)
                     ORDER BY coalesce(aa.document_date, d.balance_sheet_date, d.document_date) DESC NULLS LAST, d.filed_on DESC NULLS LAST, d.document_key DESC)
              FROM document d LEFT JOIN annual_account aa ON aa.document_key = d.document_key WHERE d.fnr = c.fnr) AS documents,
           (SELECT json_agg(json_build_object('publishedOn', bp.published_on, 'decisionFinalOn', bp.decision_final_on,
                     'deemedSince', bp.deemed_since, 'name', bl.name, 'address', bl.address, 'uid', bl.uid, 'urCode', bl.ur_code,
                     'listedFnr', bl.listed_fnr, 'linkEvidence', bl.link_evidence, 'linkConfidence', bl.link_confidence::text)
                     ORDER BY bp.published_on)
              FROM bogus_company_listing bl JOIN bogus_company_publication bp USING (listing_key)
             WHERE bl.fnr = c.fnr AND bl.removed_at IS NULL) AS bogus,
           (SELECT json_agg(json_build_object('ediktId', cn.edikt_id, 'aktenzeichen', cn.aktenzeichen, 'courtCode', cn.court_code,
                     'courtName', cn.court_name, 'proceedingCode', cn.proceeding_code, 'proceedingText', cn.proceeding_text,
                     'firstPublishedOn', cn.first_published_on, 'lastPublishedOn', cn.last_published_on, 'isOpen', cn.is_open,
                     'linkEvidence', cn.link_evidence, 'linkConfidence', cn.link_confidence::text) ORDER BY cn.first_published_on DESC NULLS LAST)
              FROM court_notice cn WHERE cn.fnr = c.fnr) AS notices,
           (SELECT json_agg(${licenceJson(sql)} ORDER BY ${sql.unsafe(LICENCE_ORDER)})
              FROM trade_license t ${sql.unsafe(LICENCE_CATALOGUE_JOIN)} WHERE t.fnr = c.fnr) AS licences
      FROM company c
      LEFT JOIN legal_form lf ON lf.code = c.legal_form_code
      LEFT JOIN court ct ON ct.code = c.court_code
     WHERE c.fnr = ${fnr}`;
  if (!row) return null;
  const { names, addresses, oenaces, entries, functions, holdings, filings, documents, bogus, notices, licences, ...company } = row;
  return {
    company,
    names: names ?? [], addresses: addresses ?? [], oenaces: oenaces ?? [], entries: entries ?? [], functions: functions ?? [],
    holdings: holdings ?? [], filings: filings ?? [], documents: documents ?? [], bogus: bogus ?? [], notices: notices ?? [],
    licences: licences ?? [],
  };
}

/** GET /businesses/{fnr}: the path segment is matched exactly as stored (a leading-zero or upper-case form is a 404). */
export async function getCompanyProfile(sql: Sql, fnr: string) {
  const profile = await loadProfile(sql, fnr);
  if (!profile) throw notFound(`No company has the register number ${fnr}.`);
  return presentProfile(profile);
}
