// The 47 screener figures (../shared/spec/key-figures.md): 27 balance-sheet and 19 profit-and-loss
// positions plus the employee count. This list is the only place they are written out: screener
// parameters, JSON keys, read-model columns, export columns and the parser's source elements are all
// derived from it.

export type FigureGroup = 'bilanz' | 'guv' | 'employees';

export interface KeyFigureDefinition {
  /** CamelCase name as in the spec (`BilanzSumme`). */
  readonly name: string;
  readonly group: FigureGroup;
  /** Short English meaning, used in OpenAPI descriptions and export headers. */
  readonly label: string;
  /**
   * Legacy FinanzOnline / JAb 3.x element names (local names), in order of preference.
   * For P&L positions the Gesamtkostenverfahren code comes first, the Umsatzkostenverfahren code second.
   */
  readonly legacy: readonly string[];
  /** JAb 4.0 element local names, in order of preference (the first present wins). */
  readonly jab4: readonly string[];
  /** `money` values are EUR decimals after unit scaling; `count` is the (possibly fractional) headcount. */
  readonly kind: 'money' | 'count';
}

const b = (name: string, label: string, legacy: string[], jab4: string[]): KeyFigureDefinition => ({
  name, group: 'bilanz', label, legacy, jab4, kind: 'money',
});
const g = (name: string, label: string, legacy: string[], jab4: string[]): KeyFigureDefinition => ({
  name, group: 'guv', label, legacy, jab4, kind: 'money',
});

export const KEY_FIGURES: readonly KeyFigureDefinition[] = [
  b('BilanzSumme', 'balance-sheet total', ['HGB_224_2'], ['AKTIVA']),
  b('AnlageVermoegen', 'fixed assets', ['HGB_224_2_A'], ['ANLAGEVERMOEGEN']),
  b('ImmaterielleVermoegensgegenstaende', 'intangible assets', ['HGB_224_2_A_I'], ['IMMATERIELLE_VERMOEGENSGEGENSTAENDE']),
  b('Sachanlagen', 'tangible assets', ['HGB_224_2_A_II'], ['SACHANLAGEN']),
  b('Finanzanlagen', 'financial assets', ['HGB_224_2_A_III'], ['FINANZANLAGEN']),
  b('Beteiligungen', 'participations', ['HGB_224_2_A_III_3'], ['BETEILIGUNGEN']),
  b('Umlaufvermoegen', 'current assets', ['HGB_224_2_B'], ['UMLAUFVERMOEGEN']),
  b('Vorraete', 'inventories', ['HGB_224_2_B_I'], ['VORRAETE']),
  b('Forderungen', 'receivables and other assets', ['HGB_224_2_B_II'], ['FORDERUNGEN_UND_SONSTIGE_VERMOEGENSGEGENSTAENDE']),
  b('ForderungenLuL', 'trade receivables', ['HGB_224_2_B_II_1'], ['FORDERUNGEN_AUS_LIEFERUNGEN_UND_LEISTUNGEN']),
  b('WertpapiereUmlaufvermoegen', 'securities in current assets', ['HGB_224_2_B_III'], ['WERTPAPIERE_UND_ANTEILE']),
  b('LiquideMittel', 'cash and bank balances', ['HGB_224_2_B_IV'], ['KASSENBESTAND_SCHECKS_GUTHABEN_BEI_KREDITINSTITUTEN']),
  b('AktiveRechnungsabgrenzung', 'prepaid expenses', ['HGB_224_2_C'], ['AKTIVA_RECHNUNGSABGRENZUNGSPOSTEN']),
  b('AktiveLatenteSteuern', 'deferred tax assets', ['HGB_224_2_D'], ['AKTIVE_LATENTE_STEUERN']),
  b('Eigenkapital', 'equity', ['HGB_224_3_A'], ['EIGENKAPITAL']),
  b('NennKapital', 'called-up nominal capital',
    ['HGB_229_1_A_I', 'HGB_229_1_A_II', 'XXX_224_3_A_I_X', 'XXX_224_3_A_I_Y', 'XXX_224_3_A_I_T'],
    ['EINGEFORDERTES_STAMMKAPITAL', 'EINGEFORDERTES_GRUNDKAPITAL', 'EINGEFORDERTES_KOMPLEMENTAERKAPITAL', 'KOMMANDITKAPITAL', 'EINGEFORDERTE_EINLAGE_OG']),
  b('Kapitalruecklagen', 'capital reserves', ['HGB_224_3_A_II'], ['KAPITALRUECKLAGEN']),
  b('Gewinnruecklagen', 'revenue reserves', ['HGB_224_3_A_III'], ['GEWINNRUECKLAGEN']),
  b('BilanzGewinn', 'balance-sheet profit or loss', ['HGB_224_3_A_IV'], ['BILANZGEWINN_BILANZVERLUST']),
  b('GewinnVortrag', 'profit or loss carried forward', ['HGB_224_3_A_IV_x'], ['DAVON_GEWINNVORTRAG_VERLUSTVORTRAG']),
  b('Investitionszuschuesse', 'investment grants', ['XXX_224_3_B_X'], ['INVESTITIONSZUSCHUESSE']),
  b('Rueckstellungen', 'provisions', ['HGB_224_3_C'], ['RUECKSTELLUNGEN']),
  b('Verbindlichkeiten', 'liabilities', ['HGB_224_3_D'], ['VERBINDLICHKEITEN']),
  b('VerbindlichkeitenKurzfristig', 'liabilities due within one year', ['HGB_224_3_D_HGB_225a'], ['DAVON_RESTLAUFZEIT_BIS_ZU_EINEM_JAHR']),
  b('VerbindlichkeitenKreditinstitute', 'liabilities to banks', ['HGB_224_3_D_2'], ['VERBINDLICHKEITEN_GEGENUEBER_KREDITINSTITUTEN']),
  b('VerbindlichkeitenLuL', 'trade payables', ['HGB_224_3_D_4'], ['VERBINDLICHKEITEN_AUS_LIEFERUNGEN_UND_LEISTUNGEN']),
  b('PassiveRechnungsabgrenzung', 'deferred income', ['HGB_224_3_E'], ['PASSIVA_RECHNUNGSABGRENZUNGSPOSTEN']),

  g('Umsatzerloese', 'revenue', ['HGB_231_2_1', 'HGB_231_3_1'], ['UMSATZERLOESE']),
  g('Bestandsveraenderung', 'change in inventories', ['HGB_231_2_2'], ['VERAENDERUNG_DES_BESTANDS_AN_ERZEUGNISSEN_UND_LEISTUNGEN']),
  g('AktivierteEigenleistungen', 'own work capitalised', ['HGB_231_2_3'], ['ANDERE_AKTIVIERTE_EIGENLEISTUNGEN']),
  g('SonstigeBetrieblicheErtraege', 'other operating income', ['HGB_231_2_4', 'HGB_231_3_4'],
    ['SONSTIGE_BETRIEBLICHE_ERTRAEGE', 'SONSTIGE_BETRIEBLICHE_ERTRAEGE_ZU_UMSATZERLOESE', 'SONSTIGE_BETRIEBLICHE_ERTRAEGE_ZU_ROHERGEBNIS']),
  g('Materialaufwand', 'cost of materials and services', ['HGB_231_2_5'], ['AUFWENDUNGEN_FUER_HERSTELLUNGSLEISTUNGEN']),
  g('Rohergebnis', 'gross result', ['HGB_231_2_HGB_279', 'HGB_231_3_HGB_279'], ['ROHERGEBNIS']),
  g('Personalaufwand', 'personnel expense', ['HGB_231_2_6'], ['PERSONALAUFWAND']),
  g('Abschreibungen', 'depreciation', ['HGB_231_2_7'], ['ABSCHREIBUNGEN']),
  g('SonstigeBetrieblicheAufwendungen', 'other operating expense', ['HGB_231_2_8', 'HGB_231_3_7'], ['SONSTIGE_BETRIEBLICHE_AUFWENDUNGEN']),
  g('BruttoergebnisVomUmsatz', 'gross profit on sales', ['HGB_231_3_3'], ['BRUTTOERGEBNIS_VOM_UMSATZ']),
  g('BetriebsErfolg', 'operating result', ['HGB_231_2_9', 'HGB_231_3_8'], ['ZWISCHENSUMME_BETRIEBSERFOLG']),
  g('BeteiligungsErtraege', 'income from participations', ['HGB_231_2_10', 'HGB_231_3_9'], ['ERTRAEGE_AUS_BETEILIGUNGEN']),
  g('ZinsErtraege', 'other interest income', ['HGB_231_2_12', 'HGB_231_3_11'], ['SONSTIGE_ZINSEN_UND_AEHNLICHE_ERTRAEGE']),
  g('ZinsAufwendungen', 'interest expense', ['HGB_231_2_15', 'HGB_231_3_14'], ['ZINSEN_UND_AEHNLICHE_AUFWENDUNGEN']),
  g('FinanzErfolg', 'financial result', ['HGB_231_2_16', 'HGB_231_3_15'], ['ZWISCHENSUMME_FINANZERFOLG']),
  g('ErgebnisVorSteuern', 'result before tax', ['HGB_231_2_17', 'HGB_231_3_16'], ['ERGEBNIS_VOR_STEUERN']),
  g('SteuernVomEinkommen', 'income taxes', ['HGB_231_2_21', 'HGB_231_3_20'], ['STEUERN_VOM_EINKOMMEN_UND_ERTRAG']),
  g('ErgebnisNachSteuern', 'result after tax', ['HGB_231_2_30', 'HGB_231_3_30'], ['ERGEBNIS_NACH_STEUERN']),
  g('Jahresueberschuss', 'annual profit or loss', ['HGB_231_2_22', 'HGB_231_3_21'], ['JAHRESUEBERSCHUSS_JAHRESFEHLBETRAG']),

  {
    name: 'employees', group: 'employees', label: 'average number of employees', kind: 'count',
    legacy: ['HGB_Form_3_16'], jab4: ['DURCHSCHNITTLICHE_ANZAHL_ARBEITNEHMER'],
  },
];

/** Screener parameter base: `bilanz.BilanzSumme`, `guv.Umsatzerloese`, `employees`. */
export function figureParam(f: KeyFigureDefinition): string {
  return f.group === 'employees' ? 'employees' : `${f.group}.${f.name}`;
}

/** JSON key in `latestKeyFigures` / `parsedJahresabschluesse[]`: first letter lower-cased. */
export function figureJsonKey(f: KeyFigureDefinition): string {
  return f.name.charAt(0).toLowerCase() + f.name.slice(1);
}

/** Column name in read-model tables: `fig_` + the JSON key in lower case (Postgres folds case anyway). */
export function figureColumn(f: KeyFigureDefinition): string {
  return `fig_${figureJsonKey(f).toLowerCase()}`;
}

export const FIGURE_BY_PARAM: ReadonlyMap<string, KeyFigureDefinition> = new Map(
  KEY_FIGURES.map((f) => [figureParam(f), f]),
);
export const FIGURE_BY_JSON_KEY: ReadonlyMap<string, KeyFigureDefinition> = new Map(
  KEY_FIGURES.map((f) => [figureJsonKey(f), f]),
);

/** A filing's figures: JSON key -> decimal string (exact) or null when not reported. */
export type FigureValues = Record<string, string | null>;

export function emptyFigures(): FigureValues {
  return Object.fromEntries(KEY_FIGURES.map((f) => [figureJsonKey(f), null]));
}
