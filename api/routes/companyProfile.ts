// GET /businesses/{fnr}: the full company profile. The path segment is matched exactly as stored
// (a leading-zero or upper-case form is a 404). Queries read the source tables; the presenter
// shapes every field, so no row is returned as is.
import Router from '@koa/router';
import type { Sql } from '../../runtime/db.js';
import { KEY_FIGURES, figureJsonKey } from '../../schemas/keyFigures.js';
import { notFound } from '../errors.js';

const toNumber = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));
const isoDate = (v: Date | string | null) => (v instanceof Date ? v.toISOString().slice(0, 10) : v);

/** Figures jsonb (exact numerics) read as text per key, presented as JSON numbers; null stays null. */
function presentFigures(figures: Record<string, string | null>) {
  return Object.fromEntries(KEY_FIGURES.map((f) => [figureJsonKey(f), toNumber(figures[figureJsonKey(f)] ?? null)]));
}

interface FilingRow {
  documentKey: string;
  documentDate: Date | null;
  fiscalYearStart: Date | null;
  fiscalYearEnd: Date | null;
  currency: string | null;
  sizeClass: string | null;
  format: string;
  pnlMethod: string | null;
  kind: string | null;
  filedOn: Date | null;
  figures: Record<string, string | null>;
}

async function loadProfile(sql: Sql, fnr: string) {
  const [company] = await sql<Record<string, unknown>[]>`
    SELECT c.fnr, c.name, c.legal_form_code, coalesce(lf.name, c.legal_form_text) AS legal_form_text, c.court_code, ct.name AS court_text,
           c.status, c.euid, c.seat, c.municipality_code, c.municipality_text, c.capital_amount, c.capital_currency,
           c.business_purpose, c.oenace_numeric_code, c.last_crawled_at, c.fnr_check_letter_ok
      FROM company c
      LEFT JOIN legal_form lf ON lf.code = c.legal_form_code
      LEFT JOIN court ct ON ct.code = c.court_code
     WHERE c.fnr = ${fnr}`;
  if (!company) return null;
  const [names, addresses, oenaces, entries, functions, holdings, filings, documents, bogus, notices, licences] = await Promise.all([
    sql`SELECT name, vnr FROM company_name WHERE fnr = ${fnr} AND NOT is_current ORDER BY vnr, name`,
    sql`SELECT line, street, house_number, staircase, door, zip_code, city, country, is_current, vnr
          FROM company_address WHERE fnr = ${fnr} ORDER BY is_current DESC, position`,
    sql`SELECT co.code, co.is_primary, o.short_title_de, o.title_de, o.level, o.edv_code
          FROM company_oenace co LEFT JOIN oenace_class o ON o.version = co.version AND o.code = co.code
         WHERE co.fnr = ${fnr} AND co.version = '2008' ORDER BY co.is_primary DESC, co.code`,
    sql`SELECT vnr, executed_on, court_code, court_text, az, application_texts FROM register_entry WHERE fnr = ${fnr} ORDER BY vnr`,
    sql`SELECT f.pnr, f.function_code, coalesce(f.function_text, fc.text) AS function_text, f.representation_code,
               coalesce(f.representation_text, rk.text) AS representation_text, f.since, f.until, f.is_current,
               p.kind, p.person_id, p.related_fnr, p.organisation_id,
               coalesce(concat_ws(' ', pe.first_name, pe.last_name), rc.name, o.name) AS party_name
          FROM company_function f
          JOIN company_party p USING (fnr, pnr)
          LEFT JOIN function_code fc ON fc.code = f.function_code
          LEFT JOIN representation_kind rk ON rk.code = f.representation_code
          LEFT JOIN person pe ON pe.person_id = p.person_id
          LEFT JOIN company rc ON rc.fnr = p.related_fnr
          LEFT JOIN organisation o ON o.organisation_id = p.organisation_id
         WHERE f.fnr = ${fnr} ORDER BY f.is_current DESC, f.function_code, f.pnr, f.vnr`,
    sql`SELECT h.pnr, h.capital, h.paid_in, h.currency, h.since, h.until, h.is_current, p.kind, p.person_id, p.related_fnr,
               p.organisation_id, coalesce(concat_ws(' ', pe.first_name, pe.last_name), rc.name, o.name) AS party_name
          FROM holding h
          JOIN company_party p USING (fnr, pnr)
          LEFT JOIN person pe ON pe.person_id = p.person_id
          LEFT JOIN company rc ON rc.fnr = p.related_fnr
          LEFT JOIN organisation o ON o.organisation_id = p.organisation_id
         WHERE h.fnr = ${fnr} ORDER BY h.is_current DESC, h.pnr, h.vnr`,
    sql<FilingRow[]>`
      SELECT document_key, document_date, fiscal_year_start, fiscal_year_end, currency, size_class, format, pnl_method, kind, filed_on,
             (SELECT jsonb_object_agg(key, CASE WHEN value = 'null'::jsonb THEN NULL ELSE value #>> '{}' END) FROM jsonb_each(figures)) AS figures
        FROM annual_account WHERE fnr = ${fnr}
       ORDER BY document_date DESC NULLS LAST, document_key DESC`,
    sql`SELECT document_key, document_type_code, document_type_text, document_date, balance_sheet_date, content_type, filed_on, size_class, size_bytes
          FROM document WHERE fnr = ${fnr} AND document_type_code = '48' ORDER BY balance_sheet_date DESC NULLS LAST, document_key DESC`,
    sql`SELECT p.published_on, p.decision_final_on, p.deemed_since, l.name
          FROM bogus_company_listing l JOIN bogus_company_publication p USING (listing_key)
         WHERE l.fnr = ${fnr} AND l.removed_at IS NULL ORDER BY p.published_on`,
    sql`SELECT edikt_id, aktenzeichen, court_code, court_name, proceeding_code, proceeding_text, first_published_on, last_published_on,
               is_open, link_evidence, link_confidence
          FROM court_notice WHERE fnr = ${fnr} ORDER BY first_published_on DESC NULLS LAST`,
    sql`SELECT gisa_zahl, trade_key, wording, effective_from, ended_on, is_dormant FROM trade_license WHERE fnr = ${fnr} ORDER BY effective_from DESC NULLS LAST`,
  ]);
  return { company, names, addresses, oenaces, entries, functions, holdings, filings, documents, bogus, notices, licences };
}

type Profile = NonNullable<Awaited<ReturnType<typeof loadProfile>>>;

const partyRef = (r: Record<string, unknown>) =>
  r.kind === 'person' ? { type: 'person', personId: r.personId } : r.kind === 'company' ? { type: 'company', fnr: r.relatedFnr } : { type: 'organisation', organisationId: r.organisationId };

export function presentProfile(p: Profile) {
  const c = p.company;
  const filings = p.filings.map((f) => ({
    documentKey: f.documentKey,
    documentDate: isoDate(f.documentDate),
    fiscalYearStart: isoDate(f.fiscalYearStart),
    fiscalYearEnd: isoDate(f.fiscalYearEnd),
    currency: f.currency,
    sizeClass: f.sizeClass,
    format: f.format,
    pnlMethod: f.pnlMethod,
    kind: f.kind,
    filedOn: isoDate(f.filedOn),
    ...presentFigures(f.figures ?? {}),
  }));
  const latest = filings[0];
  return {
    fnr: c.fnr,
    name: c.name,
    legalForm: c.legalFormCode ? { code: c.legalFormCode, text: c.legalFormText } : null,
    court: c.courtCode ? { code: c.courtCode, text: c.courtText } : null,
    isActive: c.status === 'active',
    isScheinunternehmen: p.bogus.length > 0,
    scheinunternehmenKundmachungen: p.bogus.map((b) => ({
      name: b.name, publishedOn: isoDate(b.publishedOn), decisionFinalOn: isoDate(b.decisionFinalOn), deemedSince: isoDate(b.deemedSince),
    })),
    hasEdikt: p.notices.length > 0,
    euid: c.euid,
    seat: c.seat,
    municipality: c.municipalityCode ? { code: c.municipalityCode, text: c.municipalityText } : null,
    capital: c.capitalAmount ? { amount: Number(c.capitalAmount), currency: c.capitalCurrency } : null,
    businessPurpose: c.businessPurpose,
    formerNames: p.names.map((n) => ({ name: n.name, vnr: n.vnr })),
    addresses: p.addresses.map((a) => ({
      street: a.street ?? a.line, houseNumber: a.houseNumber, staircase: a.staircase, door: a.door, zipCode: a.zipCode, city: a.city,
      country: a.country, isCurrent: a.isCurrent,
    })),
    oenaces: p.oenaces.map((o) => ({ code: o.code, kurztitel: o.shortTitleDe, title: o.titleDe, level: o.level, isPrimary: o.isPrimary })),
    oenaceNumericCode: c.oenaceNumericCode ?? (p.oenaces[0]?.edvCode ? String(p.oenaces[0].edvCode).replace(/^[A-Z]/, '') : null),
    latestKeyFigures: latest ? { documentDate: latest.documentDate, ...presentFigures(p.filings[0]!.figures ?? {}) } : null,
    parsedJahresabschluesse: filings,
    functions: p.functions.map((f) => ({
      ...partyRef(f), name: f.partyName || null, functionCode: f.functionCode, functionText: f.functionText,
      representation: f.representationCode ? { code: f.representationCode, text: f.representationText } : null,
      since: isoDate(f.since), until: isoDate(f.until), isCurrent: f.isCurrent,
    })),
    shareholders: p.holdings.map((h) => ({
      ...partyRef(h), name: h.partyName || null, capital: toNumber(h.capital), paidIn: toNumber(h.paidIn), currency: h.currency,
      since: isoDate(h.since), until: isoDate(h.until), isCurrent: h.isCurrent,
    })),
    registerEntries: p.entries.map((e) => ({
      vnr: e.vnr, executedOn: isoDate(e.executedOn), court: e.courtCode ? { code: e.courtCode, text: e.courtText } : null, az: e.az,
      applicationTexts: e.applicationTexts,
    })),
    tradeLicenses: p.licences.map((l) => ({
      gisaZahl: l.gisaZahl, tradeKey: l.tradeKey, wording: l.wording, effectiveFrom: isoDate(l.effectiveFrom), endedOn: isoDate(l.endedOn),
      isDormant: l.isDormant,
    })),
    openNotices: p.notices.filter((n) => n.isOpen).map((n) => ({
      ediktId: n.ediktId, aktenzeichen: n.aktenzeichen, court: n.courtCode ? { code: n.courtCode, text: n.courtName } : null,
      proceeding: n.proceedingCode ? { code: n.proceedingCode, text: n.proceedingText } : null,
      firstPublishedOn: isoDate(n.firstPublishedOn), lastPublishedOn: isoDate(n.lastPublishedOn),
      link: { evidence: n.linkEvidence, confidence: toNumber(n.linkConfidence) },
    })),
    annualAccountDocuments: p.documents.map((d) => ({
      documentKey: d.documentKey, documentDate: isoDate(d.documentDate), balanceSheetDate: isoDate(d.balanceSheetDate),
      contentType: d.contentType, filedOn: isoDate(d.filedOn), sizeClass: d.sizeClass, sizeBytes: d.sizeBytes,
    })),
    lastCrawledAt: c.lastCrawledAt instanceof Date ? c.lastCrawledAt.toISOString() : null,
  };
}

export function companyProfileRouter(sql: Sql): Router {
  const router = new Router();
  router.get('/businesses/:fnr', async (ctx) => {
    const profile = await loadProfile(sql, ctx.params.fnr!);
    if (!profile) throw notFound(`No company has the register number ${ctx.params.fnr}.`);
    ctx.body = presentProfile(profile);
  });
  return router;
}
