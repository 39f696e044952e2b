import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FirmenbuchFaultError, parseSoapResponse } from '../../pipeline/firmenbuch/soapResponse.js';
import { SOAP_12_ENVELOPE_NS } from '../../pipeline/firmenbuch/soapEnvelope.js';
import { parseAuszug } from '../../pipeline/firmenbuch/extractParser.js';
import {
  fnrDigitsFromKey,
  parseSucheFirma,
  parseSucheUrkunde,
  parseUrkunde,
  parseVeraenderungenFirma,
  parseVeraenderungenUrkunde,
} from '../../pipeline/firmenbuch/registerParsers.js';
import type { CompanyExtract } from '../../schemas/firmenbuchRecords.js';

const FIXTURES = new URL('../../fixtures/firmenbuch/soap/', import.meta.url);
const read = (file: string): string => readFileSync(new URL(file, FIXTURES), 'utf8');
const fixture = (name: string): string => read(`${name}.xml`);

const PARSERS = {
  auszug: parseAuszug,
  sucheFirma: parseSucheFirma,
  sucheUrkunde: parseSucheUrkunde,
  urkunde: parseUrkunde,
  veraenderungenFirma: parseVeraenderungenFirma,
  veraenderungenUrkunde: parseVeraenderungenUrkunde,
} as const;

/** JSON view of a result: document bytes appear as their UTF-8 text (the fixtures hold XML documents). */
function golden(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => {
      const buffer = v as { type?: unknown; data?: unknown };
      return buffer && buffer.type === 'Buffer' && Array.isArray(buffer.data) ? { utf8: Buffer.from(buffer.data as number[]).toString('utf8') } : v;
    }),
  );
}

function goldenOf(xml: string): unknown {
  try {
    const { operation, soapVersion } = parseSoapResponse(xml);
    return { operation, soapVersion, result: golden(PARSERS[operation](xml)) };
  } catch (error) {
    if (!(error instanceof FirmenbuchFaultError)) throw error;
    const { name, soapVersion, code, subcode, kind, message, validationErrors } = error;
    return { fault: { name, soapVersion, code, subcode, kind, message, validationErrors } };
  }
}

const fixtureNames = readdirSync(fileURLToPath(FIXTURES))
  .filter((f) => f.endsWith('.xml'))
  .map((f) => f.replace(/\.xml$/, ''))
  .sort();

describe('golden fixtures', () => {
  it('covers every fixture with an expected output', () => {
    expect(fixtureNames.length).toBeGreaterThanOrEqual(14);
    for (const name of fixtureNames) expect(() => read(`${name}.expected.json`), name).not.toThrow();
  });

  it.each(fixtureNames)('%s matches %s.expected.json', (name) => {
    expect(goldenOf(fixture(name))).toEqual(JSON.parse(read(`${name}.expected.json`)));
  });

  it('mixes SOAP 1.1 and 1.2 and uses a different response prefix in each file', () => {
    const versions = new Set<string>();
    const prefixes = new Set<string>();
    const data = fixtureNames.filter((n) => !n.startsWith('fault-'));
    for (const name of data) {
      const xml = fixture(name);
      versions.add(parseSoapResponse(xml).soapVersion);
      prefixes.add(/<(ns\d+):[A-Z_2]+RESPONSE/.exec(xml)![1]!);
    }
    expect(versions).toEqual(new Set(['1.1', '1.2']));
    expect(prefixes.size).toBe(data.length);
  });
});

// ---------------------------------------------------------------------------------------------------

const gmbh = (): CompanyExtract => parseAuszug(fixture('auszug-gmbh-shareholders'));

describe('AUSZUG_V2: GmbH with shareholders', () => {
  it('joins the current multi-line name and keeps the former name with its VNR', () => {
    const extract = gmbh();
    expect(extract.name).toBe('Alpenblick Holzbau und Zimmerei Gesellschaft m.b.H.');
    expect(extract.nameLines).toEqual(['Alpenblick Holzbau und Zimmerei', 'Gesellschaft m.b.H.']);
    expect(extract.formerNames).toEqual([{ name: 'Alpenblick Holzbau GmbH', lines: ['Alpenblick Holzbau GmbH'], vnr: '001' }]);
  });

  it('reads both address shapes: current split address, historical STELLE one-liner', () => {
    const [current, former] = gmbh().addresses;
    expect(current).toMatchObject({ isCurrent: true, form: 'structured', streetLine: 'Landstraße 12/2/5', staircase: '2', door: '5', zipCode: '4020' });
    expect(former).toMatchObject({ isCurrent: false, form: 'line', streetLine: 'Hauptplatz 3', street: null, vnr: '001' });
  });

  it('reads seat, municipality code, legal form and capital as an exact decimal', () => {
    expect(gmbh()).toMatchObject({
      fnr: '123456d',
      fnrCheckLetterValid: true,
      seat: 'Linz',
      municipalityCode: '40101',
      legalForm: { code: 'GES', text: 'Gesellschaft mit beschränkter Haftung' },
      capital: { amount: '35000.00', currency: 'EUR' },
      court: { code: '458', text: 'Landesgericht Linz' },
      euid: 'ATBRA.123456-000',
      checksum: '7D3A0C51E2B94F16A8C0D2E4F6071829',
      status: 'active',
    });
  });

  it('reads functions with trimmed PNR, representation and current/former state', () => {
    const functions = gmbh().functions;
    expect(functions.map((f) => `${f.pnr}:${f.functionCode}:${f.isCurrent}`)).toEqual(['A:GF:true', 'E:GF:false', 'B:PR:true', 'A:GS:true', 'C:GS:true']);
    expect(functions[0]).toMatchObject({ representation: { code: 'E', text: 'Einzelvertretung' }, since: '2019-05-06', texts: ['vertritt seit 06.05.2019 selbständig'] });
    expect(functions[1]).toMatchObject({ since: '2015-01-20', until: '2019-05-06' });
    expect(functions[2]!.representation).toBeNull();
  });

  it('derives holdings from GS: one natural person, one corporate shareholder linked by PE_FNR', () => {
    const extract = gmbh();
    expect(extract.holdings).toEqual([
      expect.objectContaining({ holderPnr: 'A', holderKind: 'person', holderPersonId: 'eva-muster-1980-02-02', capital: '17500.00', paidIn: '17500.00' }),
      expect.objectContaining({ holderPnr: 'C', holderKind: 'company', holderFnr: '98765v', capital: '17500.00', paidIn: '8750.00', currency: 'EUR' }),
    ]);
    const corporate = extract.parties.find((p) => p.pnr === 'C');
    expect(corporate).toMatchObject({ kind: 'company', relatedFnr: '98765v', name: 'Berger Beteiligungs GmbH' });
  });

  it('reads persons with titles and a YYYYMMDD birth date', () => {
    expect(gmbh().parties[0]).toEqual({
      kind: 'person',
      pnr: 'A',
      vnr: '001',
      personId: 'eva-muster-1980-02-02',
      firstName: 'Eva',
      lastName: 'Muster',
      titles: { before: 'Mag.', after: 'MBA' },
      birthDate: '1980-02-02',
    });
  });
});

describe('AUSZUG_V2: other shapes', () => {
  it('OG: STELLE address, ISO dates, nil DATVON, no GS blocks -> no holdings', () => {
    const extract = parseAuszug(fixture('auszug-og-stelle'));
    expect(extract.fnr).toBe('45678z');
    expect(extract.name).toBe('Huber & Gruber OG');
    expect(extract.addresses).toEqual([expect.objectContaining({ form: 'line', streetLine: 'Griesgasse 10/3', city: 'Graz', isCurrent: true })]);
    expect(extract.capital).toBeNull();
    expect(extract.holdings).toEqual([]);
    expect(extract.functions.map((f) => f.since)).toEqual(['2019-05-01', null]);
    expect(extract.parties.map((p) => (p.kind === 'person' ? p.personId : p.kind))).toEqual(['stefan-huber-1980-02-02', 'jürgen-gruber-x']);
  });

  it('deleted company: status, deletion entry, functions no longer current', () => {
    const extract = parseAuszug(fixture('auszug-deleted'));
    expect(extract.fnr).toBe('203456a');
    expect(extract.status).toBe('deleted');
    expect(extract.deletion).toEqual({ vnr: '009', executedOn: '2025-03-05' });
    expect(extract.functions.every((f) => !f.isCurrent)).toBe(true);
    expect(extract.capital).toEqual({ amount: '36336.42', currency: 'EUR' });
  });

  it('legal-entity persons without FN are organisations; no VOLLZ -> no court', () => {
    const extract = parseAuszug(fixture('auszug-organisation-party'));
    expect(extract.parties.map((p) => p.kind)).toEqual(['person', 'organisation', 'organisation']);
    expect(extract.parties[1]).toMatchObject({
      name: 'Keller Weinhandel AG',
      foreignRegistration: { registerNumber: 'CHE-123.456.789', seat: 'Zürich', legalForm: { code: 'AG', text: 'Aktiengesellschaft' } },
    });
    expect(extract.parties[2]).toMatchObject({ name: 'Verein der Freunde des Seewinkler Weins', foreignRegistration: null });
    expect(extract.holdings.map((h) => [h.holderKind, h.holderFnr, h.holderPersonId])).toEqual([
      ['organisation', null, null],
      ['organisation', null, null],
    ]);
    expect(extract.registerEntries).toEqual([]);
    expect(extract.court).toBeNull();
    expect(extract.addresses[0]).toMatchObject({ deliveryNote: 'c/o Weingut Keller', streetLine: 'Untere Hauptstraße 41' });
  });

  it('normalises the three FNR spellings', () => {
    expect(parseAuszug(fixture('auszug-gmbh-shareholders')).fnr).toBe('123456d'); // "123456 d"
    expect(parseAuszug(fixture('auszug-og-stelle')).fnr).toBe('45678z'); // "045678z"
    expect(parseAuszug(fixture('auszug-deleted')).fnr).toBe('203456a'); // "203456a"
  });
});

// ---------------------------------------------------------------------------------------------------
// Inline extracts for edge cases the fixtures do not carry.

const A_NS = 'ns://firmenbuch.justiz.gv.at/Abfrage/v2/AuszugResponse';

function auszug(inner: string, fnr = '123456 d'): string {
  return (
    `<e:Envelope xmlns:e="${SOAP_12_ENVELOPE_NS}"><e:Body>` +
    `<a:AUSZUG_V2_RESPONSE xmlns:a="${A_NS}" a:FNR="${fnr}" a:STICHTAG="2025-03-03" a:UMFANG="Kurzinformation">` +
    `<a:FIRMA><a:FI_DKZ02 a:AUFRECHT="true" a:VNR="001"><a:BEZEICHNUNG>Test GmbH</a:BEZEICHNUNG></a:FI_DKZ02></a:FIRMA>${inner}` +
    '</a:AUSZUG_V2_RESPONSE></e:Body></e:Envelope>'
  );
}

const vollz = (vnr: string, az: string, text: string, hg = '') =>
  `<a:VOLLZ><a:VNR>${vnr}</a:VNR><a:VOLLZUGSDATUM>2024-01-0${Number(vnr)}</a:VOLLZUGSDATUM>${hg}<a:AZ>${az}</a:AZ><a:ANTRAGSTEXT>${text}</a:ANTRAGSTEXT></a:VOLLZ>`;

describe('AUSZUG_V2 edge cases', () => {
  it('takes the court from the latest VOLLZ HG, else from the AZ prefix', () => {
    const withHg = auszug(
      vollz('1', '007 061 Fr 10/24 a', 'Antrag auf Neueintragung', '<a:HG><a:CODE>007</a:CODE><a:TEXT>Handelsgericht Wien</a:TEXT></a:HG>') +
        vollz('2', '007 061 Fr 11/24 b', 'Antrag auf Änderung'),
    );
    expect(parseAuszug(withHg).court).toEqual({ code: '007', text: 'Handelsgericht Wien' });
    expect(parseAuszug(auszug(vollz('1', '929 045 Fr 10/24 a', 'Antrag auf Neueintragung'))).court).toEqual({ code: '929', text: null });
  });

  it('detects a deletion from the VOLLZ text alone, but not the deletion of a branch', () => {
    const deleted = parseAuszug(auszug(vollz('1', '007 061 Fr 1/24 a', 'Antrag auf Neueintragung') + vollz('2', '007 061 Fr 2/24 a', 'Amtswegige Löschung gemäß § 40 FBG')));
    expect(deleted.status).toBe('deleted');
    expect(deleted.deletion).toEqual({ vnr: '2', executedOn: '2024-01-02' });
    const branch = parseAuszug(auszug(vollz('1', '007 061 Fr 1/24 a', 'Antrag auf Löschung der Zweigniederlassung')));
    expect(branch.status).toBe('active');
  });

  it('keeps an FN with a wrong check letter, flagged and warned', () => {
    const extract = parseAuszug(auszug('', '123456 x'));
    expect(extract.fnr).toBe('123456x');
    expect(extract.fnrCheckLetterValid).toBe(false);
    expect(extract.warnings).toEqual([expect.stringContaining('check letter')]);
  });

  it('warns about unreadable amounts and dates instead of guessing', () => {
    const fun =
      '<a:FUN a:PNR="  A" a:FKEN="GS" a:FKENTEXT="GESELLSCHAFTER/IN"><a:FU_DKZ10 a:AUFRECHT="true" a:VNR="001">' +
      '<a:DATVON>01.13.2020</a:DATVON><a:KAPITAL>35.000,00</a:KAPITAL></a:FU_DKZ10></a:FUN>' +
      '<a:PER a:PNR="  A"><a:PE_DKZ02 a:AUFRECHT="true" a:VNR="001"><a:VORNAME>Eva</a:VORNAME><a:NACHNAME>Muster</a:NACHNAME></a:PE_DKZ02></a:PER>';
    const extract = parseAuszug(auszug(fun));
    expect(extract.holdings[0]).toMatchObject({ capital: null, since: null, holderPersonId: 'eva-muster-x' });
    expect(extract.warnings).toHaveLength(2);
  });

  it('a function whose DATBIS has passed is not current; a missing PER block is warned about', () => {
    const fun =
      '<a:FUN a:PNR="  Z" a:FKEN="PR" a:FKENTEXT="PROKURIST/IN"><a:FU_DKZ10 a:AUFRECHT="true" a:VNR="001">' +
      '<a:DATVON>2020-01-01</a:DATVON><a:DATBIS>2024-12-31</a:DATBIS></a:FU_DKZ10></a:FUN>';
    const extract = parseAuszug(auszug(fun));
    expect(extract.functions[0]).toMatchObject({ pnr: 'Z', isCurrent: false, until: '2024-12-31' });
    expect(extract.warnings).toEqual(['FUN Z/PR: no PER block for this PNR']);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('register operations', () => {
  it('SUCHEFIRMA: multi-line names and the three statuses', () => {
    const result = parseSucheFirma(fixture('suchefirma'));
    expect(result.hits.map((h) => [h.fnr, h.status])).toEqual([
      ['123456d', 'active'],
      ['412300z', 'deleted'],
      ['377001p', 'historical'],
      ['164220a', 'active'],
    ]);
    expect(result.hits[0]!.name).toBe('Alpenblick Holzbau und Zimmerei Gesellschaft m.b.H.');
    expect(result.request).toMatchObject({ name: 'Alpenblick*', exact: false, searchArea: 1, court: null });
    expect(result.capped).toBe(false);
  });

  it('SUCHEURKUNDE: XML and PDF annual accounts, a type 42 document, older entries without optional fields', () => {
    const { documents } = parseSucheUrkunde(fixture('sucheurkunde'));
    const annual = documents.filter((d) => d.documentType?.code === '48');
    expect(annual.map((d) => d.fileExtension)).toEqual(['pdf', 'xml', 'pdf']);
    expect(documents.find((d) => d.documentType?.code === '42')).toMatchObject({ documentDate: '2015-01-08', fnr: '123456d' });
    expect(annual[0]).toMatchObject({ balanceSheetDate: null, sizeClass: null, vnr: null, filedOn: null, remark: 'zum 31.12.2015', sizeBytes: 183422 });
    expect(annual[1]).toMatchObject({ balanceSheetDate: '2023-12-31', sizeClass: 'K', vnr: '006', filedOn: '2024-06-27', contentType: 'application/xml' });
  });

  it('SUCHEURKUNDE: without FNR the FN comes from the request when the KEY digits agree', () => {
    const ns = 'ns://firmenbuch.justiz.gv.at/Abfrage/SucheUrkundeResponse';
    const xml =
      `<e:Envelope xmlns:e="${SOAP_12_ENVELOPE_NS}"><e:Body><u:SUCHEURKUNDERESPONSE xmlns:u="${ns}" u:REQUEST_FNR="30435 h">` +
      '<u:ERGEBNIS><u:KEY>030435_8180500600437_000___000_00_275029_PDF</u:KEY><u:AZ>818 050 Fr 437/06 w</u:AZ>' +
      '<u:CONTENTTYPE>application/pdf</u:CONTENTTYPE><u:DATEIENDUNG>pdf</u:DATEIENDUNG></u:ERGEBNIS>' +
      '</u:SUCHEURKUNDERESPONSE></e:Body></e:Envelope>';
    expect(parseSucheUrkunde(xml).documents[0]).toMatchObject({ fnr: '30435h', fnrDigits: '30435', documentType: null, sizeBytes: null });
  });

  it('URKUNDE: metadata and decoded content', () => {
    const document = parseUrkunde(fixture('urkunde-xml'));
    expect(document.contentType).toBe('application/xml');
    expect(document.content?.toString('utf8')).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><UEBERMITTLUNG/);
    expect(document.metadata).toMatchObject({ fnr: '123456d', documentId: '38123456', balanceSheetDate: '2023-12-31', sizeClass: 'K', isPublic: true, pnr: null });
  });

  it('VERAENDERUNGENFIRMA: kinds and both detail shapes', () => {
    expect(parseVeraenderungenFirma(fixture('veraenderungenfirma')).changes.map((c) => [c.fnr, c.kind])).toEqual([
      ['601234v', 'Neueintragung'],
      ['123456d', 'Änderung'],
      ['203456a', 'Löschung'],
      ['71234g', 'Löschung'],
      ['599871p', 'Änderung'],
    ]);
    expect(parseVeraenderungenFirma(fixture('veraenderungenfirma-verschmelzung')).changes[0]!.details).toEqual([
      { type: 'transformation', takingOverFnr: '599871p', transferringFnr: '71234g' },
    ]);
    expect(parseVeraenderungenFirma(fixture('veraenderungenfirma-funktion')).changes[0]!.details).toEqual([
      { type: 'function', pnr: 'F', functionCode: 'GF' },
      { type: 'function', pnr: 'F', functionCode: 'GS' },
    ]);
  });

  it('VERAENDERUNGENFIRMA: transliterated kinds map, unknown ones are kept and warned', () => {
    const ns = 'ns://firmenbuch.justiz.gv.at/Abfrage/VeraenderungenFirmaResponse';
    const change = (kind: string) =>
      `<v:VERAENDERUNG><v:FNR>5 h</v:FNR><v:VNR>010</v:VNR><v:VOLLZUGSDATUM>2025-03-04</v:VOLLZUGSDATUM><v:ARTDERVERAENDERUNG>${kind}</v:ARTDERVERAENDERUNG></v:VERAENDERUNG>`;
    const xml = `<e:Envelope xmlns:e="${SOAP_12_ENVELOPE_NS}"><e:Body><v:VERAENDERUNGENFIRMARESPONSE xmlns:v="${ns}">${change('Aenderung')}${change('UMGRUENDUNG')}</v:VERAENDERUNGENFIRMARESPONSE></e:Body></e:Envelope>`;
    const result = parseVeraenderungenFirma(xml);
    expect(result.changes.map((c) => [c.kind, c.kindText])).toEqual([
      ['Änderung', 'Aenderung'],
      ['unknown', 'UMGRUENDUNG'],
    ]);
    expect(result.warnings).toEqual(['ARTDERVERAENDERUNG: unknown value "UMGRUENDUNG"']);
  });

  it('VERAENDERUNGENURKUNDE: FN digits from the KEY prefix only', () => {
    const { documents } = parseVeraenderungenUrkunde(fixture('veraenderungenurkunde'));
    expect(documents.map((d) => d.fnrDigits)).toEqual(['123456', '123456', '9999', '601234']);
    expect(documents[3]).toMatchObject({ documentType: { code: '42', text: 'Gesellschaftsvertrag' }, executedOn: '2025-03-04', fileExtension: 'pdf' });
    expect(fnrDigitsFromKey('004075_0070752624213_000___000_30_38759272_PDF')).toBe('4075');
    expect(fnrDigitsFromKey('no-key')).toBeNull();
  });
});
