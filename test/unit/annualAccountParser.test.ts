import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  AnnualAccountParseError,
  canonicalDecimal,
  parseAnnualAccount,
} from '../../pipeline/firmenbuch/annualAccountParser.js';
import type { ParsedAnnualAccount } from '../../schemas/firmenbuchRecords.js';
import { KEY_FIGURES, figureJsonKey } from '../../schemas/keyFigures.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/firmenbuch/filings/', import.meta.url));
const readFixture = (name: string): string => readFileSync(FIXTURES + name, 'utf8');
const CASES = readdirSync(FIXTURES).filter((f) => f.endsWith('.xml')).sort();

// --- inline filing builders (realistic envelopes, minimal bodies) ------------------------------------

const FO_NS = 'https://finanzonline.bmf.gv.at/bilanz';
const JAB4_NS = 'ns://justiz.gv.at/Bilanzierung/v4.0/Bilanz';

/** Legacy position with its own POSTENZEILE (`BETRAG` and, when given, `BETRAG_VJ`). */
const lp = (code: string, betrag: string | null, inner = '', vj: string | null = '1.00'): string =>
  `<${code}><POSTENZEILE>${betrag === null ? '' : `<BETRAG>${betrag}</BETRAG>`}${vj === null ? '' : `<BETRAG_VJ>${vj}</BETRAG_VJ>`}</POSTENZEILE>${inner}</${code}>`;

/** JAb 4.0 position with its own POSTENZEILE (`BETRAG_GJ` and `BETRAG_VJ`). */
const jp = (name: string, gj: string | null, inner = '', vj = '1.00'): string =>
  `<${name}><POSTENZEILE>${gj === null ? '' : `<BETRAG_GJ>${gj}</BETRAG_GJ>`}<BETRAG_VJ>${vj}</BETRAG_VJ></POSTENZEILE>${inner}</${name}>`;

function legacy(body: string, opts: { gj?: string; fnr?: string; allgAttrs?: string; name?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<UEBERMITTLUNG xmlns="${FO_NS}">
 <BILANZ_GLIEDERUNG ART="HGB">
  <ALLG_JUSTIZ ${opts.allgAttrs ?? 'EINORDNUNG="K" EINSTUFUNG="K"'}><VERS>03.32</VERS><ABSCHLUSSART>J</ABSCHLUSSART>
   <FIRMA><FNR>${opts.fnr ?? '030435h'}</FNR><F_NAME>${opts.name ?? '<Z>Test Handels GmbH</Z>'}</F_NAME></FIRMA>
   ${opts.gj ?? '<GJ><BEGINN>2023-01-01</BEGINN><ENDE>2023-12-31</ENDE><FORM>GES</FORM></GJ>'}
   <VOR_GJ><BEGINN>2022-01-01</BEGINN><ENDE>2022-12-31</ENDE><FORM>GES</FORM><WERT_TSD>n</WERT_TSD></VOR_GJ>
   <WAEHRUNG>EUR</WAEHRUNG>
  </ALLG_JUSTIZ>
  ${body}
 </BILANZ_GLIEDERUNG>
</UEBERMITTLUNG>`;
}

function jab4(body: string, opts: { einheit?: string; kind?: string; zeilen?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<UEBERMITTLUNG xmlns="${JAB4_NS}">
 <ALLGEMEINE_ANGABEN>
  <BILANZ_VERSION>04.00</BILANZ_VERSION>
  <JAHRESABSCHLUSS_KONZERNABSCHLUSS>${opts.kind ?? 'JAB'}</JAHRESABSCHLUSS_KONZERNABSCHLUSS>
  <FIRMENDATEN><FIRMENBUCHNUMMER>030536g</FIRMENBUCHNUMMER>
   <FIRMENWORTLAUT>${opts.zeilen ?? '<ZEILE SORTIERUNG="1">Test GmbH</ZEILE>'}</FIRMENWORTLAUT></FIRMENDATEN>
  <GESCHAEFTSJAHR><DATUM_DER_AUFSTELLUNG>2026-03-01</DATUM_DER_AUFSTELLUNG><BEGINN>2025-01-01</BEGINN><ENDE>2025-12-31</ENDE>
   <RECHTSFORM>GES</RECHTSFORM><GROESSENKLASSE>M</GROESSENKLASSE>
   <EINGABEDARSTELLUNG><DARSTELLUNG_EINGEREICHT><EINHEIT>${opts.einheit ?? 'E'}</EINHEIT><NACHKOMMASTELLEN>N</NACHKOMMASTELLEN></DARSTELLUNG_EINGEREICHT>
    <DARSTELLUNG_VORHERGEHEND><EINHEIT>E</EINHEIT><NACHKOMMASTELLEN>N</NACHKOMMASTELLEN></DARSTELLUNG_VORHERGEHEND></EINGABEDARSTELLUNG>
  </GESCHAEFTSJAHR>
  <BILANZ_WAEHRUNG>EUR</BILANZ_WAEHRUNG>
 </ALLGEMEINE_ANGABEN>
 ${body}
</UEBERMITTLUNG>`;
}

const figures = (xml: string): ParsedAnnualAccount['figures'] => parseAnnualAccount(xml).figures;

// --- golden corpus -------------------------------------------------------------------------------------

describe('parseAnnualAccount: golden fixtures', () => {
  it('has the corpus (at least the 11 documented cases)', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(11);
  });

  it.each(CASES)('%s matches its expected output', (file) => {
    const expected = JSON.parse(readFixture(file.replace(/\.xml$/, '.expected.json'))) as ParsedAnnualAccount;
    expect(Object.keys(expected.figures)).toEqual(KEY_FIGURES.map(figureJsonKey));
    expect(parseAnnualAccount(readFixture(file))).toEqual(expected);
  });

  it('is pure: parsing twice gives equal, independent results', () => {
    const xml = readFixture(CASES[0]!);
    const a = parseAnnualAccount(xml);
    const b = parseAnnualAccount(xml);
    expect(a).toEqual(b);
    expect(a.figures).not.toBe(b.figures);
    expect(a.warnings).not.toBe(b.warnings);
  });
});

// --- decimals and unit scaling ------------------------------------------------------------------------

describe('canonical decimals', () => {
  it.each([
    ['500000.00', 0, '500000'],
    ['1234.50', 0, '1234.5'],
    ['-12.340', 0, '-12.34'],
    ['-0.00', 0, '0'],
    ['0', 0, '0'],
    ['+7', 0, '7'],
    ['007.10', 0, '7.1'],
    ['.5', 0, '0.5'],
    ['1234.56', 3, '1234560'],
    ['0.01', 3, '10'],
    ['-0.4', 3, '-400'],
    ['1.5', 2, '150'],
    ['999999999999.99', 6, '999999999999990000'],
    ['123456789012.34', 0, '123456789012.34'],
  ])('%s x 10^%i -> %s', (raw, pow10, expected) => {
    expect(canonicalDecimal(raw, pow10)).toBe(expected);
  });

  it.each(['', '-', '.', '1e3', '1,5', '1.234,56', 'abc', '12 34', '--1'])('rejects %j', (raw) => {
    expect(canonicalDecimal(raw)).toBeNull();
  });
});

describe('unit scaling', () => {
  it('scales JAb 4.0 TE exactly (1234.56 TE -> 1234560)', () => {
    const f = figures(jab4(`<BILANZ>${jp('AKTIVA', '1234.56')}${jp('PASSIVA', '1234.56')}</BILANZ>`, { einheit: 'TE' }));
    expect(f.bilanzSumme).toBe('1234560');
  });

  it.each([
    ['E', 1, '1234.56'],
    ['HE', 100, '123456'],
    ['TE', 1000, '1234560'],
    ['ZTE', 10000, '12345600'],
    ['HTE', 100000, '123456000'],
    ['ME', 1000000, '1234560000'],
  ])('EINHEIT %s: factor %i, 1234.56 -> %s', (einheit, factor, expected) => {
    const r = parseAnnualAccount(jab4(`<BILANZ>${jp('AKTIVA', '1234.56')}</BILANZ>`, { einheit }));
    expect(r.unit).toBe(einheit);
    expect(r.unitFactor).toBe(factor);
    expect(r.figures.bilanzSumme).toBe(expected);
  });

  it('beyond float precision stays exact (ME)', () => {
    const f = figures(jab4(`<BILANZ>${jp('AKTIVA', '999999999999.99')}</BILANZ>`, { einheit: 'ME' }));
    expect(f.bilanzSumme).toBe('999999999999990000');
  });

  it('legacy WERT_TSD=j in GJ means thousands; VOR_GJ alone does not', () => {
    const body = `<HGB_Form_2>${lp('HGB_224_2', '48215.3')}</HGB_Form_2>`;
    const tsd = parseAnnualAccount(
      legacy(body, { gj: '<GJ><BEGINN>2023-01-01</BEGINN><ENDE>2023-12-31</ENDE><FORM>GES</FORM><WERT_TSD>j</WERT_TSD></GJ>' }),
    );
    expect(tsd.unit).toBe('TSD');
    expect(tsd.unitFactor).toBe(1000);
    expect(tsd.figures.bilanzSumme).toBe('48215300');

    // The fixture builder's VOR_GJ says n; a VOR_GJ with j must not scale the current year either.
    const xml = legacy(body).replace('<WERT_TSD>n</WERT_TSD>', '<WERT_TSD>j</WERT_TSD>');
    const euro = parseAnnualAccount(xml);
    expect(euro.unit).toBe('E');
    expect(euro.figures.bilanzSumme).toBe('48215.3');
  });

  it('employees are a headcount and never unit-scaled', () => {
    const xml = jab4(
      `<ANLAGE1_AUSZUG_AUS_DER_BILANZ>${jp('AKTIVA', '10')}</ANLAGE1_AUSZUG_AUS_DER_BILANZ>
       <ANLAGE2_OFFENZULEGENDER_ANHANG><DURCHSCHNITTLICHE_ANZAHL_ARBEITNEHMER><ANZAHL>12.50</ANZAHL></DURCHSCHNITTLICHE_ANZAHL_ARBEITNEHMER></ANLAGE2_OFFENZULEGENDER_ANHANG>`,
      { einheit: 'TE', kind: 'JAB-ANLAGE12' },
    );
    const f = figures(xml);
    expect(f.bilanzSumme).toBe('10000');
    expect(f.employees).toBe('12.5');
  });

  it('warns on an unknown unit and keeps the amounts unscaled', () => {
    const r = parseAnnualAccount(jab4(`<BILANZ>${jp('AKTIVA', '5')}</BILANZ>`, { einheit: 'XE' }));
    expect(r.unit).toBe('XE');
    expect(r.unitFactor).toBe(1);
    expect(r.figures.bilanzSumme).toBe('5');
    expect(r.warnings.some((w) => w.includes('unknown unit'))).toBe(true);
  });
});

// --- which column, which element ----------------------------------------------------------------------

describe('current-year column only', () => {
  it('legacy: BETRAG is read, BETRAG_VJ never (not even as a fallback)', () => {
    const f = figures(
      legacy(`<HGB_Form_2>${lp('HGB_224_2', '100.00', '', '90.00')}${lp('HGB_224_3', null, '', '90.00')}</HGB_Form_2>`),
    );
    expect(f.bilanzSumme).toBe('100');
    const r = parseAnnualAccount(legacy(`<HGB_Form_2>${lp('HGB_224_2', null, '', '90.00')}</HGB_Form_2>`));
    expect(r.figures.bilanzSumme).toBeNull();
    expect(r.hasPositions).toBe(false);
  });

  it('JAb 4.0: BETRAG_GJ is read, BETRAG_VJ never', () => {
    expect(figures(jab4(`<BILANZ>${jp('AKTIVA', '7.00', '', '9.00')}</BILANZ>`)).bilanzSumme).toBe('7');
    expect(figures(jab4(`<BILANZ>${jp('AKTIVA', null, '', '9.00')}</BILANZ>`)).bilanzSumme).toBeNull();
  });

  it('legacy ignores a BETRAG_GJ column, the firmenbuch_2025 variant reads it (also directly under the position)', () => {
    const body = `<HGB_Form_2><HGB_224_2><BETRAG_GJ>2000.00</BETRAG_GJ></HGB_224_2>
      <HGB_224_3><BETRAG_GJ>2000.00</BETRAG_GJ><HGB_224_3_A><POSTENZEILE><BETRAG_GJ>900.00</BETRAG_GJ><BETRAG_VJ>800.00</BETRAG_VJ></POSTENZEILE></HGB_224_3_A></HGB_224_3></HGB_Form_2>`;
    const fb = parseAnnualAccount(legacy(body, { gj: '<GESCHAEFTSJAHR><BEGINN>2025-01-01</BEGINN><ENDE>2025-12-31</ENDE></GESCHAEFTSJAHR>' }));
    expect(fb.format).toBe('legacy');
    expect(fb.documentDate).toBe('2025-12-31');
    expect(fb.figures.bilanzSumme).toBe('2000');
    expect(fb.figures.eigenkapital).toBe('900');
    expect(fb.warnings).toEqual([]);
    const classic = parseAnnualAccount(legacy(body));
    expect(classic.figures.bilanzSumme).toBeNull();
    expect(classic.hasPositions).toBe(false);
  });
});

describe('a position value is its own POSTENZEILE', () => {
  it('a container without its own line stays null even if a child carries one', () => {
    const f = figures(
      legacy(`<HGB_Form_2><HGB_224_3>${lp('HGB_224_3_A', null, lp('HGB_229_1_A_I', '35000.00', lp('HGB_229_1_A_I_a', '17500.00')), null)}</HGB_224_3></HGB_Form_2>`),
    );
    expect(f.eigenkapital).toBeNull();
    expect(f.nennKapital).toBe('35000');
  });

  it('a parent reads its own line, not the first descendant line', () => {
    const f = figures(
      legacy(`<HGB_Form_2><HGB_224_3>${lp('HGB_224_3_A', '-61418.37', lp('HGB_229_1_A_I', '35000.00') + lp('HGB_224_3_A_IV', '-96418.37'))}</HGB_224_3></HGB_Form_2>`),
    );
    expect(f.eigenkapital).toBe('-61418.37');
    expect(f.bilanzGewinn).toBe('-96418.37');
  });

  it('VerbindlichkeitenKurzfristig (JAb 4.0) is only the DAVON directly under VERBINDLICHKEITEN', () => {
    const sub = jp('VERBINDLICHKEITEN_GEGENUEBER_KREDITINSTITUTEN', '500', jp('DAVON_RESTLAUFZEIT_BIS_ZU_EINEM_JAHR', '120'));
    const ausleihung = jp('FINANZANLAGEN', '50', jp('SONSTIGE_AUSLEIHUNGEN', '50', jp('DAVON_RESTLAUFZEIT_BIS_ZU_EINEM_JAHR', '10')));
    const withoutDirect = jab4(`<BILANZ>${jp('AKTIVA', '900', jp('ANLAGEVERMOEGEN', '50', ausleihung))}${jp('PASSIVA', '900', jp('VERBINDLICHKEITEN', '800', sub))}</BILANZ>`);
    const f1 = figures(withoutDirect);
    expect(f1.verbindlichkeiten).toBe('800');
    expect(f1.verbindlichkeitenKreditinstitute).toBe('500');
    expect(f1.verbindlichkeitenKurzfristig).toBeNull();

    const direct = jp('DAVON_RESTLAUFZEIT_BIS_ZU_EINEM_JAHR', '420');
    const withDirect = withoutDirect.replace(sub, sub + direct);
    expect(figures(withDirect).verbindlichkeitenKurzfristig).toBe('420');
  });

  it('legacy reads HGB_224_3_D_HGB_225a, not the per-line HGB_224_3_D_n_HGB_225a', () => {
    const d = lp('HGB_224_3_D', '800', lp('HGB_224_3_D_2', '500', lp('HGB_224_3_D_2_HGB_225a', '120')));
    expect(figures(legacy(`<BILANZ><HGB_224_3>${d}</HGB_224_3></BILANZ>`)).verbindlichkeitenKurzfristig).toBeNull();
    const withTotal = lp('HGB_224_3_D', '800', lp('HGB_224_3_D_2', '500', lp('HGB_224_3_D_2_HGB_225a', '120')) + lp('HGB_224_3_D_HGB_225a', '420'));
    expect(figures(legacy(`<BILANZ><HGB_224_3>${withTotal}</HGB_224_3></BILANZ>`)).verbindlichkeitenKurzfristig).toBe('420');
  });

  it('JAb 4.0 schedules (no BETRAG_GJ) and Anlage-2 notes never supply a figure', () => {
    const f = figures(
      jab4(
        `<ANLAGE1_AUSZUG_AUS_DER_BILANZ>${jp('AKTIVA', '10')}</ANLAGE1_AUSZUG_AUS_DER_BILANZ>
         <ANLAGE2_OFFENZULEGENDER_ANHANG><AKTIVE_LATENTE_STEUERN><TEXT>keine</TEXT><UNVERRECHNETE_BELASTUNGEN><BETRAG>5.00</BETRAG></UNVERRECHNETE_BELASTUNGEN></AKTIVE_LATENTE_STEUERN></ANLAGE2_OFFENZULEGENDER_ANHANG>
         <ANLAGENSPIEGEL><ANLAGEVERMOEGEN><POSTENZEILE><STAND_01_01>100</STAND_01_01><BUCHWERT_31_12>80</BUCHWERT_31_12></POSTENZEILE></ANLAGEVERMOEGEN></ANLAGENSPIEGEL>`,
        { kind: 'JAB-ANLAGE12' },
      ),
    );
    expect(f.aktiveLatenteSteuern).toBeNull();
    expect(f.anlageVermoegen).toBeNull();
  });

  it('matches by local name, never by prefix', () => {
    const plain = legacy(`<HGB_Form_2>${lp('HGB_224_2', '100')}</HGB_Form_2><HGB_Form_3><HGB_Form_3_16><ANZAHL>3</ANZAHL></HGB_Form_3_16></HGB_Form_3>`);
    const prefixed = plain
      .replace(`xmlns="${FO_NS}"`, `xmlns:fo="${FO_NS}"`)
      .replace(/<(\/?)([A-Z][A-Za-z0-9_]*)/g, '<$1fo:$2');
    expect(prefixed).toContain('<fo:HGB_224_2>');
    expect(parseAnnualAccount(prefixed)).toEqual(parseAnnualAccount(plain));
  });
});

// --- null semantics, first present -----------------------------------------------------------------------

describe('null means not reported', () => {
  it('0.00 is "0", an absent or blank position is null', () => {
    const f = figures(
      legacy(`<HGB_Form_2>${lp('HGB_224_2', '0.00', lp('HGB_224_2_A', '', lp('HGB_224_2_A_I', '0')))}</HGB_Form_2>`),
    );
    expect(f.bilanzSumme).toBe('0');
    expect(f.anlageVermoegen).toBeNull();
    expect(f.immaterielleVermoegensgegenstaende).toBe('0');
    expect(f.sachanlagen).toBeNull();
    expect(f.umsatzerloese).toBeNull();
  });

  it('no P&L: all 19 P&L figures null and pnlMethod null', () => {
    const r = parseAnnualAccount(readFixture('01-legacy-small-gmbh-anlage1.xml'));
    const guv = KEY_FIGURES.filter((k) => k.group === 'guv').map(figureJsonKey);
    expect(guv).toHaveLength(19);
    for (const key of guv) expect(r.figures[key]).toBeNull();
    expect(r.pnlMethod).toBeNull();
  });

  it('a filed headcount of 0 is "0", a missing one null', () => {
    const zero = legacy(`<HGB_Form_2>${lp('HGB_224_2', '1')}</HGB_Form_2><HGB_Form_3><HGB_Form_3_16><ANZAHL>0</ANZAHL></HGB_Form_3_16></HGB_Form_3>`);
    expect(figures(zero).employees).toBe('0');
    expect(figures(legacy(`<HGB_Form_2>${lp('HGB_224_2', '1')}</HGB_Form_2>`)).employees).toBeNull();
  });

  it('an unparseable amount is null plus a warning', () => {
    const r = parseAnnualAccount(legacy(`<HGB_Form_2>${lp('HGB_224_2', '1.234,56')}</HGB_Form_2>`));
    expect(r.figures.bilanzSumme).toBeNull();
    expect(r.warnings).toContain('unparseable amount "1.234,56" in HGB_224_2');
  });
});

describe('NennKapital: first present', () => {
  it('legacy AG: HGB_229_1_A_II when there is no HGB_229_1_A_I', () => {
    expect(figures(legacy(`<BILANZ><HGB_224_3>${lp('HGB_224_3_A', '1', lp('HGB_229_1_A_II', '70000.00'))}</HGB_224_3></BILANZ>`)).nennKapital).toBe('70000');
  });

  it('legacy: the first code in list order wins, not the first in the document', () => {
    const a = lp('XXX_224_3_A_I_Y', '150000.00') + lp('HGB_229_1_A_I', '35000.00');
    expect(figures(legacy(`<BILANZ><HGB_224_3>${lp('HGB_224_3_A', '1', a)}</HGB_224_3></BILANZ>`)).nennKapital).toBe('35000');
  });

  it('JAb 4.0: a position without an amount is not "present"', () => {
    const ek = jp('EINGEFORDERTES_KOMPLEMENTAERKAPITAL', null) + jp('KOMMANDITKAPITAL', '150000.00');
    const xml = jab4(`<ANLAGE3_AUSZUG_AUS_DER_BILANZ>${jp('PASSIVA', '1', jp('EIGENKAPITAL', '1', ek))}</ANLAGE3_AUSZUG_AUS_DER_BILANZ>`, { kind: 'JAB-ANLAGE32' });
    expect(figures(xml).nennKapital).toBe('150000');
  });

  it('JAb 4.0 KG: a filed 0.00 Komplementaerkapital is present and wins (see fixture 12)', () => {
    expect(parseAnnualAccount(readFixture('12-jab4-anlage32-kg-first-present-nennkapital.xml')).figures.nennKapital).toBe('0');
  });
});

// --- metadata and checks ------------------------------------------------------------------------------------

describe('metadata', () => {
  it('canonicalises FNR spellings and flags a wrong check letter', () => {
    expect(parseAnnualAccount(legacy('', { fnr: '030435h' })).fnr).toBe('30435h');
    expect(parseAnnualAccount(legacy('', { fnr: '30435 h' })).fnr).toBe('30435h');
    const bad = parseAnnualAccount(legacy('', { fnr: '030435x' }));
    expect(bad.fnr).toBe('30435x');
    expect(bad.warnings).toContain('FNR 30435x has an invalid check letter');
    const unreadable = parseAnnualAccount(legacy('', { fnr: 'unbekannt' }));
    expect(unreadable.fnr).toBeNull();
  });

  it('glues register name lines (word split across lines vs. "Bau- und")', () => {
    expect(parseAnnualAccount(legacy('', { name: '<Z>Waren-</Z><Z>handel GmbH</Z>' })).companyName).toBe('Warenhandel GmbH');
    expect(parseAnnualAccount(legacy('', { name: '<Z>WWN Westerthaler Warenhandels- und</Z><Z>Nagelstudio GmbH</Z>' })).companyName).toBe(
      'WWN Westerthaler Warenhandels- und Nagelstudio GmbH',
    );
    const zeilen = '<ZEILE SORTIERUNG="2">GmbH &amp; Co KG</ZEILE><ZEILE SORTIERUNG="1">Muster Bau- und</ZEILE>';
    expect(parseAnnualAccount(jab4('', { zeilen })).companyName).toBe('Muster Bau- und GmbH & Co KG');
  });

  it('prefers EINORDNUNG and warns when EINSTUFUNG differs', () => {
    const r = parseAnnualAccount(legacy('', { allgAttrs: 'EINORDNUNG="M" EINSTUFUNG="K"' }));
    expect(r.sizeClass).toBe('M');
    expect(r.warnings.some((w) => w.includes('EINSTUFUNG=K'))).toBe(true);
  });

  it('derives GKV/UKV from the codes when a legacy P&L has no wrapper', () => {
    const r = parseAnnualAccount(legacy(`<BILANZ>${lp('HGB_224_2', '1')}</BILANZ>${lp('HGB_231_3_1', '5000.00')}${lp('HGB_231_3_21', '120.00')}`));
    expect(r.pnlMethod).toBe('UKV');
    expect(r.figures.umsatzerloese).toBe('5000');
    expect(r.figures.jahresueberschuss).toBe('120');
  });

  it('warns when BilanzSumme differs from total Passiva', () => {
    const r = parseAnnualAccount(jab4(`<BILANZ>${jp('AKTIVA', '84213')}${jp('PASSIVA', '84214')}</BILANZ>`, { einheit: 'TE' }));
    expect(r.figures.bilanzSumme).toBe('84213000');
    expect(r.warnings).toContain('BilanzSumme 84213000 != total Passiva 84214000');
  });

  it('a JAb 4.0 filing without any amount is flagged', () => {
    const r = parseAnnualAccount(jab4(''));
    expect(r.hasPositions).toBe(false);
    expect(r.warnings).toContain('JAb 4.0 filing without any position amount');
  });
});

// --- unrecoverable input ------------------------------------------------------------------------------------

describe('AnnualAccountParseError', () => {
  const rejects = (xml: string): AnnualAccountParseError => {
    try {
      parseAnnualAccount(xml);
    } catch (err) {
      expect(err).toBeInstanceOf(AnnualAccountParseError);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).name).toBe('AnnualAccountParseError');
      return err as AnnualAccountParseError;
    }
    throw new Error('expected AnnualAccountParseError');
  };

  it('rejects the truncated fixture', () => {
    expect(rejects(readFixture('malformed/truncated.xml')).message).toMatch(/invalid XML/);
  });

  it.each([
    ['empty input', ''],
    ['whitespace', '  \n '],
    ['plain text', 'Jahresabschluss 2023'],
    ['a PDF', '%PDF-1.7\n1 0 obj'],
    ['mismatched tags', `<UEBERMITTLUNG xmlns="${FO_NS}"><BILANZ_GLIEDERUNG></UEBERMITTLUNG>`],
    ['two roots', '<UEBERMITTLUNG/><UEBERMITTLUNG/>'],
    ['an unknown root', '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body/></soap:Envelope>'],
    ['an UEBERMITTLUNG of another kind', '<UEBERMITTLUNG><ANTRAG><X>1</X></ANTRAG></UEBERMITTLUNG>'],
  ])('rejects %s', (_label, xml) => {
    rejects(xml);
  });

  it('accepts a leading byte-order mark', () => {
    expect(parseAnnualAccount('\uFEFF' + readFixture('08-legacy-skeleton-no-positions.xml')).fnr).toBe('46012s');
  });
});
