// The legacy filing writer (FinanzOnline / JAb 3.x): HGB_* position tags, amounts with the prior year's,
// fixed-asset schedules (SPIEGELWERTE) on the fixed-asset positions.
import { createHash } from 'node:crypto';
import { escapeXml } from '../../soapEnvelope.js';
import { amount, money, type Cents, type YearAccounts } from './annualAccounts.js';
import type { FilingSpec } from './filing.js';
import { fnrPadded } from './registerKeys.js';
import { XSI } from './responseXml.js';

interface LegacyNode {
  tag: string;
  key?: string;
  children?: LegacyNode[];
  /** Fixed-asset schedule columns (SPIEGELWERTE) for this position. */
  schedule?: boolean;
}

const leg = (tag: string, key: string, children?: LegacyNode[], schedule?: boolean): LegacyNode => ({ tag, key, children, schedule });

function legacyAssets(small: boolean): LegacyNode {
  return leg('HGB_224_2', 'AKT', [
    leg('HGB_224_2_A', 'AV', [
      leg('HGB_224_2_A_I', 'IMM', small ? undefined : [leg('HGB_224_2_A_I_1', 'IMM1', undefined, true), leg('HGB_224_2_A_I_2', 'IMM2', undefined, true)], true),
      leg('HGB_224_2_A_II', 'SACH', small ? undefined : [
        leg('HGB_224_2_A_II_1', 'SACH1', undefined, true), leg('HGB_224_2_A_II_2', 'SACH2', undefined, true),
        leg('HGB_224_2_A_II_3', 'SACH3', undefined, true), leg('HGB_224_2_A_II_4', 'SACH4', undefined, true),
      ], true),
      leg('HGB_224_2_A_III', 'FIN', small ? undefined : [leg('HGB_224_2_A_III_1', 'FIN1'), leg('HGB_224_2_A_III_3', 'FIN3'), leg('HGB_224_2_A_III_5', 'FIN5')], true),
    ], true),
    leg('HGB_224_2_B', 'UV', [
      leg('HGB_224_2_B_I', 'VOR', small ? undefined : [leg('HGB_224_2_B_I_1', 'VOR1'), leg('HGB_224_2_B_I_2', 'VOR2'), leg('HGB_224_2_B_I_3', 'VOR3')]),
      leg('HGB_224_2_B_II', 'FORD', small ? undefined : [
        leg('HGB_224_2_B_II_1', 'FORD1', [leg('HGB_224_2_B_II_1_HGB_225b', 'NONE')]),
        leg('HGB_224_2_B_II_2', 'FORD2', [leg('HGB_224_2_B_II_2_HGB_225b', 'NONE')]),
        leg('HGB_224_2_B_II_4', 'FORD4', [leg('HGB_224_2_B_II_4_HGB_225b', 'NONE')]),
      ]),
      leg('HGB_224_2_B_III', 'WP'),
      leg('HGB_224_2_B_IV', 'KASSE'),
    ]),
    leg('HGB_224_2_C', 'ARA'),
    leg('HGB_224_2_D', 'ALS'),
  ]);
}

function legacyLiabilities(small: boolean, legalForm: 'GES' | 'AG'): LegacyNode {
  // GmbH: Stammkapital HGB_229_1_A_I (child HGB_224_3_A_I_a); AG: Grundkapital HGB_229_1_A_II (child _b).
  const nominal = legalForm === 'AG'
    ? leg('HGB_229_1_A_II', 'NENN', [leg('HGB_224_3_A_I_b', 'NENN')])
    : leg('HGB_229_1_A_I', 'NENN', [leg('HGB_224_3_A_I_a', 'NENN')]);
  return leg('HGB_224_3', 'PAS', [
    leg('HGB_224_3_A', 'EK', [
      nominal,
      leg('HGB_224_3_A_II', 'KRL'),
      leg('HGB_224_3_A_III', 'GRL', small ? undefined : [leg('HGB_224_3_A_III_1', 'GRL1'), leg('HGB_224_3_A_III_3', 'GRL3')]),
      leg('HGB_224_3_A_IV', 'BG', [leg('HGB_224_3_A_IV_x', 'BG_GV')]),
    ]),
    leg('XXX_224_3_B_X', 'INV'),
    leg('HGB_224_3_C', 'RST', small ? undefined : [leg('HGB_224_3_C_1', 'RST1'), leg('HGB_224_3_C_3', 'RST3'), leg('HGB_224_3_C_4', 'RST4')]),
    leg('HGB_224_3_D', 'VBK', small ? undefined : [
      leg('HGB_224_3_D_HGB_225a', 'VBK_KURZ'),
      leg('HGB_224_3_D_HGB_225b', 'VBK_LANG'),
      leg('HGB_224_3_D_2', 'VBK2', [leg('HGB_224_3_D_2_HGB_225a', 'VBK2_KURZ'), leg('HGB_224_3_D_2_HGB_225b', 'VBK2_LANG')]),
      leg('HGB_224_3_D_3', 'VBK3', [leg('HGB_224_3_D_3_HGB_225a', 'VBK3'), leg('HGB_224_3_D_3_HGB_225b', 'NONE')]),
      leg('HGB_224_3_D_4', 'VBK4', [leg('HGB_224_3_D_4_HGB_225a', 'VBK4'), leg('HGB_224_3_D_4_HGB_225b', 'NONE')]),
      leg('HGB_224_3_D_8', 'VBK8', [leg('HGB_224_3_D_8_HGB_225a', 'VBK8'), leg('HGB_224_3_D_8_HGB_225b', 'NONE')]),
    ]),
    leg('HGB_224_3_E', 'PRA'),
  ]);
}

const LEGACY_PNL: readonly LegacyNode[] = [
  leg('HGB_231_2_1', 'U1'), leg('HGB_231_2_2', 'U2'), leg('HGB_231_2_3', 'U3'),
  leg('HGB_231_2_4', 'U4', [leg('HGB_231_2_4_a', 'U4a'), leg('HGB_231_2_4_b', 'U4b'), leg('HGB_231_2_4_c', 'U4c')]),
  leg('HGB_231_2_5', 'U5', [leg('HGB_231_2_5_a', 'U5a'), leg('HGB_231_2_5_b', 'U5b')]),
  leg('HGB_231_2_6', 'U6', [leg('HGB_231_2_6_a', 'U6a'), leg('HGB_231_2_6_b', 'U6b')]),
  leg('HGB_231_2_7', 'U7', [leg('HGB_231_2_7_a', 'U7')]), leg('HGB_231_2_8', 'U8'), leg('HGB_231_2_9', 'U9'),
  leg('HGB_231_2_10', 'U10'), leg('HGB_231_2_12', 'U12'), leg('HGB_231_2_15', 'U15'), leg('HGB_231_2_16', 'U16'),
  leg('HGB_231_2_17', 'U17'), leg('HGB_231_2_21', 'U21'), leg('HGB_231_2_30', 'U30'), leg('HGB_231_2_22', 'U22'),
  leg('HGB_231_2_28', 'BG_GV'), leg('HGB_231_2_29', 'BG'),
];

/** SPIEGELWERTE: acquisition costs, additions, disposals, depreciation, book values (columns 1..15). */
function scheduleColumns(bookValue: Cents, priorBookValue: Cents, depreciation: Cents): Cents[] {
  const cost = Math.round(Math.max(bookValue, priorBookValue) * 1.7);
  const additions = Math.max(0, bookValue - priorBookValue + depreciation);
  const accumulated = cost + additions - bookValue;
  return [cost, additions, 0, 0, 0, cost + additions, accumulated - depreciation, depreciation, 0, 0, 0, 0, accumulated, priorBookValue, bookValue];
}

function legacyXml(node: LegacyNode, cur: YearAccounts, prior: YearAccounts, indent: string): string {
  const key = node.key!;
  const t = `${indent}\t`;
  let schedule = '';
  if (node.schedule) {
    const depreciation = Math.round(-amount(cur, 'U7') * (amount(cur, key) / Math.max(1, amount(cur, 'AV'))));
    const cols = scheduleColumns(amount(cur, key), amount(prior, key), depreciation);
    schedule = `${t}\t<SPIEGELWERTE>\n${cols.map((v, i) => `${t}\t\t<SPALTE_${i + 1}>${money(v)}</SPALTE_${i + 1}>\n`).join('')}${t}\t</SPIEGELWERTE>\n`;
  }
  const children = (node.children ?? []).map((c) => legacyXml(c, cur, prior, t)).join('');
  return (
    `${indent}<${node.tag}>\n${t}<POSTENZEILE>\n${t}\t<BETRAG>${money(amount(cur, key))}</BETRAG>\n` +
    `${t}\t<BETRAG_VJ>${money(amount(prior, key))}</BETRAG_VJ>\n${schedule}${t}</POSTENZEILE>\n${children}${indent}</${node.tag}>\n`
  );
}

export function legacyFilingXml(spec: FilingSpec, cur: YearAccounts, prior: YearAccounts, size: string): string {
  const small = spec.variant === 'legacySmall';
  const y = spec.year;
  const names = spec.nameLines.map((l) => `<Z>${escapeXml(l)}</Z>`).join('');
  const pruef = createHash('md5').update(`${spec.fnr}${y}`).digest('hex');
  const header =
    `<?xml version="1.0" encoding="UTF-8"?><UEBERMITTLUNG xmlns="https://finanzonline.bmf.gv.at/bilanz" xmlns:xsi="${XSI}">\n` +
    `\t<BILANZ_GLIEDERUNG ART="HGB">\n\t\t<ALLG_JUSTIZ EINORDNUNG="${size}" EINSTUFUNG="${size}">\n` +
    `\t\t\t<VERS>03.32</VERS>\n\t\t\t<PRUEF>${pruef}</PRUEF>\n` +
    `\t\t\t<SOFTWARE>\n\t\t\t\t<SOFT>BMD</SOFT>\n\t\t\t\t<SOFT_VERS>${y + 1}.11.02</SOFT_VERS>\n\t\t\t</SOFTWARE>\n` +
    `\t\t\t<EB><CODE>000000a</CODE><BEZUG> </BEZUG><IBAN>00000</IBAN><ZUSTELL>n</ZUSTELL></EB>\n` +
    `\t\t\t<JABFORM>\n\t\t\t\t<HGBFORM>UGB23</HGBFORM>\n\t\t\t</JABFORM>\n\t\t\t<EINREICHUNG>E</EINREICHUNG>\n\t\t\t<ABSCHLUSSART>J</ABSCHLUSSART>\n` +
    `\t\t\t<FIRMA>\n\t\t\t\t<FNR>${fnrPadded(spec.fnr)}</FNR>\n\t\t\t\t<F_NAME>${names}</F_NAME>\n\t\t\t</FIRMA>\n` +
    `\t\t\t<GJ>\n\t\t\t\t<BEGINN>${y}-01-01</BEGINN>\n\t\t\t\t<ENDE>${y}-12-31</ENDE>\n\t\t\t\t<FORM>${spec.legalForm}</FORM>\n\t\t\t</GJ>\n` +
    `\t\t\t<VOR_GJ>\n\t\t\t\t<BEGINN>${y - 1}-01-01</BEGINN>\n\t\t\t\t<ENDE>${y - 1}-12-31</ENDE>\n\t\t\t\t<FORM>${spec.legalForm}</FORM>\n\t\t\t\t<WERT_TSD>n</WERT_TSD>\n\t\t\t</VOR_GJ>\n` +
    `\t\t\t<WAEHRUNG>EUR</WAEHRUNG>\n` +
    `\t\t\t<UNTER>\n\t\t\t\t<GEB_DAT>${spec.signer.birthDate}</GEB_DAT>\n\t\t\t\t<V_NAME>${escapeXml(spec.signer.firstName)}</V_NAME>\n` +
    `\t\t\t\t<Z_NAME>${escapeXml(spec.signer.lastName)}</Z_NAME>\n\t\t\t\t<DAT_UNT>${y + 1}-06-15</DAT_UNT>\n\t\t\t</UNTER>\n\t\t</ALLG_JUSTIZ>\n`;
  const balance = legacyXml(legacyAssets(small), cur, prior, '\t\t\t') + legacyXml(legacyLiabilities(small, spec.legalForm), cur, prior, '\t\t\t');
  const employees =
    `\t\t<HGB_Form_3>\n\t\t\t<HGB_Form_3_16>\n\t\t\t\t<ANZAHL>${spec.employees}</ANZAHL>\n\t\t\t</HGB_Form_3_16>\n\t\t</HGB_Form_3>\n`;
  if (small) return `${header}\t\t<HGB_Form_2>\n${balance}\t\t</HGB_Form_2>\n${employees}\t</BILANZ_GLIEDERUNG>\n</UEBERMITTLUNG>\n`;
  const pnl = LEGACY_PNL.map((n) => legacyXml(n, cur, prior, '\t\t\t')).join('');
  return `${header}\t\t<BILANZ>\n${balance}\t\t</BILANZ>\n\t\t<GUV>\n${pnl}\t\t</GUV>\n${employees}\t</BILANZ_GLIEDERUNG>\n</UEBERMITTLUNG>\n`;
}
