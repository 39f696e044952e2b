// The JAb 4.0 filing writer: named positions, the P&L (GUV_GKV) nested in its subtotals, and the
// fixed-asset schedule (ANLAGENSPIEGEL) apart from the balance sheet.
import { createHash } from 'node:crypto';
import { escapeXml } from '../../soapEnvelope.js';
import { amount, money, type YearAccounts } from './annualAccounts.js';
import type { FilingSpec } from './filing.js';
import { fnrPadded } from './registerKeys.js';

interface Jab4Node {
  tag: string;
  key: string;
  children?: Jab4Node[];
  davon?: boolean;
}

const j4 = (tag: string, key: string, children?: Jab4Node[], davon?: boolean): Jab4Node => ({ tag, key, children, davon });

function jab4Balance(legalForm: 'GES' | 'AG'): Jab4Node[] {
  const nominal = legalForm === 'AG'
    ? j4('EINGEFORDERTES_GRUNDKAPITAL', 'NENN', [j4('GRUNDKAPITAL', 'NENN'), j4('DAVON_EINGEZAHLT', 'NENN', undefined, true)])
    : j4('EINGEFORDERTES_STAMMKAPITAL', 'NENN', [j4('STAMMKAPITAL', 'NENN'), j4('DAVON_EINGEZAHLT', 'NENN', undefined, true)]);
  return [
    j4('AKTIVA', 'AKT', [
      j4('ANLAGEVERMOEGEN', 'AV', [
        j4('IMMATERIELLE_VERMOEGENSGEGENSTAENDE', 'IMM', [
          j4('KONZESSIONEN_GEWERBLICHE_SCHUTZRECHTE_UND_LIZENZEN', 'IMM1'), j4('GESCHAEFTS_FIRMENWERT', 'IMM2'),
        ]),
        j4('SACHANLAGEN', 'SACH', [
          j4('GRUNDSTUECKE_GRUNDSTUECKSGLEICHE_RECHTE_UND_BAUTEN', 'SACH1'), j4('TECHNISCHE_ANLAGEN_UND_MASCHINEN', 'SACH2'),
          j4('ANDERE_ANLAGEN_BETRIEBS_UND_GESCHAEFTSAUSSTATTUNG', 'SACH3'), j4('GELEISTETE_ANZAHLUNGEN_UND_ANLAGEN_IM_BAU', 'SACH4'),
        ]),
        j4('FINANZANLAGEN', 'FIN', [
          j4('ANTEILE_AN_VERBUNDENEN_UNTERNEHMEN', 'FIN1'), j4('BETEILIGUNGEN', 'FIN3'), j4('WERTPAPIERE_WERTRECHTE_DES_ANLAGEVERMOEGENS', 'FIN5'),
        ]),
      ]),
      j4('UMLAUFVERMOEGEN', 'UV', [
        j4('VORRAETE', 'VOR', [j4('ROH_HILFS_UND_BETRIEBSSTOFFE', 'VOR1'), j4('UNFERTIGE_ERZEUGNISSE', 'VOR2'), j4('FERTIGE_ERZEUGNISSE_UND_WAREN', 'VOR3')]),
        j4('FORDERUNGEN_UND_SONSTIGE_VERMOEGENSGEGENSTAENDE', 'FORD', [
          j4('FORDERUNGEN_AUS_LIEFERUNGEN_UND_LEISTUNGEN', 'FORD1'), j4('FORDERUNGEN_GEGENUEBER_VERBUNDENEN_UNTERNEHMEN', 'FORD2'),
          j4('SONSTIGE_FORDERUNGEN_UND_VERMOEGENSGEGENSTAENDE', 'FORD4'),
        ]),
        j4('WERTPAPIERE_UND_ANTEILE', 'WP'),
        j4('KASSENBESTAND_SCHECKS_GUTHABEN_BEI_KREDITINSTITUTEN', 'KASSE'),
      ]),
      j4('AKTIVA_RECHNUNGSABGRENZUNGSPOSTEN', 'ARA'),
      j4('AKTIVE_LATENTE_STEUERN', 'ALS'),
    ]),
    j4('PASSIVA', 'PAS', [
      j4('EIGENKAPITAL', 'EK', [
        nominal,
        j4('KAPITALRUECKLAGEN', 'KRL', [j4('GEBUNDENE', 'KRL')]),
        j4('GEWINNRUECKLAGEN', 'GRL', [j4('GESETZLICHE_RUECKLAGE', 'GRL1'), j4('ANDERE_RUECKLAGEN_FREIE_RUECKLAGEN', 'GRL3')]),
        j4('BILANZGEWINN_BILANZVERLUST', 'BG', [j4('DAVON_GEWINNVORTRAG_VERLUSTVORTRAG', 'BG_GV', undefined, true)]),
      ]),
      j4('INVESTITIONSZUSCHUESSE', 'INV'),
      j4('RUECKSTELLUNGEN', 'RST', [
        j4('RUECKSTELLUNGEN_FUER_ABFERTIGUNGEN', 'RST1'), j4('STEUERRUECKSTELLUNGEN', 'RST3'), j4('SONSTIGE_RUECKSTELLUNGEN', 'RST4'),
      ]),
      j4('VERBINDLICHKEITEN', 'VBK', [
        j4('DAVON_RESTLAUFZEIT_BIS_ZU_EINEM_JAHR', 'VBK_KURZ', undefined, true),
        j4('DAVON_RESTLAUFZEIT_VON_MEHR_ALS_EINEM_JAHR', 'VBK_LANG', undefined, true),
        j4('VERBINDLICHKEITEN_GEGENUEBER_KREDITINSTITUTEN', 'VBK2', [j4('DAVON_RESTLAUFZEIT_BIS_ZU_EINEM_JAHR', 'VBK2_KURZ', undefined, true)]),
        j4('ERHALTENE_ANZAHLUNGEN_AUF_BESTELLUNGEN', 'VBK3'),
        j4('VERBINDLICHKEITEN_AUS_LIEFERUNGEN_UND_LEISTUNGEN', 'VBK4'),
        j4('SONSTIGE_VERBINDLICHKEITEN', 'VBK8'),
      ]),
      j4('PASSIVA_RECHNUNGSABGRENZUNGSPOSTEN', 'PRA'),
    ]),
  ];
}

/** GUV_GKV nests the lines inside their subtotals, down from the balance-sheet result. */
const JAB4_PNL: Jab4Node = j4('BILANZ_GEWINN_VERLUST', 'BG', [
  j4('JAHRESUEBERSCHUSS_JAHRESFEHLBETRAG', 'U22', [
    j4('ERGEBNIS_NACH_STEUERN', 'U30', [
      j4('ERGEBNIS_VOR_STEUERN', 'U17', [
        j4('ZWISCHENSUMME_BETRIEBSERFOLG', 'U9', [
          j4('UMSATZERLOESE', 'U1'),
          j4('VERAENDERUNG_DES_BESTANDS_AN_ERZEUGNISSEN_UND_LEISTUNGEN', 'U2'),
          j4('ANDERE_AKTIVIERTE_EIGENLEISTUNGEN', 'U3'),
          j4('SONSTIGE_BETRIEBLICHE_ERTRAEGE_ZU_UMSATZERLOESE', 'U4', [
            j4('ERTRAEGE_AUS_ABGANG_UND_ZUSCHREIBUNG_ZUM_ANLAGEVERMOEGEN', 'U4a'),
            j4('ERTRAEGE_AUS_AUFLOESUNG_VON_RUECKSTELLUNGEN', 'U4b'),
            j4('UEBRIGE', 'U4c'),
          ]),
          j4('AUFWENDUNGEN_FUER_HERSTELLUNGSLEISTUNGEN', 'U5', [j4('MATERIALAUFWAND', 'U5a'), j4('AUFWENDUNGEN_FUER_BEZOGENE_LEISTUNGEN', 'U5b')]),
          j4('PERSONALAUFWAND', 'U6', [j4('LOEHNE_UND_GEHAELTER', 'U6a'), j4('SOZIALE_AUFWENDUNGEN', 'U6b')]),
          j4('ABSCHREIBUNGEN', 'U7', [j4('GEGENSTAENDE_DES_ANLAGEVERMOEGENS_UND_SACHANLAGEN', 'U7')]),
          j4('SONSTIGE_BETRIEBLICHE_AUFWENDUNGEN', 'U8'),
        ]),
        j4('ZWISCHENSUMME_FINANZERFOLG', 'U16', [
          j4('ERTRAEGE_AUS_BETEILIGUNGEN', 'U10'),
          j4('SONSTIGE_ZINSEN_UND_AEHNLICHE_ERTRAEGE', 'U12'),
          j4('ZINSEN_UND_AEHNLICHE_AUFWENDUNGEN', 'U15'),
        ]),
      ]),
      j4('STEUERN_VOM_EINKOMMEN_UND_ERTRAG', 'U21'),
    ]),
  ]),
  j4('GEWINN_VERLUSTVORTRAG_AUS_DEM_VORJAHR', 'BG_GV'),
]);

function jab4Xml(node: Jab4Node, cur: YearAccounts, prior: YearAccounts, indent: string): string {
  const t = `${indent}  `;
  const attr = node.davon ? ' davon="true"' : '';
  const children = (node.children ?? []).map((c) => jab4Xml(c, cur, prior, t)).join('');
  return (
    `${indent}<${node.tag}${attr}>\n${t}<POSTENZEILE>\n${t}  <BETRAG_GJ>${money(amount(cur, node.key))}</BETRAG_GJ>\n` +
    `${t}  <BETRAG_VJ>${money(amount(prior, node.key))}</BETRAG_VJ>\n${t}</POSTENZEILE>\n${children}${indent}</${node.tag}>\n`
  );
}

const SCHEDULE_COLUMNS = [
  'STAND_01_01', 'ZUGAENGE', 'DAVON_AKTIVIERTE_ZINSEN_FUER_FREMDKAPITAL', 'UMBUCHUNGEN', 'ABGAENGE', 'ZUGAENGE_ABGAENGE_DURCH_UMGRUENDUNG',
  'STAND_31_12', 'KUMULIERTE_WERTBERICHTIGUNGEN_01_01', 'LAUFENDE_ABSCHREIBUNGEN', 'LAUFENDE_ZUSCHREIBUNGEN', 'WERTBERICHTIGUNGEN_AUF_ZUGAENGE',
  'WERTBERICHTIGUNGEN_AUF_UMBUCHUNGEN', 'WERTBERICHTIGUNGEN_AUF_ABGAENGE', 'KUMULIERTE_WERTBERICHTIGUNGEN_31_12', 'BUCHWERT_01_01', 'BUCHWERT_31_12',
];

/** ANLAGENSPIEGEL rows: no BETRAG_GJ in them, so the parser never mistakes them for balance-sheet values. */
function jab4Schedule(cur: YearAccounts, prior: YearAccounts): string {
  const row = (tag: string, key: string, inner = ''): string => {
    const book = amount(cur, key);
    const priorBook = amount(prior, key);
    const depreciation = Math.round(-amount(cur, 'U7') * (book / Math.max(1, amount(cur, 'AV'))));
    const cost = Math.round(Math.max(book, priorBook) * 1.7);
    const additions = Math.max(0, book - priorBook + depreciation);
    const accumulated = cost + additions - book;
    const values = [cost, additions, 0, 0, 0, 0, cost + additions, accumulated - depreciation, depreciation, 0, 0, 0, 0, accumulated, priorBook, book];
    const cells = SCHEDULE_COLUMNS.map((c, i) => `<${c}>${money(values[i] ?? 0)}</${c}>`).join('');
    return `        <${tag}>\n            <POSTENZEILE>${cells}</POSTENZEILE>\n${inner}        </${tag}>\n`;
  };
  return (
    '    <ANLAGENSPIEGEL>\n' +
    row('ANLAGEVERMOEGEN', 'AV', row('IMMATERIELLE_VERMOEGENSGEGENSTAENDE', 'IMM') + row('SACHANLAGEN', 'SACH') + row('FINANZANLAGEN', 'FIN')) +
    '    </ANLAGENSPIEGEL>\n'
  );
}

export function jab4FilingXml(spec: FilingSpec, cur: YearAccounts, prior: YearAccounts, size: string): string {
  const y = spec.year;
  const pruef = createHash('sha256').update(`${spec.fnr}${y}`).digest('hex').toUpperCase();
  const lines = spec.nameLines.map((l, i) => `                <ZEILE SORTIERUNG="${i + 1}">${escapeXml(l)}</ZEILE>\n`).join('');
  const unit = '<EINHEIT>E</EINHEIT><NACHKOMMASTELLEN>N</NACHKOMMASTELLEN>';
  const header =
    `<?xml version="1.0" encoding="UTF-8"?>\n<UEBERMITTLUNG xmlns="ns://justiz.gv.at/Bilanzierung/v4.0/Bilanz">\n    <ALLGEMEINE_ANGABEN>\n` +
    `        <BILANZ_VERSION>04.00</BILANZ_VERSION>\n        <PRUEFSUMME>${pruef}</PRUEFSUMME>\n` +
    `        <SOFTWARE_HERSTELLER>\n            <HERSTELLER_BEZEICHNUNG>RZL Software GmbH</HERSTELLER_BEZEICHNUNG>\n` +
    `            <SOFTWARE_BEZEICHNUNG>RZL Bilanzierung</SOFTWARE_BEZEICHNUNG>\n            <SOFTWARE_VERSION>2.26.1.0</SOFTWARE_VERSION>\n        </SOFTWARE_HERSTELLER>\n` +
    `        <BESTAETIGUNG_UEBEREINSTIMMUNG_ORIGINAL>J</BESTAETIGUNG_UEBEREINSTIMMUNG_ORIGINAL>\n` +
    `        <JAHRESABSCHLUSS_KONZERNABSCHLUSS>JAB</JAHRESABSCHLUSS_KONZERNABSCHLUSS>\n        <GUV_AUSWEISART>G</GUV_AUSWEISART>\n` +
    `        <FIRMENDATEN>\n            <FIRMENBUCHNUMMER>${fnrPadded(spec.fnr)}</FIRMENBUCHNUMMER>\n            <FIRMENWORTLAUT>\n${lines}            </FIRMENWORTLAUT>\n        </FIRMENDATEN>\n` +
    `        <GESCHAEFTSJAHR>\n            <DATUM_DER_AUFSTELLUNG>${y + 1}-04-20</DATUM_DER_AUFSTELLUNG>\n            <BEGINN>${y}-01-01</BEGINN>\n            <ENDE>${y}-12-31</ENDE>\n` +
    `            <RECHTSFORM>${spec.legalForm}</RECHTSFORM>\n            <GROESSENKLASSE>${size}</GROESSENKLASSE>\n` +
    `            <EINGABEDARSTELLUNG><DARSTELLUNG_EINGEREICHT>${unit}</DARSTELLUNG_EINGEREICHT><DARSTELLUNG_VORHERGEHEND>${unit}</DARSTELLUNG_VORHERGEHEND></EINGABEDARSTELLUNG>\n` +
    `            <ZIELDARSTELLUNG><DARSTELLUNG_EINGEREICHT>${unit}</DARSTELLUNG_EINGEREICHT></ZIELDARSTELLUNG>\n        </GESCHAEFTSJAHR>\n` +
    `        <GESCHAEFTSJAHR_VORANGEGANGEN>\n            <BEGINN>${y - 1}-01-01</BEGINN>\n            <ENDE>${y - 1}-12-31</ENDE>\n            <RECHTSFORM>${spec.legalForm}</RECHTSFORM>\n        </GESCHAEFTSJAHR_VORANGEGANGEN>\n` +
    `        <BILANZ_WAEHRUNG>EUR</BILANZ_WAEHRUNG>\n        <AUFSTELLENDE_PERSONEN>\n            <PERSON>\n` +
    `                <GEBURTSDATUM>${spec.signer.birthDate}</GEBURTSDATUM>\n                <VORNAME>${escapeXml(spec.signer.firstName)}</VORNAME>\n` +
    `                <NACHNAME>${escapeXml(spec.signer.lastName)}</NACHNAME>\n                <DATUM_UNTERSCHRIFT>${y + 1}-04-20</DATUM_UNTERSCHRIFT>\n` +
    `            </PERSON>\n        </AUFSTELLENDE_PERSONEN>\n    </ALLGEMEINE_ANGABEN>\n`;
  const balance = jab4Balance(spec.legalForm).map((n) => jab4Xml(n, cur, prior, '    ')).join('');
  const pnl = jab4Xml(JAB4_PNL, cur, prior, '    ');
  return `${header}    <BILANZ>\n${balance}    </BILANZ>\n    <GUV_GKV>\n${pnl}    </GUV_GKV>\n${jab4Schedule(cur, prior)}</UEBERMITTLUNG>\n`;
}
