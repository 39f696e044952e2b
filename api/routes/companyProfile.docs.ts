// OpenAPI entry of the company profile (companyProfile.ts): the response schema follows
// presentProfile field by field; the example is the Müller Bau GmbH of the other examples.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { codeText, fnrPath, keyFigureFields, KeyFigures, nullableString, registerExample, registerJsonGet, TAGS } from '../openapi/common.js';
import { EINZELVERTRETUNG, GEMEINSAM, GES, GF, HG_WIEN, keyFigures, MUELLER_2024, PR } from '../openapi/exampleData.js';
import { TradeLicense, tradeLicenseExample } from './trades.docs.js';
import { OENACE_CONFIDENCE_THRESHOLD } from '../../schemas/oenaceAssignment.js';

const partyType = z.enum(['person', 'company', 'organisation']).meta({
  description: 'Who holds the function or share; with `personId` (person), `fnr` (company) or `organisationId` (organisation).',
});
const party = {
  type: partyType, personId: z.string().nullable().optional(), fnr: z.string().nullable().optional(), organisationId: z.string().nullable().optional(),
  name: z.string().nullable(), since: z.string().nullable(), until: z.string().nullable(), isCurrent: z.boolean(),
};

const ParseStatus = z.enum(['parsed', 'failed', 'pdfOnly', 'pending']).meta({
  description: 'What became of an annual account\'s figures: `parsed` (in parsedJahresabschluesse), `failed` (the XML could not be read, or its content was ' +
    'not taken; parseError says why), `pdfOnly` (a PDF: figures are read from XML filings only), `pending` (not fetched yet).',
});
const ParseError = nullableString.meta({ description: 'Why the figures could not be read (parseStatus `failed`); null otherwise.' });

const Profile = z
  .object({
    fnr: z.string(), name: z.string(), legalForm: codeText.nullable(), court: codeText.nullable(), isActive: z.boolean(),
    isScheinunternehmen: z.boolean().meta({
      description: 'On the finance ministry\'s current list of bogus companies (§ 8 SBBG): a listing linked to this company with confidence >= 0.9.',
    }),
    scheinunternehmenKundmachungen: z.array(z.object({
      name: z.string().meta({ description: 'Name as the list gives it.' }),
      publishedOn: nullableString.meta({ description: 'Veröffentlichung.' }),
      decisionFinalOn: nullableString.meta({ description: 'Rechtskraft Bescheid: the day the decision became final.' }),
      deemedSince: nullableString.meta({ description: 'Zeitpunkt als Scheinunternehmen, when the list gives it.' }),
      address: nullableString.meta({ description: 'Anschrift as the list gives it ("PLZ Ort, Straße Nr").' }),
      uid: nullableString.meta({ description: 'VAT number (ATU…, or a foreign one) from the list.' }),
      urCode: nullableString.meta({ description: 'Kennziffer des Unternehmensregisters from the list.' }),
      listedFnr: nullableString.meta({ description: 'The FN the list gives, normalised (null: the list gives none).' }),
      link: z.object({
        evidence: z.enum(['register-fn', 'name-address', 'name', 'manual']).nullable(),
        confidence: z.number().nullable(),
      }).meta({
        description: 'Why the listing is linked to this company: register-fn (the list\'s own FN, 1.0) or name-address (normalised name, '
          + 'legal form, zip code and street). Only links with confidence >= 0.9 are asserted; weaker candidates never appear here.',
      }),
    }).loose()).meta({ description: 'Publications (Kundmachungen) of the finance ministry behind the current listing, oldest first.' }),
    hasEdikt: z.boolean().meta({ description: 'At least one court notice (open or closed) on file whose link to this company has confidence >= 0.9 (Ediktsdatei).' }),
    euid: nullableString, seat: nullableString, municipality: codeText.nullable(),
    capital: z.object({ amount: z.number(), currency: nullableString }).nullable().meta({ description: 'Registered share capital (Stammkapital / Grundkapital).' }),
    businessPurpose: nullableString,
    formerNames: z.array(z.object({ name: z.string(), vnr: z.string() }).loose()),
    addresses: z.array(z.object({
      street: nullableString, houseNumber: nullableString, staircase: nullableString, door: nullableString, zipCode: nullableString,
      city: nullableString, country: nullableString, isCurrent: z.boolean(),
    }).loose()).meta({ description: 'Current address first, then former ones.' }),
    oenaces: z.array(z.object({
      code: z.string(), kurztitel: nullableString, title: nullableString, level: z.int().nullable(), isPrimary: z.boolean(),
      source: z.string().meta({ description: '`derived`: the register carries no industry code; this one is derived from the business purpose and the trade licences.' }),
      confidence: z.number().nullable().meta({
        description: 'How surely a derived code is right, 0..1: the share right among labelled texts read the same way (null for a code a source gave). '
          + `The oenaceCode filter and similar companies use codes from ${OENACE_CONFIDENCE_THRESHOLD} up, measured right at least 95 % of the time on texts the calibration never saw.`,
      }),
      evidence: z.object({ words: z.array(z.string()), tradeKeys: z.array(z.string()) }).nullable()
        .meta({ description: 'What a derived code rests on: words of the business purpose and trade keys of current licences.' }),
    }).loose()).meta({ description: 'ÖNACE 2008 subclasses, the primary one first, then by confidence.' }),
    oenaceNumericCode: nullableString,
    latestKeyFigures: KeyFigures.nullable(),
    parsedJahresabschluesse: z.array(z.object({
      documentKey: z.string(), documentDate: nullableString, fiscalYearStart: nullableString, fiscalYearEnd: nullableString,
      currency: nullableString, sizeClass: nullableString, format: z.string(), pnlMethod: nullableString, kind: nullableString,
      filedOn: nullableString, ...keyFigureFields,
    }).loose()).meta({ description: 'Every parsed annual account, newest documentDate first, each with its 47 figures.' }),
    functions: z.array(z.object({
      ...party, functionCode: z.string(), functionText: nullableString,
      representation: codeText.nullable().meta({ description: 'Kind of representation power (Einzelvertretung, Gemeinsame Vertretung, ...).' }),
    }).loose()).meta({ description: 'Registered functions, current first.' }),
    shareholders: z.array(z.object({
      ...party, capital: z.number().nullable(), paidIn: z.number().nullable(), currency: nullableString,
      sharePercent: z.number().nullable().meta({
        description: 'The holding\'s share of the registered capital in percent (2 decimals): for a current holding where the capital is known ' +
          '(and both are in one currency); null otherwise.',
      }),
    }).loose()),
    registerEntries: z.array(z.object({
      vnr: z.string(), executedOn: nullableString, court: codeText.nullable(), az: nullableString, applicationTexts: z.array(z.string()),
    }).loose()),
    tradeLicenses: z.array(TradeLicense).meta({ description: 'The licences the company holds in the trade register (GISA), current first.' }),
    openNotices: z.array(z.object({
      ediktId: z.string(), aktenzeichen: nullableString, court: codeText.nullable(), proceeding: codeText.nullable(),
      firstPublishedOn: nullableString, lastPublishedOn: nullableString,
      link: z.object({ evidence: nullableString, confidence: z.number().nullable() }).meta({
        description: 'Why the notice is linked to this company: register-fn (the FN the court gives, 1.0) or name-address (normalised name, legal form, '
          + 'zip code and street). Only links with confidence >= 0.9 are asserted; weaker candidates stay on the notice (GET /edikte/changes/{id}) and never appear here.',
      }),
    }).loose()).meta({ description: 'Open court notices (Ediktsdatei: no Aufhebung, Einstellung or Nichteröffnung published yet), newest first.' }),
    annualAccountDocuments: z.array(z.object({
      documentKey: z.string(),
      documentDate: nullableString.meta({ description: 'The date the filing\'s figures are for (its balance-sheet date), as in parsedJahresabschluesse.' }),
      contentType: nullableString, filedOn: nullableString, sizeClass: nullableString, sizeBytes: z.int().nullable(),
      parseStatus: ParseStatus, parseError: ParseError,
    }).loose()).meta({ description: 'Filed annual accounts (PDF or XML), newest first, downloadable by documentKey, each with what became of its figures.' }),
    documents: z.array(z.object({
      documentKey: z.string(), type: codeText.nullable().meta({ description: 'Document type as the register gives it (48 Jahresabschluss, 42 Gesellschaftsvertrag, ...).' }),
      documentDate: nullableString.meta({ description: 'Annual accounts: the date their figures are for; other documents: the date of the document as the register gives it.' }),
      filedOn: nullableString, contentType: nullableString, sizeBytes: z.int().nullable(), remark: nullableString,
      parseStatus: ParseStatus.nullable().meta({ description: 'Annual accounts only (see annualAccountDocuments); null for other documents.' }),
      parseError: ParseError,
    }).loose()).meta({ description: 'Every document the company filed (Urkundensammlung), newest first (by documentDate), downloadable by documentKey.' }),
    lastCrawledAt: nullableString,
  })
  .loose()
  .meta({ id: 'CompanyProfile' });

/** Müller Bau GmbH, 2023: a small company's filing, balance sheet only. */
const MUELLER_2023 = keyFigures('2023-12-31', {
  bilanzSumme: 4301772.05, anlageVermoegen: 1187350, sachanlagen: 1137350, finanzanlagen: 50000, beteiligungen: 50000,
  umlaufvermoegen: 3098022.05, vorraete: 388150, forderungen: 1842310.6, liquideMittel: 867561.45, aktiveRechnungsabgrenzung: 16400,
  eigenkapital: 1189552.48, nennKapital: 35000, kapitalruecklagen: 100000, gewinnruecklagen: 250000, bilanzGewinn: 804552.48,
  rueckstellungen: 412800, verbindlichkeiten: 2699419.57, verbindlichkeitenKurzfristig: 2012419.57,
});

const filing = (documentKey: string, sizeClass: string, format: string, pnlMethod: string | null, filedOn: string, figures: ReturnType<typeof keyFigures>) => {
  const { documentDate, ...values } = figures;
  return {
    documentKey, documentDate, fiscalYearStart: `${documentDate.slice(0, 4)}-01-01`, fiscalYearEnd: documentDate, currency: 'EUR', sizeClass,
    format, pnlMethod, kind: 'Jahresabschluss', filedOn, ...values,
  };
};

const ANNUAL_ACCOUNT = { code: '48', text: 'Jahresabschluss' };
const ANNUAL_ACCOUNT_DOCUMENTS = [
  {
    documentKey: '030435_0070202507812_000___000_30_41873215_XML', documentDate: '2024-12-31', contentType: 'application/xml', filedOn: '2025-07-28',
    sizeClass: 'mittelgroß', sizeBytes: 48213, parseStatus: 'parsed', parseError: null,
  },
  {
    documentKey: '030435_0070202507812_000___000_30_41873216_PDF', documentDate: '2024-12-31', contentType: 'application/pdf', filedOn: '2025-07-28',
    sizeClass: 'mittelgroß', sizeBytes: 412877, parseStatus: 'pdfOnly', parseError: null,
  },
  {
    documentKey: '030435_0070202408290_000___000_30_39120448_XML', documentDate: '2023-12-31', contentType: 'application/xml', filedOn: '2024-08-29',
    sizeClass: 'klein', sizeBytes: 21977, parseStatus: 'parsed', parseError: null,
  },
];

const companyProfileExample = {
  fnr: '30435h',
  name: 'Müller Bau GmbH',
  legalForm: GES,
  court: HG_WIEN,
  isActive: true,
  isScheinunternehmen: false,
  scheinunternehmenKundmachungen: [],
  hasEdikt: true,
  euid: 'ATBRA.030435-000',
  seat: 'Wien',
  municipality: { code: '90001', text: 'Wien' },
  capital: { amount: 35000, currency: 'EUR' },
  businessPurpose: 'Baumeistergewerbe, Handel mit Baustoffen',
  formerNames: [{ name: 'Müller & Söhne Baugesellschaft m.b.H.', vnr: '004' }],
  addresses: [
    { street: 'Favoritenstraße', houseNumber: '112', staircase: '2', door: '14', zipCode: '1100', city: 'Wien', country: 'AUT', isCurrent: true },
    { street: 'Laxenburger Straße', houseNumber: '36', staircase: null, door: null, zipCode: '1100', city: 'Wien', country: 'AUT', isCurrent: false },
  ],
  oenaces: [
    {
      code: 'F 41.20-1', kurztitel: 'Wohnungs- und Siedlungsbau', title: 'Wohnungs- und Siedlungsbau', level: 5, isPrimary: true,
      source: 'derived', confidence: 0.85, evidence: { words: ['Baumeistergewerbe'], tradeKeys: [] },
    },
    {
      code: 'G 46.73-2', kurztitel: 'GH - Baustoffe und Sanitärkeramik', title: 'Großhandel mit Baustoffen und Sanitärkeramik', level: 5, isPrimary: false,
      source: 'derived', confidence: 0.86, evidence: { words: ['Handel', 'Baustoffen'], tradeKeys: [] },
    },
  ],
  oenaceNumericCode: '41201',
  latestKeyFigures: MUELLER_2024,
  parsedJahresabschluesse: [
    filing('030435_0070202507812_000___000_30_41873215_XML', 'mittelgroß', 'jab4', 'GKV', '2025-07-28', MUELLER_2024),
    filing('030435_0070202408290_000___000_30_39120448_XML', 'klein', 'legacy', null, '2024-08-29', MUELLER_2023),
  ],
  functions: [
    {
      type: 'person', personId: 'andrea-müller-1972-04-18', name: 'Andrea Müller', functionCode: 'GF', functionText: GF,
      representation: EINZELVERTRETUNG, since: '2011-03-01', until: null, isCurrent: true,
    },
    {
      type: 'person', personId: 'thomas-berger-1985-09-30', name: 'Thomas Berger', functionCode: 'PR', functionText: PR,
      representation: GEMEINSAM, since: '2019-01-15', until: null, isCurrent: true,
    },
    {
      type: 'person', personId: 'josef-müller-1944-11-02', name: 'Josef Müller', functionCode: 'GF', functionText: GF,
      representation: EINZELVERTRETUNG, since: '1988-06-01', until: '2011-02-28', isCurrent: false,
    },
  ],
  shareholders: [
    {
      type: 'person', personId: 'andrea-müller-1972-04-18', name: 'Andrea Müller', capital: 24500, paidIn: 24500, currency: 'EUR', sharePercent: 70,
      since: '2011-03-01', until: null, isCurrent: true,
    },
    {
      type: 'company', fnr: '388410t', name: 'Murtal Beteiligungsverwaltung GmbH', capital: 10500, paidIn: 10500, currency: 'EUR', sharePercent: 30,
      since: '2016-05-20', until: null, isCurrent: true,
    },
  ],
  registerEntries: [
    { vnr: '001', executedOn: '1988-06-01', court: HG_WIEN, az: '73 Fr 2841/88', applicationTexts: ['Neueintragung'] },
    { vnr: '004', executedOn: '2011-03-01', court: HG_WIEN, az: '73 Fr 1530/11 d', applicationTexts: ['Änderung der Firma', 'Wechsel in der Geschäftsführung'] },
    { vnr: '007', executedOn: '2024-05-13', court: HG_WIEN, az: '73 Fr 4417/24 p', applicationTexts: ['Änderung der Geschäftsanschrift'] },
  ],
  tradeLicenses: [
    { ...tradeLicenseExample, fnr: '30435h', holder: { ...tradeLicenseExample.holder, fnr: '30435h', name: 'Müller Bau GmbH' }, manager: null },
  ],
  openNotices: [
    {
      ediktId: '007015S0004125001', aktenzeichen: '41 S 125/25d', court: HG_WIEN, proceeding: { code: 'SVE', text: 'Sanierungsverfahren mit Eigenverwaltung' },
      firstPublishedOn: '2025-10-14', lastPublishedOn: '2025-11-03', link: { evidence: 'register-fn', confidence: 1 },
    },
  ],
  annualAccountDocuments: ANNUAL_ACCOUNT_DOCUMENTS,
  documents: [
    ...ANNUAL_ACCOUNT_DOCUMENTS.map(({ sizeClass: _sizeClass, ...d }) => ({ ...d, type: ANNUAL_ACCOUNT, remark: null })),
    {
      documentKey: '030435_0070201100412_000___000_00_8812044_PDF', type: { code: '42', text: 'Gesellschaftsvertrag' }, documentDate: '2011-02-21',
      filedOn: '2011-02-25', contentType: 'application/pdf', sizeBytes: 188410, remark: 'Neufassung', parseStatus: null, parseError: null,
    },
  ],
  lastCrawledAt: '2025-11-04T06:15:12.000Z',
};

export function registerCompanyProfileDocs(registry: OpenAPIRegistry): void {
  registerJsonGet(registry, '/businesses/{fnr}', [TAGS.companies.name], 'Company profile', undefined, Profile, {
    operationId: 'getCompanyProfile', request: '/businesses/30435h',
    description: 'Everything known about one company: register data (names, addresses, capital, purpose, functions, shareholders, register ' +
      'entries), derived industry codes, every parsed annual account with its 47 figures (expenses negative as filed; GET /keyfigures), ' +
      'trade licences, open court notices, the bogus-company listing and every filed document (annual accounts with what became of their ' +
      'figures: parseStatus). Shareholders carry their share of the capital in percent. An unknown fnr is a 404.',
    params: fnrPath, problems: [404],
    examples: registerExample(registry, 'CompanyProfile', 'A GmbH with two filings, functions, shareholders and an open court notice', companyProfileExample),
  });
}
