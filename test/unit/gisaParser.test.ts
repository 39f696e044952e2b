// The GISA readers on the fixture files, each against the record checked in beside it
// (fixtures/corpus/gisa/expected, fixtures/gisa/*.expected.json), and the coded errors.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnrecoverableInputError } from '../../pipeline/jobs/errors.js';
import {
  parseApikeyInfo, parseAuszugStatus, parseGetGewerbeV2, parseKatalogGewerbeart, parseKatalogGewerbeschluessel, parseSearchPerson, parseStartAuszug,
} from '../../pipeline/gisa/gewerbeParser.js';
import { buildInput, parseAnswer, GisaResponseParseError } from '../../pipeline/gisa/gisaXml.js';

const CORPUS = new URL('../../fixtures/corpus/gisa/', import.meta.url).pathname;
const MESSAGES = new URL('../../fixtures/gisa/', import.meta.url).pathname;
const read = (path: string) => readFileSync(path, 'utf8');
const licences = readdirSync(join(CORPUS, 'gewerbe')).filter((f) => f.endsWith('.xml')).sort();

describe('GetGewerbeV2 fixtures', () => {
  it('cover at least 40 licences of 25 companies, with ended, dormant, history, sole traders and shared keys', () => {
    const records = licences.map((f) => JSON.parse(read(join(CORPUS, 'expected', f.replace('.xml', '.json')))) as ReturnType<typeof parseGetGewerbeV2>);
    const companies = new Set(records.filter((r) => r.holder.type === 'legal').map((r) => r.holder.fnr));
    expect(records.length).toBeGreaterThanOrEqual(40);
    expect(companies.size).toBeGreaterThanOrEqual(25);
    expect(records.some((r) => r.endedOn)).toBe(true);
    expect(records.some((r) => r.isDormant && r.dormantUntil)).toBe(true);
    expect(records.some((r) => r.history.length > 0 && r.locationHistory.length === 0)).toBe(true);
    expect(records.some((r) => r.locationHistory.length > 1)).toBe(true);
    expect(records.filter((r) => r.holder.type === 'natural' && r.holder.fnr === null).length).toBeGreaterThanOrEqual(5);
    expect(records.filter((r) => r.tradeKey === '599999').length).toBeGreaterThan(10);
  });

  it.each(licences)('%s reads as its expected record', (file) => {
    const answer = parseAnswer('GetGewerbeV2', read(join(CORPUS, 'gewerbe', file)));
    expect(answer.returncode).toBe('OK');
    const expected = JSON.parse(read(join(CORPUS, 'expected', file.replace('.xml', '.json'))));
    expect(parseGetGewerbeV2(answer.root)).toEqual(expected);
  });

  it('reads an answer that starts with a byte-order mark as the same record', () => {
    const file = licences[0]!;
    const answer = parseAnswer('GetGewerbeV2', `\uFEFF${read(join(CORPUS, 'gewerbe', file))}`);
    expect(parseGetGewerbeV2(answer.root)).toEqual(JSON.parse(read(join(CORPUS, 'expected', file.replace('.xml', '.json')))));
  });

  it('keeps an FBNummer whose check letter fails, with a warning', () => {
    const text = read(join(CORPUS, 'gewerbe', licences[0]!)).replace(/(FBNummer>)412785m</, '$1412785a<');
    const record = parseGetGewerbeV2(parseAnswer('GetGewerbeV2', text).root);
    expect(record.holder.fnr).toBe('412785a');
    expect(record.warnings).toEqual(['FBNummer "412785a" has a check letter that does not match its digits']);
  });

  // GISA-V2 (upstream-interfaces.md §3.3): a `Historisch` wrapper holds the older entities newest first.
  const standort = (street: string, from: string | null, ended: string | null) => `<a:Standort><a:AlternativeBezeichnung i:nil="true"/>${
    ended ? `<a:EndigungDatum>${ended}T00:00:00</a:EndigungDatum>` : '<a:EndigungDatum i:nil="true"/>'}<a:Postadresse><a:Ort>Gols</a:Ort><a:Orientierungsnummer>1</a:Orientierungsnummer><a:PLZ>7122</a:PLZ><a:Strassenname>${street}</a:Strassenname></a:Postadresse>${
    from ? `<a:RechtswirksamAb>${from}T00:00:00</a:RechtswirksamAb>` : '<a:RechtswirksamAb i:nil="true"/>'}</a:Standort>`;
  const withPlaces = (places: string) => read(join(CORPUS, 'gewerbe', '100000597.xml')).replace(/<a:StandortDaten>[\s\S]*<\/a:StandortDaten>/, `<a:StandortDaten>${places}</a:StandortDaten>`);
  const at = (street: string, from: string | null, ended: string | null) => ({ street: `${street} 1`, zipCode: '7122', city: 'Gols', effectiveFrom: from, endedOn: ended });

  it('keeps the Standort Historisch entries in GISA\'s order, newest first, also where an entry has no dates', () => {
    const text = withPlaces(standort('Seefeldstraße', '2005-01-01', null)
      + `<a:Historisch>${standort('Kellergasse', null, null)}${standort('Neubaugasse', '1998-07-01', '2004-12-31')}${standort('Untere Hauptstraße', '1992-03-01', '1998-06-30')}</a:Historisch>`);
    const record = parseGetGewerbeV2(parseAnswer('GetGewerbeV2', text).root);
    expect(record.location).toEqual(at('Seefeldstraße', '2005-01-01', null));
    expect(record.locationHistory).toEqual([at('Kellergasse', null, null), at('Neubaugasse', '1998-07-01', '2004-12-31'), at('Untere Hauptstraße', '1992-03-01', '1998-06-30')]);
  });

  it('without a current Standort the newest Historisch entry is the location, the older ones its history', () => {
    const text = withPlaces(`<a:Historisch>${standort('Seefeldstraße', '2005-01-01', '2019-12-31')}${standort('Neubaugasse', '1992-03-01', '2004-12-31')}</a:Historisch>`);
    const record = parseGetGewerbeV2(parseAnswer('GetGewerbeV2', text).root);
    expect(record.location).toEqual(at('Seefeldstraße', '2005-01-01', '2019-12-31'));
    expect(record.locationHistory).toEqual([at('Neubaugasse', '1992-03-01', '2004-12-31')]);
  });

  it('refuses an answer without a holder or without GISAZahl as unrecoverable input', () => {
    const text = read(join(CORPUS, 'gewerbe', licences[0]!));
    const noHolder = text.replace(/<a:InhaberDaten>[\s\S]*<\/a:InhaberDaten>/, '');
    expect(() => parseGetGewerbeV2(parseAnswer('GetGewerbeV2', noHolder).root)).toThrow(/names no holder/);
    const noZahl = text.replace(/<a:GISAZahl>\d+<\/a:GISAZahl>/, '');
    expect(() => parseGetGewerbeV2(parseAnswer('GetGewerbeV2', noZahl).root)).toThrow(UnrecoverableInputError);
  });
});

describe('other GISA answers', () => {
  it('reads a SearchPersonJur hit list as expected', () => {
    const answer = parseAnswer('SearchPersonJur', read(join(MESSAGES, 'search-person-jur-33918f.xml')));
    expect(parseSearchPerson(answer.root)).toEqual(JSON.parse(read(join(MESSAGES, 'search-person-jur-33918f.expected.json'))));
    expect(parseSearchPerson(parseAnswer('SearchPersonNat', read(join(MESSAGES, 'search-person-nat-empty.xml'))).root)).toEqual({ hits: [], capped: false });
  });

  it('reads both catalogues', () => {
    const keys = parseKatalogGewerbeschluessel(parseAnswer('GetKatalogGewerbeschluessel', read(join(CORPUS, 'katalog-gewerbeschluessel.xml'))).root);
    expect(keys.length).toBeGreaterThan(20);
    expect(keys.find((k) => k.tradeKey === '599999')).toEqual({ tradeKey: '599999', name: 'Handelsgewerbe mit Ausnahme der reglementierten Handelsgewerbe', kindCode: 'F', isHistorical: false });
    expect(keys.find((k) => k.tradeKey === '590001')?.isHistorical).toBe(true);
    const kinds = parseKatalogGewerbeart(parseAnswer('GetKatalogGewerbeart', read(join(CORPUS, 'katalog-gewerbeart.xml'))).root);
    expect(kinds).toEqual([{ code: 'F', name: 'frei', isHistorical: false }, { code: 'R', name: 'reglementiert', isHistorical: false }]);
  });

  it('reads the coded messages of Returncode=ERROR', () => {
    const answer = parseAnswer('GetGewerbeV2', read(join(MESSAGES, 'error-1000.xml')));
    expect(answer.returncode).toBe('ERROR');
    expect(answer.messages).toEqual([{ code: '1000', text: 'Die GISA-Zahl wurde nicht gefunden oder ist ungültig.', kind: 'F' }]);
    expect(parseAnswer('SearchPersonJur', read(join(MESSAGES, 'error-1050.xml'))).messages[0]!.code).toBe('1050');
  });

  it('reads the extract job, its status and the key info', () => {
    expect(parseStartAuszug(parseAnswer('StartGISAAuszug', read(join(MESSAGES, 'start-auszug.xml'))).root)).toBe(4711);
    expect(parseAuszugStatus(parseAnswer('GetAuszugStatus', read(join(MESSAGES, 'auszug-status-working.xml'))).root)).toBe('Working');
    expect(parseApikeyInfo(parseAnswer('GetApikeyInfo', read(join(MESSAGES, 'apikey-info.xml'))).root)).toEqual({ quotaDataPerMinute: 200, quotaExtractsPerMinute: 10, expiresOn: '2027-03-31' });
  });

  it('refuses another method\'s output and what is not XML', () => {
    expect(() => parseAnswer('GetAuszug', read(join(MESSAGES, 'start-auszug.xml')))).toThrow(GisaResponseParseError);
    expect(() => parseAnswer('GetAuszug', '<html><body>Service Unavailable')).toThrow(/not well-formed/);
  });

  it('refuses a well-formed answer nested 100,000 deep as unrecoverable input, not a retried fault', () => {
    const deep = `<GetGewerbeV2Output>${'<a>'.repeat(100_000)}x${'</a>'.repeat(100_000)}</GetGewerbeV2Output>`;
    const err = (() => { try { parseAnswer('GetGewerbeV2', deep); return null; } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(GisaResponseParseError);
    expect((err as Error).message).toMatch(/cannot be read/);
  });

  it('writes inputs with the key inside, members in ordinal order, booleans as t/f', () => {
    const xml = buildInput('SearchPersonJur', 'k&y', { SearchPhonetisch: false, Firmenbuchnummer: '33918f', SearchHistorisch: true, Name: null });
    expect(xml).toContain('<SearchPersonJurInput xmlns="http://schemas.datacontract.org/2004/07/GISA.Public.Service.V2"><Apikey>k&amp;y</Apikey><Firmenbuchnummer>33918f</Firmenbuchnummer><SearchHistorisch>t</SearchHistorisch><SearchPhonetisch>f</SearchPhonetisch></SearchPersonJurInput>');
  });
});
