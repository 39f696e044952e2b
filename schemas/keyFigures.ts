// The 47 screener figures (docs/contract/key-figures.md): 27 balance-sheet and 19 profit-and-loss
// positions plus the employee count. This list is the only place they are written out: screener
// parameters, JSON keys, read-model columns, export columns and the parser's source elements are all
// derived from it.

export type FigureGroup = 'bilanz' | 'guv' | 'employees';

/**
 * How a figure is signed as filed (and stored: the contract keeps the filed sign). `negative`: an
 * expense, filed as a negative amount, so "at least 1 M of it" is `_lte=-1000000`.
 */
export type FigureSign = 'positive' | 'negative' | 'signed';

export interface KeyFigureDefinition {
  /** CamelCase name as in the spec (`BilanzSumme`). */
  readonly name: string;
  readonly group: FigureGroup;
  /** Short English meaning, used in OpenAPI descriptions and export headers. */
  readonly label: string;
  /** The position's German name as the UGB and the filings word it. */
  readonly labelDe: string;
  /** Where the position sits in the UGB layout (§ 224 balance sheet, § 231 profit and loss). */
  readonly position: string;
  readonly sign: FigureSign;
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

const b = (name: string, labelDe: string, label: string, position: string, legacy: string[], jab4: string[], sign: FigureSign = 'positive'): KeyFigureDefinition => ({
  name, group: 'bilanz', label, labelDe, position: `Bilanz ${position}`, sign, legacy, jab4, kind: 'money',
});
const g = (name: string, labelDe: string, label: string, position: string, sign: FigureSign, legacy: string[], jab4: string[]): KeyFigureDefinition => ({
  name, group: 'guv', label, labelDe, position: `GuV ${position}`, sign, legacy, jab4, kind: 'money',
});
const EXPENSE = 'negative';
const SIGNED = 'signed';
const INCOME = 'positive';

export const KEY_FIGURES: readonly KeyFigureDefinition[] = [
  b('BilanzSumme', 'Bilanzsumme', 'balance-sheet total', 'Aktiva, Summe', ['HGB_224_2'], ['AKTIVA']),
  b('AnlageVermoegen', 'Anlagevermögen', 'fixed assets', 'Aktiva A', ['HGB_224_2_A'], ['ANLAGEVERMOEGEN']),
  b('ImmaterielleVermoegensgegenstaende', 'Immaterielle Vermögensgegenstände', 'intangible assets', 'Aktiva A.I', ['HGB_224_2_A_I'], ['IMMATERIELLE_VERMOEGENSGEGENSTAENDE']),
  b('Sachanlagen', 'Sachanlagen', 'tangible assets', 'Aktiva A.II', ['HGB_224_2_A_II'], ['SACHANLAGEN']),
  b('Finanzanlagen', 'Finanzanlagen', 'financial assets', 'Aktiva A.III', ['HGB_224_2_A_III'], ['FINANZANLAGEN']),
  b('Beteiligungen', 'Beteiligungen', 'participations', 'Aktiva A.III.3', ['HGB_224_2_A_III_3'], ['BETEILIGUNGEN']),
  b('Umlaufvermoegen', 'Umlaufvermögen', 'current assets', 'Aktiva B', ['HGB_224_2_B'], ['UMLAUFVERMOEGEN']),
  b('Vorraete', 'Vorräte', 'inventories', 'Aktiva B.I', ['HGB_224_2_B_I'], ['VORRAETE']),
  b('Forderungen', 'Forderungen und sonstige Vermögensgegenstände', 'receivables and other assets', 'Aktiva B.II', ['HGB_224_2_B_II'],
    ['FORDERUNGEN_UND_SONSTIGE_VERMOEGENSGEGENSTAENDE']),
  b('ForderungenLuL', 'Forderungen aus Lieferungen und Leistungen', 'trade receivables', 'Aktiva B.II.1', ['HGB_224_2_B_II_1'],
    ['FORDERUNGEN_AUS_LIEFERUNGEN_UND_LEISTUNGEN']),
  b('WertpapiereUmlaufvermoegen', 'Wertpapiere und Anteile', 'securities in current assets', 'Aktiva B.III', ['HGB_224_2_B_III'], ['WERTPAPIERE_UND_ANTEILE']),
  b('LiquideMittel', 'Kassenbestand, Schecks, Guthaben bei Kreditinstituten', 'cash and bank balances', 'Aktiva B.IV', ['HGB_224_2_B_IV'],
    ['KASSENBESTAND_SCHECKS_GUTHABEN_BEI_KREDITINSTITUTEN']),
  b('AktiveRechnungsabgrenzung', 'Aktive Rechnungsabgrenzungsposten', 'prepaid expenses', 'Aktiva C', ['HGB_224_2_C'], ['AKTIVA_RECHNUNGSABGRENZUNGSPOSTEN']),
  b('AktiveLatenteSteuern', 'Aktive latente Steuern', 'deferred tax assets', 'Aktiva D', ['HGB_224_2_D'], ['AKTIVE_LATENTE_STEUERN']),
  b('Eigenkapital', 'Eigenkapital', 'equity', 'Passiva A', ['HGB_224_3_A'], ['EIGENKAPITAL'], SIGNED),
  b('NennKapital', 'Eingefordertes Nennkapital (Stamm-, Grund-, Komplementär-, Kommanditkapital, Einlage OG)', 'called-up nominal capital', 'Passiva A.I',
    ['HGB_229_1_A_I', 'HGB_229_1_A_II', 'XXX_224_3_A_I_X', 'XXX_224_3_A_I_Y', 'XXX_224_3_A_I_T'],
    ['EINGEFORDERTES_STAMMKAPITAL', 'EINGEFORDERTES_GRUNDKAPITAL', 'EINGEFORDERTES_KOMPLEMENTAERKAPITAL', 'KOMMANDITKAPITAL', 'EINGEFORDERTE_EINLAGE_OG']),
  b('Kapitalruecklagen', 'Kapitalrücklagen', 'capital reserves', 'Passiva A.II', ['HGB_224_3_A_II'], ['KAPITALRUECKLAGEN']),
  b('Gewinnruecklagen', 'Gewinnrücklagen', 'revenue reserves', 'Passiva A.III', ['HGB_224_3_A_III'], ['GEWINNRUECKLAGEN']),
  b('BilanzGewinn', 'Bilanzgewinn (Bilanzverlust)', 'balance-sheet profit or loss', 'Passiva A.IV', ['HGB_224_3_A_IV'], ['BILANZGEWINN_BILANZVERLUST'], SIGNED),
  b('GewinnVortrag', 'davon Gewinnvortrag (Verlustvortrag)', 'profit or loss carried forward', 'Passiva A.IV, davon', ['HGB_224_3_A_IV_x'],
    ['DAVON_GEWINNVORTRAG_VERLUSTVORTRAG'], SIGNED),
  b('Investitionszuschuesse', 'Investitionszuschüsse', 'investment grants', 'Passiva, nach A', ['XXX_224_3_B_X'], ['INVESTITIONSZUSCHUESSE']),
  b('Rueckstellungen', 'Rückstellungen', 'provisions', 'Passiva B (legacy C)', ['HGB_224_3_C'], ['RUECKSTELLUNGEN']),
  b('Verbindlichkeiten', 'Verbindlichkeiten', 'liabilities', 'Passiva C (legacy D)', ['HGB_224_3_D'], ['VERBINDLICHKEITEN']),
  b('VerbindlichkeitenKurzfristig', 'davon mit einer Restlaufzeit bis zu einem Jahr', 'liabilities due within one year', 'Passiva C, davon',
    ['HGB_224_3_D_HGB_225a'], ['DAVON_RESTLAUFZEIT_BIS_ZU_EINEM_JAHR']),
  b('VerbindlichkeitenKreditinstitute', 'Verbindlichkeiten gegenüber Kreditinstituten', 'liabilities to banks', 'Passiva C.2', ['HGB_224_3_D_2'],
    ['VERBINDLICHKEITEN_GEGENUEBER_KREDITINSTITUTEN']),
  b('VerbindlichkeitenLuL', 'Verbindlichkeiten aus Lieferungen und Leistungen', 'trade payables', 'Passiva C.4', ['HGB_224_3_D_4'],
    ['VERBINDLICHKEITEN_AUS_LIEFERUNGEN_UND_LEISTUNGEN']),
  b('PassiveRechnungsabgrenzung', 'Passive Rechnungsabgrenzungsposten', 'deferred income', 'Passiva D (legacy E)', ['HGB_224_3_E'], ['PASSIVA_RECHNUNGSABGRENZUNGSPOSTEN']),

  g('Umsatzerloese', 'Umsatzerlöse', 'revenue', 'Z 1', INCOME, ['HGB_231_2_1', 'HGB_231_3_1'], ['UMSATZERLOESE']),
  g('Bestandsveraenderung', 'Veränderung des Bestands an fertigen und unfertigen Erzeugnissen', 'change in inventories', 'Z 2 (GKV)', SIGNED,
    ['HGB_231_2_2'], ['VERAENDERUNG_DES_BESTANDS_AN_ERZEUGNISSEN_UND_LEISTUNGEN']),
  g('AktivierteEigenleistungen', 'Andere aktivierte Eigenleistungen', 'own work capitalised', 'Z 3 (GKV)', INCOME, ['HGB_231_2_3'], ['ANDERE_AKTIVIERTE_EIGENLEISTUNGEN']),
  g('SonstigeBetrieblicheErtraege', 'Sonstige betriebliche Erträge', 'other operating income', 'Z 4', INCOME, ['HGB_231_2_4', 'HGB_231_3_4'],
    ['SONSTIGE_BETRIEBLICHE_ERTRAEGE', 'SONSTIGE_BETRIEBLICHE_ERTRAEGE_ZU_UMSATZERLOESE', 'SONSTIGE_BETRIEBLICHE_ERTRAEGE_ZU_ROHERGEBNIS']),
  g('Materialaufwand', 'Aufwendungen für Material und sonstige bezogene Herstellungsleistungen', 'cost of materials and services', 'Z 5 (GKV)', EXPENSE,
    ['HGB_231_2_5'], ['AUFWENDUNGEN_FUER_HERSTELLUNGSLEISTUNGEN']),
  g('Rohergebnis', 'Rohergebnis', 'gross result', 'Rohergebnis (§ 231 Abs 5, small and medium companies)', SIGNED,
    ['HGB_231_2_HGB_279', 'HGB_231_3_HGB_279'], ['ROHERGEBNIS']),
  g('Personalaufwand', 'Personalaufwand', 'personnel expense', 'Z 6 (GKV)', EXPENSE, ['HGB_231_2_6'], ['PERSONALAUFWAND']),
  g('Abschreibungen', 'Abschreibungen', 'depreciation', 'Z 7 (GKV)', EXPENSE, ['HGB_231_2_7'], ['ABSCHREIBUNGEN']),
  g('SonstigeBetrieblicheAufwendungen', 'Sonstige betriebliche Aufwendungen', 'other operating expense', 'Z 8 (GKV) / Z 7 (UKV)', EXPENSE,
    ['HGB_231_2_8', 'HGB_231_3_7'], ['SONSTIGE_BETRIEBLICHE_AUFWENDUNGEN']),
  g('BruttoergebnisVomUmsatz', 'Bruttoergebnis vom Umsatz', 'gross profit on sales', 'Z 3 (UKV)', SIGNED, ['HGB_231_3_3'], ['BRUTTOERGEBNIS_VOM_UMSATZ']),
  g('BetriebsErfolg', 'Betriebserfolg', 'operating result', 'Z 9 (GKV) / Z 8 (UKV)', SIGNED, ['HGB_231_2_9', 'HGB_231_3_8'], ['ZWISCHENSUMME_BETRIEBSERFOLG']),
  g('BeteiligungsErtraege', 'Erträge aus Beteiligungen', 'income from participations', 'Z 10', INCOME, ['HGB_231_2_10', 'HGB_231_3_9'], ['ERTRAEGE_AUS_BETEILIGUNGEN']),
  g('ZinsErtraege', 'Sonstige Zinsen und ähnliche Erträge', 'other interest income', 'Z 12', INCOME, ['HGB_231_2_12', 'HGB_231_3_11'],
    ['SONSTIGE_ZINSEN_UND_AEHNLICHE_ERTRAEGE']),
  g('ZinsAufwendungen', 'Zinsen und ähnliche Aufwendungen', 'interest expense', 'Z 15', EXPENSE, ['HGB_231_2_15', 'HGB_231_3_14'], ['ZINSEN_UND_AEHNLICHE_AUFWENDUNGEN']),
  g('FinanzErfolg', 'Finanzerfolg', 'financial result', 'Z 16', SIGNED, ['HGB_231_2_16', 'HGB_231_3_15'], ['ZWISCHENSUMME_FINANZERFOLG']),
  g('ErgebnisVorSteuern', 'Ergebnis vor Steuern', 'result before tax', 'Z 17', SIGNED, ['HGB_231_2_17', 'HGB_231_3_16'], ['ERGEBNIS_VOR_STEUERN']),
  g('SteuernVomEinkommen', 'Steuern vom Einkommen und vom Ertrag', 'income taxes', 'Z 18', EXPENSE, ['HGB_231_2_21', 'HGB_231_3_20'], ['STEUERN_VOM_EINKOMMEN_UND_ERTRAG']),
  g('ErgebnisNachSteuern', 'Ergebnis nach Steuern', 'result after tax', 'Z 19', SIGNED, ['HGB_231_2_30', 'HGB_231_3_30'], ['ERGEBNIS_NACH_STEUERN']),
  g('Jahresueberschuss', 'Jahresüberschuss (Jahresfehlbetrag)', 'annual profit or loss', 'Z 21', SIGNED, ['HGB_231_2_22', 'HGB_231_3_21'],
    ['JAHRESUEBERSCHUSS_JAHRESFEHLBETRAG']),

  {
    name: 'employees', group: 'employees', label: 'average number of employees', labelDe: 'Durchschnittliche Zahl der Arbeitnehmer',
    position: 'Anhang (Anlage 2)', sign: 'positive', kind: 'count', legacy: ['HGB_Form_3_16'], jab4: ['DURCHSCHNITTLICHE_ANZAHL_ARBEITNEHMER'],
  },
];

/** Screener parameter base: `bilanz.BilanzSumme`, `guv.Umsatzerloese`, `employees`. */
export function figureParam(f: KeyFigureDefinition): string {
  return f.group === 'employees' ? 'employees' : `${f.group}.${f.name}`;
}

/** `EUR` for money (after the filing's unit is applied), `persons` for the average headcount. */
export function figureUnit(f: KeyFigureDefinition): 'EUR' | 'persons' {
  return f.kind === 'money' ? 'EUR' : 'persons';
}

/** One filter on the figure that shows how its sign reads, with what it finds. */
export function figureFilterExample(f: KeyFigureDefinition): { query: string; finds: string } {
  const p = figureParam(f);
  if (f.sign === 'negative') return { query: `${p}_lte=-1000000`, finds: `${f.label} of at least 1,000,000 EUR` };
  if (f.sign === 'signed') return { query: `${p}_lte=-1`, finds: 'a negative amount (a loss, deficit or decrease)' };
  return f.kind === 'count' ? { query: `${p}_gte=50`, finds: 'at least 50 employees' } : { query: `${p}_gte=1000000`, finds: 'at least 1,000,000 EUR' };
}

/** The sign convention in a sentence; for expenses with the filter and the sort order that work. */
export function figureSignConvention(f: KeyFigureDefinition): string {
  if (f.sign === 'positive') return 'Stored as filed: a positive amount or 0.';
  if (f.sign === 'signed') return 'Stored as filed, with its sign: a loss, deficit or decrease is negative.';
  const example = figureFilterExample(f);
  return 'An expense, stored as filed: NEGATIVE, so a larger expense is a smaller number. ' +
    `Filter with _lte and a negative bound (\`${example.query}\` finds ${example.finds}); ` +
    'sort ascending (orderByDescending=false) to see the largest expense first.';
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
