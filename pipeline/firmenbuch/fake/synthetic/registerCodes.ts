// Register codes and their texts as the synthetic responses write them.

/** Firmenbuch courts (pipeline/catalogues/data/firmenbuch_courts.csv). */
export const FIRMENBUCH_COURTS: Readonly<Record<string, string>> = {
  '007': 'Handelsgericht Wien', '309': 'Landesgericht Eisenstadt', '929': 'Landesgericht Feldkirch',
  '638': 'Landesgericht für ZRS Graz', '818': 'Landesgericht Innsbruck', '729': 'Landesgericht Klagenfurt',
  '119': 'Landesgericht Korneuburg', '129': 'Landesgericht Krems an der Donau', '609': 'Landesgericht Leoben',
  '458': 'Landesgericht Linz', '469': 'Landesgericht Ried im Innkreis', '569': 'Landesgericht Salzburg',
  '499': 'Landesgericht Steyr', '199': 'Landesgericht St. Pölten', '519': 'Landesgericht Wels',
  '239': 'Landesgericht Wiener Neustadt',
};

export const LEGAL_FORMS: Readonly<Record<string, string>> = {
  GES: 'Gesellschaft mit beschränkter Haftung', AG: 'Aktiengesellschaft', KG: 'Kommanditgesellschaft',
  OG: 'Offene Gesellschaft', GEN: 'Erwerbs- und Wirtschaftsgenossenschaft', PST: 'Privatstiftung',
  EU: 'Eingetragene(r) Unternehmer(in)', SE: 'Europäische Gesellschaft (SE)',
};

/**
 * FKEN texts. GF, PR, GS and VM are confirmed codes; AR, PH, KM, LI and IH are placeholders (the sources
 * name no code for Aufsichtsrat, Komplementär, Kommanditist, Liquidator, Inhaber).
 */
export const FUNCTION_TEXTS: Readonly<Record<string, string>> = {
  GF: 'GESCHÄFTSFÜHRER/IN (handelsrechtlich)', PR: 'PROKURIST/IN', GS: 'GESELLSCHAFTER/IN', VM: 'VORSTANDSMITGLIED',
  AR: 'MITGLIED DES AUFSICHTSRATES', PH: 'UNBESCHRÄNKT HAFTENDE/R GESELLSCHAFTER/IN', KM: 'KOMMANDITIST/IN',
  LI: 'LIQUIDATOR/IN', IH: 'INHABER/IN',
};

export const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  '42': 'Gesellschaftsvertrag', '48': 'Jahresabschluss', '49': 'Konzernabschluss', '61': 'Musterzeichnung',
};
