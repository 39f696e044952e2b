// Annual-account filings with known figures: one year's accounts written as a legacy (JAb 3.x) or a
// JAb 4.0 filing, with the figures the annual-account parser must extract from it.
import { KEY_FIGURES, emptyFigures, figureJsonKey, type FigureValues } from '../../../../schemas/keyFigures.js';
import { amount, canonicalMoney, yearAccounts, type Cents, type YearAccounts } from './annualAccounts.js';
import { jab4FilingXml } from './jab4FilingXml.js';
import { legacyFilingXml } from './legacyFilingXml.js';
import { between, type Random } from './random.js';

export type FilingVariant = 'legacy' | 'legacySmall' | 'jab4';

export interface FilingSpec {
  fnr: string;
  nameLines: string[];
  legalForm: 'GES' | 'AG';
  variant: FilingVariant;
  /** Fiscal year = calendar year. */
  year: number;
  /** Revenue of the fiscal year in cents. */
  revenue: Cents;
  employees: number;
  /** Signatory (personal data in the filing, as real filings carry). */
  signer: { firstName: string; lastName: string; birthDate: string };
}

export interface GeneratedFiling {
  xml: string;
  documentDate: string;
  sizeClass: 'K' | 'M' | 'G';
  expected: { documentDate: string; figures: FigureValues };
}

/** Size class from the UGB § 221 thresholds (balance-sheet total, revenue, employees: two of three). */
function sizeClass(assets: Cents, revenue: Cents, employees: number): 'K' | 'M' | 'G' {
  const over = (a: number, r: number, e: number) => [assets > a * 100, revenue > r * 100, employees > e].filter(Boolean).length >= 2;
  if (over(25_000_000, 50_000_000, 250)) return 'G';
  if (over(6_250_000, 12_500_000, 50)) return 'M';
  return 'K';
}

/** Key figure JSON key -> abstract position (or P&L line) of the generated accounts. */
const FIGURE_SOURCES: Readonly<Record<string, string>> = {
  bilanzSumme: 'AKT', anlageVermoegen: 'AV', immaterielleVermoegensgegenstaende: 'IMM', sachanlagen: 'SACH',
  finanzanlagen: 'FIN', beteiligungen: 'FIN3', umlaufvermoegen: 'UV', vorraete: 'VOR', forderungen: 'FORD',
  forderungenLuL: 'FORD1', wertpapiereUmlaufvermoegen: 'WP', liquideMittel: 'KASSE', aktiveRechnungsabgrenzung: 'ARA',
  aktiveLatenteSteuern: 'ALS', eigenkapital: 'EK', nennKapital: 'NENN', kapitalruecklagen: 'KRL',
  gewinnruecklagen: 'GRL', bilanzGewinn: 'BG', gewinnVortrag: 'BG_GV', investitionszuschuesse: 'INV',
  rueckstellungen: 'RST', verbindlichkeiten: 'VBK', verbindlichkeitenKurzfristig: 'VBK_KURZ',
  verbindlichkeitenKreditinstitute: 'VBK2', verbindlichkeitenLuL: 'VBK4', passiveRechnungsabgrenzung: 'PRA',
  umsatzerloese: 'U1', bestandsveraenderung: 'U2', aktivierteEigenleistungen: 'U3', sonstigeBetrieblicheErtraege: 'U4',
  materialaufwand: 'U5', personalaufwand: 'U6', abschreibungen: 'U7', sonstigeBetrieblicheAufwendungen: 'U8',
  betriebsErfolg: 'U9', beteiligungsErtraege: 'U10', zinsErtraege: 'U12', zinsAufwendungen: 'U15', finanzErfolg: 'U16',
  ergebnisVorSteuern: 'U17', steuernVomEinkommen: 'U21', ergebnisNachSteuern: 'U30', jahresueberschuss: 'U22',
};

/** Figures the writer puts into the filing, per variant (the rest stays null). */
function expectedFigures(a: YearAccounts, variant: FilingVariant, employees: number): FigureValues {
  const figures = emptyFigures();
  for (const def of KEY_FIGURES) {
    const key = figureJsonKey(def);
    const source = FIGURE_SOURCES[key];
    if (!source) continue;
    const isPnl = /^U\d/.test(source);
    if (isPnl && variant === 'legacySmall') continue;
    // Small balance sheets (Anlage 1) carry no breakdown of receivables and liabilities.
    if (variant === 'legacySmall' && ['FORD1', 'VBK_KURZ', 'VBK2', 'VBK4', 'FIN3'].includes(source)) continue;
    figures[key] = canonicalMoney(amount(a, source));
  }
  figures.employees = variant === 'jab4' ? null : String(employees);
  return figures;
}

/**
 * A filing with realistic, internally consistent numbers (sums add up, Aktiva = Passiva, Bilanzgewinn =
 * result + carry-forward) and the figures the annual-account parser must extract from it.
 */
export function generateFiling(spec: FilingSpec, random: Random): GeneratedFiling {
  const cur = yearAccounts(random, spec.revenue, spec.legalForm);
  const prior = yearAccounts(random, Math.round(spec.revenue * between(random, 0.85, 1.1)), spec.legalForm);
  const size = sizeClass(amount(cur, 'AKT'), spec.revenue, spec.employees);
  const xml = spec.variant === 'jab4' ? jab4FilingXml(spec, cur, prior, size) : legacyFilingXml(spec, cur, prior, size);
  const documentDate = `${spec.year}-12-31`;
  return { xml, documentDate, sizeClass: size, expected: { documentDate, figures: expectedFigures(cur, spec.variant, spec.employees) } };
}
