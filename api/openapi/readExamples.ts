// Example answers of the read endpoints for the OpenAPI document: one invented but realistic Austrian
// company (Müller Bau GmbH, FN 30435h at the Handelsgericht Wien) seen through every endpoint, shaped
// as the presenters shape it. test/unit/openapiExamples.test.ts validates every example of the
// generated document against the schema it stands beside, so an example that drifts from its schema
// fails there.
import { KEY_FIGURES, figureJsonKey } from '../../schemas/keyFigures.js';

const GES = { code: 'GES', text: 'Gesellschaft mit beschränkter Haftung' };
const HG_WIEN = { code: '007', text: 'Handelsgericht Wien' };
const LG_GRAZ = { code: '638', text: 'Landesgericht für ZRS Graz' };
const LG_KORNEUBURG = { code: '119', text: 'Landesgericht Korneuburg' };
const GF = 'GESCHÄFTSFÜHRER/IN (handelsrechtlich)';
const PR = 'PROKURIST/IN';
const EINZELVERTRETUNG = { code: 'E', text: 'Einzelvertretung' };
const GEMEINSAM = { code: 'G', text: 'Gemeinsame Vertretung' };

/** All 47 figures of one filing: the ones given, every other one null (not reported, never 0). */
function keyFigures(documentDate: string, values: Record<string, number>) {
  const known = new Set(KEY_FIGURES.map(figureJsonKey));
  for (const key of Object.keys(values)) if (!known.has(key)) throw new Error(`readExamples: ${key} is not a key figure`);
  return { documentDate, ...Object.fromEntries(KEY_FIGURES.map((f) => [figureJsonKey(f), values[figureJsonKey(f)] ?? null])) };
}

/** Müller Bau GmbH, 2024 (full annual account, Gesamtkostenverfahren; the sums add up). */
const MUELLER_2024 = keyFigures('2024-12-31', {
  bilanzSumme: 4812350.17, anlageVermoegen: 1204800, immaterielleVermoegensgegenstaende: 12400, sachanlagen: 1142400, finanzanlagen: 50000,
  beteiligungen: 50000, umlaufvermoegen: 3589150.17, vorraete: 412300, forderungen: 2104560.42, forderungenLuL: 1876210.42,
  liquideMittel: 1072289.75, aktiveRechnungsabgrenzung: 18400, eigenkapital: 1630912.4, nennKapital: 35000, kapitalruecklagen: 100000,
  gewinnruecklagen: 250000, bilanzGewinn: 1245912.4, gewinnVortrag: 804552.48, rueckstellungen: 486200, verbindlichkeiten: 2695237.77,
  verbindlichkeitenKurzfristig: 1987100.22, verbindlichkeitenKreditinstitute: 905000, verbindlichkeitenLuL: 1104318.6,
  umsatzerloese: 9874215.3, bestandsveraenderung: 45600, sonstigeBetrieblicheErtraege: 62118.9, materialaufwand: -5412880.45,
  personalaufwand: -2931406.12, abschreibungen: -214370, sonstigeBetrieblicheAufwendungen: -798233.41, betriebsErfolg: 625044.22,
  zinsErtraege: 1842.17, zinsAufwendungen: -38406.5, finanzErfolg: -36564.33, ergebnisVorSteuern: 588479.89,
  steuernVomEinkommen: -147119.97, ergebnisNachSteuern: 441359.92, jahresueberschuss: 441359.92, employees: 48,
});

/** Müller Bau GmbH, 2023: a small company's filing, balance sheet only. */
const MUELLER_2023 = keyFigures('2023-12-31', {
  bilanzSumme: 4301772.05, anlageVermoegen: 1187350, sachanlagen: 1137350, finanzanlagen: 50000, beteiligungen: 50000,
  umlaufvermoegen: 3098022.05, vorraete: 388150, forderungen: 1842310.6, liquideMittel: 867561.45, aktiveRechnungsabgrenzung: 16400,
  eigenkapital: 1189552.48, nennKapital: 35000, kapitalruecklagen: 100000, gewinnruecklagen: 250000, bilanzGewinn: 804552.48,
  rueckstellungen: 412800, verbindlichkeiten: 2699419.57, verbindlichkeitenKurzfristig: 2012419.57,
});

const GRAZ_2024 = keyFigures('2024-12-31', {
  bilanzSumme: 162480.35, anlageVermoegen: 98200, sachanlagen: 98200, umlaufvermoegen: 64280.35, vorraete: 11840, liquideMittel: 38915.6,
  eigenkapital: -12650.8, nennKapital: 35000, bilanzGewinn: -47650.8, verbindlichkeiten: 168931.15, verbindlichkeitenKreditinstitute: 120000,
});

const KORNEUBURG_2024 = keyFigures('2024-12-31', {
  bilanzSumme: 3984120.5, umlaufvermoegen: 2911045.2, eigenkapital: 1402311.9, verbindlichkeiten: 2210408.6, umsatzerloese: 8120455,
  jahresueberschuss: 298340.12, employees: 41,
});

// --- Companies -----------------------------------------------------------------------------------

const muellerRow = {
  fnr: '30435h', name: 'Müller Bau GmbH', legalForm: GES, court: HG_WIEN, city: 'Wien', zipCode: '1100',
  isActive: true, isScheinunternehmen: false, hasEdikt: false, keyFigures: MUELLER_2024,
};

export const screenerPageExample = {
  data: [
    muellerRow,
    {
      fnr: '402287z', name: 'Korneuburger Werftareal Projektentwicklungs GmbH', legalForm: GES, court: LG_KORNEUBURG, city: 'Korneuburg',
      zipCode: '2100', isActive: true, isScheinunternehmen: false, hasEdikt: false, keyFigures: KORNEUBURG_2024,
    },
  ],
  pageNumber: 1, pageSize: 2, totalRecords: 1873, totalPages: 937,
};

export const screenerCountOnlyExample = { data: [], pageNumber: 1, pageSize: 10, totalRecords: 1873, totalPages: 188 };

export const countExample = { count: 1873 };

export const namesExample = {
  data: [
    { fnr: '30435h', name: 'Müller Bau GmbH', city: 'Wien', isActive: true },
    { fnr: '155021y', name: 'Müller Baustoffe Handels GmbH', city: 'Wiener Neustadt', isActive: true },
    { fnr: '98231h', name: 'Mueller Bauträger GmbH in Liqu.', city: 'Linz', isActive: false },
  ],
  pageNumber: 1, pageSize: 10, totalRecords: 3, totalPages: 1,
};

export const similarExample = {
  data: [
    { ...screenerPageExample.data[1]!, similarity: 0.914 },
    {
      fnr: '211904z', name: 'Steirische Hochbau GmbH', legalForm: GES, court: LG_GRAZ, city: 'Graz', zipCode: '8010', isActive: true,
      isScheinunternehmen: false, hasEdikt: true, keyFigures: GRAZ_2024, similarity: 0.702,
    },
  ],
  pageNumber: 1, pageSize: 2, totalRecords: 50, totalPages: 25,
};

export const resolveNamesRequestExample = {
  names: ['Müller Bau GmbH', 'Mueller Bau Gesellschaft m.b.H.', 'Korneuburger Werftareal Projektentwickl.', 'Huber & Gruber', 'Beispiel Firma XY'],
};

export const resolveNamesResponseExample = [
  {
    name: 'Müller Bau GmbH', fnr: '30435h', matchedName: 'Müller Bau GmbH', score: 1, match: 'exact',
    candidates: [{ fnr: '30435h', name: 'Müller Bau GmbH', score: 1 }, { fnr: '155021y', name: 'Müller Baustoffe Handels GmbH', score: 0.583 }],
  },
  {
    name: 'Mueller Bau Gesellschaft m.b.H.', fnr: '30435h', matchedName: 'Müller Bau GmbH', score: 1, match: 'exact',
    candidates: [{ fnr: '30435h', name: 'Müller Bau GmbH', score: 1 }],
  },
  {
    name: 'Korneuburger Werftareal Projektentwickl.', fnr: '402287z', matchedName: 'Korneuburger Werftareal Projektentwicklungs GmbH',
    score: 0.857, match: 'probable', candidates: [{ fnr: '402287z', name: 'Korneuburger Werftareal Projektentwicklungs GmbH', score: 0.857 }],
  },
  {
    name: 'Huber & Gruber', fnr: '45678z', matchedName: 'Huber & Gruber OG', score: 0.625, match: 'review',
    candidates: [{ fnr: '45678z', name: 'Huber & Gruber OG', score: 0.625 }, { fnr: '1001y', name: 'Huber Holz GmbH', score: 0.412 }],
  },
  { name: 'Beispiel Firma XY', fnr: null, matchedName: null, score: 0.214, match: 'none', candidates: [{ fnr: '512309x', name: 'Beispiel Handels GmbH', score: 0.214 }] },
];

const filing = (documentKey: string, sizeClass: string, format: string, pnlMethod: string | null, filedOn: string, figures: ReturnType<typeof keyFigures>) => {
  const { documentDate, ...values } = figures;
  return {
    documentKey, documentDate, fiscalYearStart: `${documentDate.slice(0, 4)}-01-01`, fiscalYearEnd: documentDate, currency: 'EUR', sizeClass,
    format, pnlMethod, kind: 'Jahresabschluss', filedOn, ...values,
  };
};

export const companyProfileExample = {
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
    { code: 'F 41.20-1', kurztitel: 'Wohnungs- und Siedlungsbau', title: 'Wohnungs- und Siedlungsbau', level: 5, isPrimary: true },
    { code: 'F 41.20-2', kurztitel: 'Adaptierungsarbeiten im Hochbau', title: 'Adaptierungsarbeiten im Hochbau', level: 5, isPrimary: false },
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
      type: 'person', personId: 'andrea-müller-1972-04-18', name: 'Andrea Müller', capital: 24500, paidIn: 24500, currency: 'EUR',
      since: '2011-03-01', until: null, isCurrent: true,
    },
    {
      type: 'company', fnr: '388410t', name: 'Murtal Beteiligungsverwaltung GmbH', capital: 10500, paidIn: 10500, currency: 'EUR',
      since: '2016-05-20', until: null, isCurrent: true,
    },
  ],
  registerEntries: [
    { vnr: '001', executedOn: '1988-06-01', court: HG_WIEN, az: '73 Fr 2841/88', applicationTexts: ['Neueintragung'] },
    { vnr: '004', executedOn: '2011-03-01', court: HG_WIEN, az: '73 Fr 1530/11 d', applicationTexts: ['Änderung der Firma', 'Wechsel in der Geschäftsführung'] },
    { vnr: '007', executedOn: '2024-05-13', court: HG_WIEN, az: '73 Fr 4417/24 p', applicationTexts: ['Änderung der Geschäftsanschrift'] },
  ],
  tradeLicenses: [
    { gisaZahl: '33618543', tradeKey: '290000', wording: 'Baumeister', effectiveFrom: '1988-06-01', endedOn: null, isDormant: false },
    { gisaZahl: '33618544', tradeKey: '540000', wording: 'Handelsgewerbe', effectiveFrom: '2002-09-16', endedOn: null, isDormant: false },
  ],
  openNotices: [
    {
      ediktId: '007015S0004125001', aktenzeichen: '41 S 125/25d', court: HG_WIEN, proceeding: { code: 'SVE', text: 'Sanierungsverfahren mit Eigenverwaltung' },
      firstPublishedOn: '2025-10-14', lastPublishedOn: '2025-11-03', link: { evidence: 'register-fn', confidence: 1 },
    },
  ],
  annualAccountDocuments: [
    {
      documentKey: '030435_0070202507812_000___000_30_41873215_XML', documentDate: '2025-07-28', balanceSheetDate: '2024-12-31',
      contentType: 'application/xml', filedOn: '2025-07-28', sizeClass: 'mittelgroß', sizeBytes: 48213,
    },
    {
      documentKey: '030435_0070202507812_000___000_30_41873216_PDF', documentDate: '2025-07-28', balanceSheetDate: '2024-12-31',
      contentType: 'application/pdf', filedOn: '2025-07-28', sizeClass: 'mittelgroß', sizeBytes: 412877,
    },
  ],
  lastCrawledAt: '2025-11-04T06:15:12.000Z',
};

// --- People and graph ----------------------------------------------------------------------------

const andreaFunctions = [
  {
    fnr: '30435h', companyName: 'Müller Bau GmbH', companyIsActive: true, functionCode: 'GF', functionText: GF, representation: EINZELVERTRETUNG,
    since: '2011-03-01', until: null, isCurrent: true,
  },
  {
    fnr: '388410t', companyName: 'Murtal Beteiligungsverwaltung GmbH', companyIsActive: true, functionCode: 'GF', functionText: GF,
    representation: GEMEINSAM, since: '2016-05-20', until: null, isCurrent: true,
  },
];

export const peoplePageExample = {
  data: [
    { personId: 'andrea-müller-1972-04-18', firstName: 'Andrea', lastName: 'Müller', birthDate: '1972-04-18', functions: andreaFunctions },
    {
      personId: 'josef-müller-1944-11-02', firstName: 'Josef', lastName: 'Müller', birthDate: '1944-11-02',
      functions: [{
        fnr: '30435h', companyName: 'Müller Bau GmbH', companyIsActive: true, functionCode: 'GF', functionText: GF,
        representation: EINZELVERTRETUNG, since: '1988-06-01', until: '2011-02-28', isCurrent: false,
      }],
    },
  ],
  pageNumber: 1, pageSize: 10, totalRecords: 2, totalPages: 1,
};

export const personExample = {
  personId: 'andrea-müller-1972-04-18', firstName: 'Andrea', lastName: 'Müller', titles: { before: 'Ing.', after: 'MSc' },
  birthDate: '1972-04-18', functions: andreaFunctions, hasOpenNotices: true,
};

export const peopleNamesExample = {
  data: [
    { personId: 'andrea-müller-1972-04-18', name: 'Andrea Müller', birthDate: '1972-04-18' },
    { personId: 'josef-müller-1944-11-02', name: 'Josef Müller', birthDate: '1944-11-02' },
    { personId: 'karin-müller-x', name: 'Karin Müller', birthDate: null },
  ],
  pageNumber: 1, pageSize: 10, totalRecords: 3, totalPages: 1,
};

export const graphExample = {
  nodes: [
    { id: 'company:30435h', type: 'company', label: 'Müller Bau GmbH', fnr: '30435h', isActive: true },
    { id: 'person:andrea-müller-1972-04-18', type: 'person', label: 'Andrea Müller', personId: 'andrea-müller-1972-04-18' },
    { id: 'person:thomas-berger-1985-09-30', type: 'person', label: 'Thomas Berger', personId: 'thomas-berger-1985-09-30' },
    { id: 'company:388410t', type: 'company', label: 'Murtal Beteiligungsverwaltung GmbH', fnr: '388410t', isActive: true },
    { id: 'organisation:5f1c0a9e2b7d4c31', type: 'organisation', label: 'Familie Müller Privatstiftung (Liechtenstein)' },
  ],
  edges: [
    {
      source: 'person:andrea-müller-1972-04-18', target: 'company:30435h', type: 'function', functionCode: 'GF', functionText: GF,
      representation: EINZELVERTRETUNG, since: '2011-03-01',
    },
    { source: 'person:andrea-müller-1972-04-18', target: 'company:30435h', type: 'holding', capital: 24500, paidIn: 24500, currency: 'EUR', since: '2011-03-01' },
    {
      source: 'person:thomas-berger-1985-09-30', target: 'company:30435h', type: 'function', functionCode: 'PR', functionText: PR,
      representation: GEMEINSAM, since: '2019-01-15',
    },
    { source: 'company:388410t', target: 'company:30435h', type: 'holding', capital: 10500, paidIn: 10500, currency: 'EUR', since: '2016-05-20' },
    { source: 'organisation:5f1c0a9e2b7d4c31', target: 'company:388410t', type: 'holding', capital: 35000, paidIn: 17500, currency: 'EUR', since: '2016-05-20' },
  ],
  truncated: false,
};

// --- Change feeds --------------------------------------------------------------------------------
// One id names one change everywhere: 4711803 is the same change in /businesses/changes, in
// /globalchanges and in the aggregated answer.

const businessChange = {
  id: 4711803, type: 'business', fnr: '30435h', recordedAt: '2025-11-04T06:15:12.418Z', action: 'updated',
  changedFields: ['addresses', 'registerEntries'], vnr: '007',
};
const businessCreated = {
  id: 4711815, type: 'business', fnr: '667215z', recordedAt: '2025-11-04T06:16:40.032Z', action: 'created',
  changedFields: [], vnr: '001',
};
const documentChange = {
  id: 4711809, type: 'document', fnr: '30435h', recordedAt: '2025-11-04T06:15:58.771Z', action: 'created',
  changedFields: [], documentKey: '030435_0070202507812_000___000_30_41873215_XML',
};
const documentUpdated = {
  id: 4711822, type: 'document', fnr: '402287z', recordedAt: '2025-11-04T06:17:03.905Z', action: 'updated',
  changedFields: ['sizeBytes', 'contentType'], documentKey: '402287_1190202504471_000___000_30_41880731_PDF',
};
const ediktChange = {
  id: 4711811, type: 'edikt', fnr: '30435h', recordedAt: '2025-11-04T06:16:02.120Z', action: 'created',
  changedFields: ['opened'], ediktId: '007015S0004125001',
};
const ediktUpdated = {
  id: 4711830, type: 'edikt', fnr: null, recordedAt: '2025-11-04T06:18:44.500Z', action: 'updated',
  changedFields: ['lastPublishedOn', 'blocks'], ediktId: '638015S0002025004',
};
const tradeChange = {
  id: 4711812, type: 'trade', fnr: '30435h', recordedAt: '2025-11-04T06:16:05.663Z', action: 'updated',
  changedFields: ['isDormant'], gisaZahl: '33618544',
};
const tradeDeleted = {
  id: 4711826, type: 'trade', fnr: null, recordedAt: '2025-11-04T06:17:51.210Z', action: 'deleted',
  changedFields: [], gisaZahl: '29400117',
};

const feedPage = (data: object[], totalRecords: number) => ({
  data, pageNumber: 1, pageSize: 100, totalRecords, totalPages: Math.min(1000, Math.ceil(totalRecords / 100)),
});

/** Per feed path: a first page of a poll with `sinceId=4711800`. */
export const changeFeedExamples: Record<string, object> = {
  '/businesses/changes': feedPage([businessChange, businessCreated], 2),
  '/documents/changes': feedPage([documentChange, documentUpdated], 2),
  '/edikte/changes': feedPage([ediktChange, ediktUpdated], 2),
  '/trades/changes': feedPage([tradeChange, tradeDeleted], 2),
  '/globalchanges': feedPage([businessChange, documentChange, ediktChange, tradeChange, businessCreated, documentUpdated, tradeDeleted, ediktUpdated], 8),
};

export const aggregatedChangesExample = {
  businessChanges: [businessChange, businessCreated],
  documentChanges: [documentChange, documentUpdated],
  ediktChanges: [ediktChange, ediktUpdated],
  globalChanges: [businessChange, documentChange, ediktChange, tradeChange, businessCreated, documentUpdated, tradeDeleted, ediktUpdated],
};

export const ediktChangeExample = {
  ...ediktChange,
  notice: {
    ediktId: '007015S0004125001', aktenzeichen: '41 S 125/25d', court: HG_WIEN,
    proceeding: { code: 'SVE', text: 'Sanierungsverfahren mit Eigenverwaltung' },
    debtor: { type: 'J', name: 'Müller Bau GmbH', fnr: '30435h', address: { street: 'Favoritenstraße 112/2/14', zipCode: '1100', city: 'Wien' } },
    openedOn: '2025-10-13', firstPublishedOn: '2025-10-14', lastPublishedOn: '2025-10-14', isOpen: true, deletedAt: null,
    blocks: [{ publishedOn: '2025-10-14', name: 'Eröffnung des Sanierungsverfahrens', text: 'Über das Vermögen der Schuldnerin wird das Sanierungsverfahren mit Eigenverwaltung eröffnet.', decidedOn: '2025-10-13' }],
    link: { evidence: 'register-fn', confidence: 1 },
  },
};

// --- Catalogues ----------------------------------------------------------------------------------

const page = (data: object[], totalRecords: number, pageSize = 10) => ({
  data, pageNumber: 1, pageSize, totalRecords, totalPages: Math.ceil(totalRecords / pageSize),
});

/** Per catalogue path: the first page of a typical search. */
export const catalogueExamples: Record<string, object> = {
  '/oenace': page([
    {
      code: 'F 41.20-1', level: 5, numericCode: '41201', title: 'Wohnungs- und Siedlungsbau', kurztitel: 'Wohnungs- und Siedlungsbau',
      titleEn: 'Construction of residential buildings', parentCode: 'F 41.20', section: 'F',
    },
    {
      code: 'F 41.20-2', level: 5, numericCode: '41202', title: 'Adaptierungsarbeiten im Hochbau', kurztitel: 'Adaptierungsarbeiten im Hochbau',
      titleEn: 'Renovation work of buildings', parentCode: 'F 41.20', section: 'F',
    },
    {
      code: 'F 41.20-9', level: 5, numericCode: '41209', title: 'Sonstiger Hochbau', kurztitel: 'Sonst. Hochbau',
      titleEn: 'Construction of other non-residential buildings', parentCode: 'F 41.20', section: 'F',
    },
  ], 3),
  '/legalforms': page([{ code: 'GES', text: 'Gesellschaft mit beschränkter Haftung', abbreviation: 'GmbH', elfCode: 'AXSB' }], 1),
  '/courts': page([
    { code: '007', text: 'Handelsgericht Wien', state: 'Wien' },
    { code: '119', text: 'Landesgericht Korneuburg', state: 'Niederösterreich' },
    { code: '129', text: 'Landesgericht Krems an der Donau', state: 'Niederösterreich' },
  ], 16, 3),
  '/assignmentfunctions': page([
    { code: 'GF', text: GF, category: 'representation' },
    { code: 'GS', text: 'GESELLSCHAFTER/IN', category: 'holding' },
    { code: 'PR', text: PR, category: 'representation' },
    { code: 'VM', text: 'VORSTANDSMITGLIED', category: 'representation' },
  ], 4),
  '/addresses/cities': page([
    {
      name: 'Graz', municipalityCode: '60101', district: 'Graz Stadt', state: 'Steiermark',
      zipCodes: ['8010', '8020', '8036', '8041', '8042', '8043', '8044', '8045', '8046', '8047', '8051', '8052', '8053', '8054', '8055', '8073', '8074'],
    },
  ], 1),
  '/addresses/zipcodes': page([{ zipCode: '8010', cities: ['Eggersdorf bei Graz', 'Graz', 'Kainbach bei Graz'], state: 'Steiermark' }], 1),
  '/addresses/locations': page([
    {
      zipCode: '1100', place: 'Wien, Favoriten', municipality: 'Gemeindebezirk Favoriten', municipalityCode: '910',
      district: 'Politischer Bezirk Wien (Stadt)', state: 'Wien', latitude: 48.1521, longitude: 16.3878,
    },
  ], 1),
};

// --- Documents -----------------------------------------------------------------------------------

export const documentXmlExample = `<?xml version="1.0" encoding="UTF-8"?>
<JAB xmlns="http://www.justiz.gv.at/JAB" VERSION="4.0">
  <FNR>030435h</FNR>
  <BILANZSTICHTAG>2024-12-31</BILANZSTICHTAG>
  <WAEHRUNG>EUR</WAEHRUNG>
  <BILANZ>
    <AKTIVA>4812350.17</AKTIVA>
    <ANLAGEVERMOEGEN>1204800.00</ANLAGEVERMOEGEN>
    <UMLAUFVERMOEGEN>3589150.17</UMLAUFVERMOEGEN>
  </BILANZ>
  <GUV>
    <UMSATZERLOESE>9874215.30</UMSATZERLOESE>
    <JAHRESUEBERSCHUSS_JAHRESFEHLBETRAG>441359.92</JAHRESUEBERSCHUSS_JAHRESFEHLBETRAG>
  </GUV>
</JAB>`;

/** The first bytes of a filed PDF (the answer is the whole file, binary). */
export const documentPdfExample = '%PDF-1.7\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n';
