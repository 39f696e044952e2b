// What the examples of the OpenAPI document share: one invented but realistic Austrian company
// (Müller Bau GmbH, FN 30435h at the Handelsgericht Wien) that every read endpoint's example shows,
// shaped as the presenters shape it. Each route's docs module builds its own examples from these.
// test/unit/openapiExamples.test.ts validates every example of the generated document against the
// schema it stands beside, so an example that drifts from its schema fails there.
import { KEY_FIGURES, figureJsonKey } from '../../schemas/keyFigures.js';

export const GES = { code: 'GES', text: 'Gesellschaft mit beschränkter Haftung' };
export const HG_WIEN = { code: '007', text: 'Handelsgericht Wien' };
export const LG_GRAZ = { code: '638', text: 'Landesgericht für ZRS Graz' };
export const LG_KORNEUBURG = { code: '119', text: 'Landesgericht Korneuburg' };
export const GF = 'GESCHÄFTSFÜHRER/IN (handelsrechtlich)';
export const PR = 'PROKURIST/IN';
export const EINZELVERTRETUNG = { code: 'E', text: 'Einzelvertretung' };
export const GEMEINSAM = { code: 'G', text: 'Gemeinsame Vertretung' };

/** All 47 figures of one filing: the ones given, every other one null (not reported, never 0). */
export function keyFigures(documentDate: string, values: Record<string, number>) {
  const known = new Set(KEY_FIGURES.map(figureJsonKey));
  for (const key of Object.keys(values)) if (!known.has(key)) throw new Error(`exampleData: ${key} is not a key figure`);
  return { documentDate, ...Object.fromEntries(KEY_FIGURES.map((f) => [figureJsonKey(f), values[figureJsonKey(f)] ?? null])) };
}

/** Müller Bau GmbH, 2024 (full annual account, Gesamtkostenverfahren; the sums add up). */
export const MUELLER_2024 = keyFigures('2024-12-31', {
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
