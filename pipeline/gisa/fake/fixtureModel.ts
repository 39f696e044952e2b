// The trade licences of the bundled corpus (fixtures/corpus/gisa), as a table: 27 companies of the
// Firmenbuch corpus and 8 sole traders. writeFixtures.ts writes them in GISA's format, with the quirks
// listed per licence, and the record the parser must read from each. All invented.

export interface ModelAddress { street: string; number: string; zip: string; city: string }
export interface ModelPerson { first: string; last: string; born?: string; title?: string }
export interface ModelHolder { company?: { fnr: string; spelled?: string; name: string; form: string }; person?: ModelPerson; firmFnr?: string }

export interface ModelLicence {
  gisaZahl: string;
  key: string;
  wording?: string;
  authority: [code: string, text: string];
  from: string;
  ended?: string;
  industrial?: boolean;
  dormant?: [from: string, until?: string];
  holder: ModelHolder;
  at: ModelAddress;
  /** Former locations, newest first: [address, from, ended]. */
  moved?: Array<[ModelAddress, string, string]>;
  /** Former entitlements, newest first: [key, wording, from, ended]. */
  formerly?: Array<[string, string, string, string]>;
  manager?: ModelPerson;
  formerManager?: [ModelPerson, string, string];
  /** Writer quirks: 'prefixB' (entities under prefix b:), 'defaultNs' (no prefix), 'offsetDates'. */
  quirks?: string[];
}

/** The trade catalogue: key, name, kind code (R reglementiert, F frei), historical. */
export const CATALOGUE: Array<[string, string, string, boolean?]> = [
  ['30100', 'Bäcker (Handwerk)', 'R'],
  ['110200', 'Güterbeförderung mit Kraftfahrzeugen oder Kraftfahrzeugen mit Anhängern', 'R'],
  ['240100', 'Gärtner; Florist (verbundenes Handwerk)', 'R'],
  ['250100', 'Gas- und Sanitärtechnik', 'R'],
  ['260100', 'Gastgewerbe', 'R'],
  ['290500', 'Baumeister, Brunnenmeister', 'R'],
  ['300200', 'Elektrotechnik', 'R'],
  ['330100', 'Herstellung und Aufbereitung sowie Vermietung von Medizinprodukten', 'R'],
  ['350100', 'Immobilientreuhänder (Immobilienmakler, Immobilienverwalter, Bauträger)', 'R'],
  ['400100', 'Konditoren (Zuckerbäcker) einschließlich der Lebzelter und der Kanditen-, Gefrorenes- und Schokoladewarenerzeugung (Handwerk)', 'R'],
  ['420100', 'Kosmetik (Schönheitspflege)', 'R'],
  ['500100', 'Milchtechnologie (Handwerk)', 'R'],
  ['560100', 'Reisebüros', 'R'],
  ['590001', 'Schlosser (Handwerk)', 'R', true],
  ['590100', 'Metalltechnik für Metall- und Maschinenbau; Metalltechnik für Schmiede und Fahrzeugbau; Metalltechnik für Land- und Baumaschinen (verbundenes Handwerk)', 'R'],
  ['599999', 'Handelsgewerbe mit Ausnahme der reglementierten Handelsgewerbe', 'F'],
  ['630100', 'Spediteure einschließlich der Transportagenten', 'R'],
  ['710100', 'Tischler; Modellbauer; Bootsbauer; Binder; Drechsler; Bildhauer (verbundenes Handwerk)', 'R'],
  ['740100', 'Unternehmensberatung einschließlich der Unternehmensorganisation', 'R'],
  ['820100', 'Holzbau-Meister', 'R'],
  ['900100', 'Dienstleistungen in der automatischen Datenverarbeitung und Informationstechnik', 'F'],
  ['900200', 'Werbeagentur', 'F'],
  ['900300', 'Vermietung von beweglichen Sachen', 'F'],
  ['900400', 'Verleih von Fahrrädern', 'F'],
  ['900500', 'Fußpflege und Massage (Teilgewerbe)', 'F', true],
];

export const KINDS: Array<[string, string]> = [['F', 'frei'], ['R', 'reglementiert']];

const a = (street: string, number: string, zip: string, city: string): ModelAddress => ({ street, number, zip, city });
const co = (fnr: string, name: string, form = 'GmbH', spelled?: string): ModelHolder => ({ company: { fnr, name, form, spelled } });
const LINZ: [string, string] = ['401', 'Magistrat der Stadt Linz'];
const WIEN: [string, string] = ['900', 'Magistrat der Stadt Wien'];
const GRAZ: [string, string] = ['601', 'Magistrat der Stadt Graz'];

const leitner: ModelPerson = { first: 'Gerhard', last: 'Leitner', born: '1966-02-21' };
const horvath: ModelPerson = { first: 'Andreas', last: 'Horvath', born: '1978-06-22' };

/** Licences of companies (27) and of sole traders the register names (7), plus one namesake nobody asks for. */
export const LICENCES: ModelLicence[] = [
  // 412785m Bergblick Tischlerei GmbH
  { gisaZahl: '100000016', key: '710100', wording: 'Tischler', authority: ['709', 'Bezirkshauptmannschaft Schwaz'], from: '2004-03-01', holder: co('412785m', 'Bergblick Tischlerei GmbH'), at: a('Innsbrucker Straße', '44', '6130', 'Schwaz') },
  { gisaZahl: '100000023', key: '599999', authority: ['709', 'Bezirkshauptmannschaft Schwaz'], from: '2010-07-12', holder: co('412785m', 'Bergblick Tischlerei GmbH', 'GmbH', '412785 m'), at: a('Innsbrucker Straße', '44', '6130', 'Schwaz'), quirks: ['prefixB'] },
  // 287541f Alpenländische Metallbau GmbH: the key changed when the trade was renamed (history)
  { gisaZahl: '100000030', key: '590100', wording: 'Metalltechnik für Metall- und Maschinenbau', authority: ['611', 'Bezirkshauptmannschaft Leoben'], from: '2013-06-01', holder: co('287541f', 'Alpenländische Metallbau GmbH', 'GmbH', '287541F'), at: a('Kerpelystraße', '15', '8700', 'Leoben'), formerly: [['590001', 'Schlosser', '1998-04-15', '2013-05-31']] },
  { gisaZahl: '100000047', key: '599999', authority: ['611', 'Bezirkshauptmannschaft Leoben'], from: '1998-04-15', industrial: true, holder: co('287541f', 'Alpenländische Metallbau GmbH'), at: a('Kerpelystraße', '15', '8700', 'Leoben') },
  // 33918f Wienerwald Bau- und Handelsgesellschaft m.b.H.: manager Gerhard Leitner (a register person)
  { gisaZahl: '100000054', key: '290500', wording: 'Baumeister', authority: ['324', 'Bezirkshauptmannschaft St. Pölten'], from: '1995-09-01', holder: co('33918f', 'Wienerwald Bau- und Handelsgesellschaft m.b.H.', 'GmbH', 'FN 33918f'), at: a('Wiener Straße', '12', '3002', 'Purkersdorf'), manager: leitner, formerManager: [{ first: 'Walter', last: 'Leitner', born: '1940-03-03' }, '1995-09-01', '2010-12-31'] },
  { gisaZahl: '100000061', key: '599999', authority: ['324', 'Bezirkshauptmannschaft St. Pölten'], from: '1995-09-01', holder: co('33918f', 'Wienerwald Bau- und Handelsgesellschaft m.b.H.', 'GmbH', '033918f'), at: a('Wiener Straße', '12', '3002', 'Purkersdorf'), quirks: ['offsetDates'] },
  { gisaZahl: '100000078', key: '820100', wording: 'Holzbau-Meister', authority: ['324', 'Bezirkshauptmannschaft St. Pölten'], from: '2012-02-01', ended: '2024-03-31', holder: co('33918f', 'Wienerwald Bau- und Handelsgesellschaft m.b.H.'), at: a('Wiener Straße', '12', '3002', 'Purkersdorf') },
  // 98231h Donautal Logistik AG: moved twice; a dormant trade; a former manager
  { gisaZahl: '100000085', key: '630100', authority: LINZ, from: '2001-01-15', holder: co('98231h', 'Donautal Logistik AG', 'AG'), at: a('Industriezeile', '28', '4020', 'Linz'), manager: { first: 'Karl', last: 'Reiter', born: '1955-01-30' } },
  { gisaZahl: '100000092', key: '110200', authority: LINZ, from: '2001-01-15', holder: co('98231h', 'Donautal Logistik AG', 'AG'), at: a('Industriezeile', '28', '4020', 'Linz'), moved: [[a('Hafenstraße', '47', '4020', 'Linz'), '2008-05-01', '2019-10-31'], [a('Wiener Straße', '131', '4020', 'Linz'), '2001-01-15', '2008-04-30']], quirks: ['defaultNs'] },
  { gisaZahl: '100000108', key: '599999', authority: LINZ, from: '2003-02-03', dormant: ['2025-01-01'], holder: co('98231h', 'Donautal Logistik AG', 'AG'), at: a('Industriezeile', '28', '4020', 'Linz') },
  // 187233v Donauufer Transporte GmbH (deleted): its only licence ended with the merger
  { gisaZahl: '100000115', key: '110200', authority: ['302', 'Magistrat der Stadt Wiener Neustadt'], from: '1999-11-02', ended: '2026-09-30', holder: co('187233v', 'Donauufer Transporte GmbH'), at: a('Neunkirchner Straße', '88', '2700', 'Wiener Neustadt') },
  // 73210m Pannonia Elektrotechnik GmbH: manager Andreas Horvath; a dormant second trade with an end of dormancy
  { gisaZahl: '100000122', key: '300200', authority: ['101', 'Magistrat der Freistadt Eisenstadt'], from: '2007-05-21', holder: co('73210m', 'Pannonia Elektrotechnik GmbH'), at: a('Ruster Straße', '70', '7000', 'Eisenstadt'), manager: horvath },
  { gisaZahl: '100000139', key: '250100', authority: ['101', 'Magistrat der Freistadt Eisenstadt'], from: '2015-03-02', dormant: ['2023-01-01', '2027-12-31'], holder: co('73210m', 'Pannonia Elektrotechnik GmbH'), at: a('Ruster Straße', '70', '7000', 'Eisenstadt') },
  // 156207t Tauernkraft Energiehandel GmbH
  { gisaZahl: '100000146', key: '599999', authority: ['501', 'Magistrat der Stadt Salzburg'], from: '2009-10-01', holder: co('156207t', 'Tauernkraft Energiehandel GmbH'), at: a('Sterneckstraße', '55', '5020', 'Salzburg') },
  { gisaZahl: '100000153', key: '740100', authority: ['501', 'Magistrat der Stadt Salzburg'], from: '2016-04-11', holder: co('156207t', 'Tauernkraft Energiehandel GmbH'), at: a('Sterneckstraße', '55', '5020', 'Salzburg') },
  // 584120a Kaiserblick Café-Konditorei GmbH: manager Florian Weber; the café moved
  { gisaZahl: '100000160', key: '400100', wording: 'Konditoren (Zuckerbäcker)', authority: WIEN, from: '2011-08-01', holder: co('584120a', 'Kaiserblick Café-Konditorei GmbH'), at: a('Schönbrunner Straße', '118', '1050', 'Wien'), manager: { first: 'Florian', last: 'Weber', born: '1986-01-12' } },
  { gisaZahl: '100000177', key: '260100', wording: 'Gastgewerbe in der Betriebsart Kaffeehaus', authority: WIEN, from: '2011-08-01', holder: co('584120a', 'Kaiserblick Café-Konditorei GmbH'), at: a('Schönbrunner Straße', '118', '1050', 'Wien'), moved: [[a('Margaretenstraße', '9', '1040', 'Wien'), '2011-08-01', '2016-02-29']] },
  // 46012s Seewinkel Weinbau und Vertrieb GmbH: the Heuriger closed
  { gisaZahl: '100000184', key: '599999', authority: ['107', 'Bezirkshauptmannschaft Neusiedl am See'], from: '2002-06-03', holder: co('46012s', 'Seewinkel Weinbau und Vertrieb GmbH'), at: a('Untere Hauptstraße', '41', '7122', 'Gols') },
  { gisaZahl: '100000191', key: '260100', wording: 'Gastgewerbe in der Betriebsart Buschenschank mit Ausschank', authority: ['107', 'Bezirkshauptmannschaft Neusiedl am See'], from: '2002-06-03', ended: '2020-12-31', holder: co('46012s', 'Seewinkel Weinbau und Vertrieb GmbH'), at: a('Untere Hauptstraße', '41', '7122', 'Gols') },
  // 421877h Salzach Medizintechnik AG
  { gisaZahl: '100000207', key: '330100', authority: ['502', 'Bezirkshauptmannschaft Hallein'], from: '2005-02-14', industrial: true, holder: co('421877h', 'Salzach Medizintechnik AG', 'AG'), at: a('Salzachtalstraße', '9', '5400', 'Hallein') },
  { gisaZahl: '100000214', key: '599999', authority: ['502', 'Bezirkshauptmannschaft Hallein'], from: '2005-02-14', holder: co('421877h', 'Salzach Medizintechnik AG', 'AG'), at: a('Salzachtalstraße', '9', '5400', 'Hallein') },
  // 301466h Gastro Zum Goldenen Hirschen GmbH: the wording changed (history under the same key)
  { gisaZahl: '100000221', key: '260100', wording: 'Gastgewerbe in der Betriebsart Gasthaus mit Beherbergung', authority: ['202', 'Magistrat der Stadt Villach'], from: '2019-05-01', holder: co('301466h', 'Gastro Zum Goldenen Hirschen GmbH'), at: a('Hauptplatz', '7', '9500', 'Villach'), formerly: [['260100', 'Gastgewerbe in der Betriebsart Gasthaus', '2014-03-01', '2019-04-30']] },
  // 640215v Innviertler Solartechnik GmbH
  { gisaZahl: '100000238', key: '300200', authority: ['412', 'Bezirkshauptmannschaft Ried im Innkreis'], from: '2018-09-03', holder: co('640215v', 'Innviertler Solartechnik GmbH'), at: a('Eberschwanger Straße', '3', '4910', 'Ried im Innkreis'), manager: { first: 'Lukas', last: 'Hofer', born: '1991-07-23' } },
  { gisaZahl: '100000245', key: '599999', authority: ['412', 'Bezirkshauptmannschaft Ried im Innkreis'], from: '2018-09-03', holder: co('640215v', 'Innviertler Solartechnik GmbH'), at: a('Eberschwanger Straße', '3', '4910', 'Ried im Innkreis') },
  // 512308w Hallstätter Seehotel GmbH & Co KG
  { gisaZahl: '100000252', key: '260100', wording: 'Gastgewerbe in der Betriebsart Hotel', authority: ['407', 'Bezirkshauptmannschaft Gmunden'], from: '1987-05-01', holder: co('512308w', 'Hallstätter Seehotel GmbH & Co KG', 'KG'), at: a('Seestraße', '104', '4830', 'Hallstatt') },
  { gisaZahl: '100000269', key: '560100', authority: ['407', 'Bezirkshauptmannschaft Gmunden'], from: '2012-04-01', holder: co('512308w', 'Hallstätter Seehotel GmbH & Co KG', 'KG'), at: a('Seestraße', '104', '4830', 'Hallstatt') },
  // 45678z Huber & Gruber OG
  { gisaZahl: '100000276', key: '900200', authority: GRAZ, from: '2016-01-04', holder: co('45678z', 'Huber & Gruber OG', 'OG', '045678z'), at: a('Griesgasse', '10', '8020', 'Graz') },
  { gisaZahl: '100000283', key: '900100', authority: GRAZ, from: '2016-01-04', holder: co('45678z', 'Huber & Gruber OG', 'OG'), at: a('Griesgasse', '10', '8020', 'Graz') },
  // 501112f Blumen Höfer e.U.: the holder is the sole trader; the register firm links the licences to the e.U.
  { gisaZahl: '100000290', key: '240100', wording: 'Florist', authority: ['313', 'Magistrat der Stadt Krems an der Donau'], from: '2019-03-18', holder: { person: { first: 'Theresia', last: 'Höfer', born: '1993-08-29' }, firmFnr: '501112 f' }, at: a('Obere Landstraße', '21', '3500', 'Krems an der Donau') },
  { gisaZahl: '100000306', key: '599999', authority: ['313', 'Magistrat der Stadt Krems an der Donau'], from: '2019-03-18', holder: { person: { first: 'Theresia', last: 'Höfer', born: '1993-08-29' }, firmFnr: '501112f' }, at: a('Obere Landstraße', '21', '3500', 'Krems an der Donau') },
  // 87345z Raiffeisen-Lagerhaus Mostviertel eGen
  { gisaZahl: '100000313', key: '599999', authority: ['305', 'Bezirkshauptmannschaft Amstetten'], from: '1976-01-01', holder: co('87345z', 'Raiffeisen-Lagerhaus Mostviertel eGen', 'Gen'), at: a('Waidhofner Straße', '2', '3300', 'Amstetten') },
  { gisaZahl: '100000320', key: '250100', authority: ['305', 'Bezirkshauptmannschaft Amstetten'], from: '1994-07-01', holder: co('87345z', 'Raiffeisen-Lagerhaus Mostviertel eGen', 'Gen'), at: a('Waidhofner Straße', '2', '3300', 'Amstetten') },
  { gisaZahl: '100000337', key: '900300', authority: ['305', 'Bezirkshauptmannschaft Amstetten'], from: '2001-03-01', holder: co('87345z', 'Raiffeisen-Lagerhaus Mostviertel eGen', 'Gen'), at: a('Waidhofner Straße', '2', '3300', 'Amstetten') },
  // 17742t Ötztaler Bergbahnen AG: the travel agency ended
  { gisaZahl: '100000344', key: '260100', wording: 'Gastgewerbe in der Betriebsart Schutzhütte', authority: ['702', 'Bezirkshauptmannschaft Imst'], from: '1972-12-01', holder: co('17742t', 'Ötztaler Bergbahnen AG', 'AG'), at: a('Dorfstraße', '115', '6450', 'Sölden'), manager: { first: 'Lukas', last: 'Fiegl', born: '1979-01-01' } },
  { gisaZahl: '100000351', key: '900300', wording: 'Vermietung von Wintersportgeräten', authority: ['702', 'Bezirkshauptmannschaft Imst'], from: '1990-11-15', holder: co('17742t', 'Ötztaler Bergbahnen AG', 'AG'), at: a('Dorfstraße', '115', '6450', 'Sölden') },
  { gisaZahl: '100000368', key: '560100', authority: ['702', 'Bezirkshauptmannschaft Imst'], from: '1995-06-01', ended: '2018-06-30', holder: co('17742t', 'Ötztaler Bergbahnen AG', 'AG'), at: a('Dorfstraße', '115', '6450', 'Sölden') },
  // 124530h Wörthersee Schifffahrt GmbH
  { gisaZahl: '100000375', key: '260100', wording: 'Gastgewerbe in der Betriebsart Bordrestaurant', authority: ['201', 'Magistrat der Stadt Klagenfurt am Wörthersee'], from: '1990-04-01', holder: co('124530h', 'Wörthersee Schifffahrt GmbH'), at: a('Friedelstrand', '3', '9020', 'Klagenfurt am Wörthersee') },
  { gisaZahl: '100000382', key: '560100', authority: ['201', 'Magistrat der Stadt Klagenfurt am Wörthersee'], from: '2003-05-15', holder: co('124530h', 'Wörthersee Schifffahrt GmbH'), at: a('Friedelstrand', '3', '9020', 'Klagenfurt am Wörthersee') },
  // 330871a Süßwarenmanufaktur Maß & Söhne Gesellschaft m.b.H.
  { gisaZahl: '100000399', key: '400100', authority: WIEN, from: '1958-10-01', industrial: true, holder: co('330871a', 'Süßwarenmanufaktur Maß & Söhne Gesellschaft m.b.H.'), at: a('Mariahilfer Straße', '47', '1060', 'Wien'), manager: { first: 'Christian', last: 'Maß', born: '1984-02-28' } },
  { gisaZahl: '100000405', key: '599999', authority: WIEN, from: '1958-10-01', holder: co('330871a', 'Süßwarenmanufaktur Maß & Söhne Gesellschaft m.b.H.'), at: a('Mariahilfer Straße', '47', '1060', 'Wien') },
  // 455190y Mühlviertler Holzhandel GmbH: carpentry dormant
  { gisaZahl: '100000412', key: '599999', authority: ['406', 'Bezirkshauptmannschaft Freistadt'], from: '2000-02-01', holder: co('455190y', 'Mühlviertler Holzhandel GmbH'), at: a('Linzer Straße', '31', '4240', 'Freistadt') },
  { gisaZahl: '100000429', key: '820100', authority: ['406', 'Bezirkshauptmannschaft Freistadt'], from: '2006-09-01', dormant: ['2021-07-01', '2026-06-30'], holder: co('455190y', 'Mühlviertler Holzhandel GmbH'), at: a('Linzer Straße', '31', '4240', 'Freistadt') },
  // 266043s Bregenzerwald Käserei GmbH
  { gisaZahl: '100000436', key: '500100', wording: 'Molker und Käser', authority: ['802', 'Bezirkshauptmannschaft Bregenz'], from: '1991-05-02', industrial: false, holder: co('266043s', 'Bregenzerwald Käserei GmbH'), at: a('Loco', '612', '6863', 'Egg') },
  { gisaZahl: '100000443', key: '599999', authority: ['802', 'Bezirkshauptmannschaft Bregenz'], from: '1991-05-02', holder: co('266043s', 'Bregenzerwald Käserei GmbH'), at: a('Loco', '612', '6863', 'Egg') },
  // 667215z Steyrtal Lastenrad GmbH (new company)
  { gisaZahl: '100000450', key: '900400', authority: ['402', 'Magistrat der Stadt Steyr'], from: '2026-10-05', holder: co('667215z', 'Steyrtal Lastenrad GmbH'), at: a('Stadtplatz', '17', '4400', 'Steyr') },
  { gisaZahl: '100000467', key: '599999', wording: 'Handel mit Fahrrädern und Fahrradzubehör', authority: ['402', 'Magistrat der Stadt Steyr'], from: '2026-10-05', holder: co('667215z', 'Steyrtal Lastenrad GmbH'), at: a('Stadtplatz', '17', '4400', 'Steyr') },
  // 402287z Korneuburger Werftareal Projektentwicklungs GmbH: a manager the register does not name
  { gisaZahl: '100000474', key: '350100', wording: 'Immobilientreuhänder eingeschränkt auf Bauträger', authority: ['312', 'Bezirkshauptmannschaft Korneuburg'], from: '2020-01-15', holder: co('402287z', 'Korneuburger Werftareal Projektentwicklungs GmbH'), at: a('Am Hafen', '6', '2100', 'Korneuburg'), manager: { first: 'Peter', last: 'Zach', born: '1970-01-01', title: 'Ing.' } },
  { gisaZahl: '100000481', key: '290500', wording: 'Baumeister', authority: ['312', 'Bezirkshauptmannschaft Korneuburg'], from: '2021-06-01', holder: co('402287z', 'Korneuburger Werftareal Projektentwicklungs GmbH'), at: a('Am Hafen', '6', '2100', 'Korneuburg'), manager: { first: 'Peter', last: 'Zach', born: '1970-01-01', title: 'Ing.' } },
  // 600001f Großglockner Brauerei GmbH, 600002g Tauern Kunststofftechnik, 600003h Tauern Getränkehandel
  { gisaZahl: '100000498', key: '260100', wording: 'Gastgewerbe in der Betriebsart Brauereigasthof', authority: GRAZ, from: '2010-01-01', holder: co('600001f', 'Großglockner Brauerei GmbH'), at: a('Industriestraße', '73', '8010', 'Graz') },
  { gisaZahl: '100000504', key: '900100', authority: ['412', 'Bezirkshauptmannschaft Ried im Innkreis'], from: '2012-03-01', holder: co('600002g', 'Tauern Kunststofftechnik Ges.m.b.H.'), at: a('Gewerbepark', '3', '4910', 'Ried im Innkreis') },
  { gisaZahl: '100000511', key: '599999', authority: ['412', 'Bezirkshauptmannschaft Ried im Innkreis'], from: '2012-03-01', holder: co('600002g', 'Tauern Kunststofftechnik Ges.m.b.H.'), at: a('Gewerbepark', '3', '4910', 'Ried im Innkreis') },
  { gisaZahl: '100000528', key: '599999', wording: 'Großhandel mit Getränken', authority: ['403', 'Magistrat der Stadt Wels'], from: '2014-11-03', holder: co('600003h', 'Tauern Getränkehandel GmbH'), at: a('Hauptplatz', '93', '4600', 'Wels') },
  // 211904z Steirische Industrieholding AG: consulting ended
  { gisaZahl: '100000535', key: '740100', authority: GRAZ, from: '2008-01-01', ended: '2022-12-31', holder: co('211904z', 'Steirische Industrieholding Aktiengesellschaft', 'AG'), at: a('Annenstraße', '20', '8020', 'Graz') },
  // Sole traders the register names with a birth date (found by SearchPersonNat)
  { gisaZahl: '100000542', key: '740100', authority: ['324', 'Bezirkshauptmannschaft St. Pölten'], from: '2011-01-10', holder: { person: leitner }, at: a('Wiener Straße', '12', '3002', 'Purkersdorf') },
  { gisaZahl: '100000559', key: '599999', authority: ['324', 'Bezirkshauptmannschaft St. Pölten'], from: '1990-04-01', ended: '2019-12-31', holder: { person: leitner }, at: a('Hauptstraße', '2', '3002', 'Purkersdorf') },
  { gisaZahl: '100000566', key: '420100', authority: ['317', 'Bezirkshauptmannschaft Mödling'], from: '2008-09-15', dormant: ['2024-02-01'], holder: { person: { first: 'Sabine', last: 'Koller', born: '1979-11-30' } }, at: a('Enzersdorfer Straße', '5', '2340', 'Mödling') },
  { gisaZahl: '100000573', key: '300200', authority: ['101', 'Magistrat der Freistadt Eisenstadt'], from: '2005-01-03', holder: { person: horvath }, at: a('Kalvarienbergplatz', '3', '7000', 'Eisenstadt') },
  { gisaZahl: '100000580', key: '900200', authority: GRAZ, from: '2014-06-01', holder: { person: { first: 'Stefan', last: 'Huber', born: '1980-02-02' } }, at: a('Griesgasse', '10', '8020', 'Graz') },
  { gisaZahl: '100000597', key: '599999', wording: 'Handel mit Wein und Spirituosen', authority: ['107', 'Bezirkshauptmannschaft Neusiedl am See'], from: '1992-03-01', holder: { person: { first: 'Franz', last: 'Wachter', born: '1962-08-14' } }, at: a('Seefeldstraße', '12', '7122', 'Gols'), moved: [[a('Neubaugasse', '3', '7122', 'Gols'), '1992-03-01', '2004-12-31']] },
  { gisaZahl: '100000603', key: '820100', authority: ['406', 'Bezirkshauptmannschaft Freistadt'], from: '1995-10-01', ended: '2015-09-30', holder: { person: { first: 'Karl', last: 'Lang', born: '1969-04-04' } }, at: a('Böhmergasse', '8', '4240', 'Freistadt') },
  // A namesake of Gerhard Leitner with another birth date: a search by name and birth date must not find it.
  { gisaZahl: '100000610', key: '260100', authority: LINZ, from: '2001-05-01', holder: { person: { first: 'Gerhard', last: 'Leitner', born: '1970-05-05' } }, at: a('Landstraße', '1', '4020', 'Linz') },
];
