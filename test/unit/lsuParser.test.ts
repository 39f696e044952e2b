// The BMF list parser (pipeline/bmf/lsuParser.ts): every list fixture parses to exactly its expected
// file, and each quirk of the format (upstream-interfaces.md §5.1) and each column mix-up of the
// hand-kept list has a test of its own on a one-row list.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LsuParseError, atUidCheckDigitValid, listingKey, listingsOf, lsuListComplete, parseLsuList } from '../../pipeline/bmf/lsuParser.js';

const LISTS = new URL('../../fixtures/corpus/bmf/lists/', import.meta.url).pathname;
const HEADER = 'Name~ Anschrift~ Veröffentlichung~ Rechtskraft Bescheid~ Zeitpunkt als Scheinunternehmen~ Geburts-Datum~ Firmenbuch-Nr~ UID-Nr.~ Kennziffer des UR ';
const FOOTER = 'Stand:  01.10.2026 06:00:01';

/** A list of the given rows, as the BMF writes it (CRLF, a blank line before the footer). */
const list = (...rows: string[]) => [HEADER, ...rows, '', FOOTER, ''].join('\r\n');
/** The one row of a one-row list. */
const row = (line: string) => parseLsuList(list(line)).rows[0]!;
const company = (ids: string) => `Beispiel Bau GmbH~1100 Wien, Quellenstraße 145~14.02.2025~10.02.2025~ ~~${ids}`;

describe('list fixtures', () => {
  const files = readdirSync(LISTS).filter((f) => f.endsWith('.csv'));
  it('are there: two versions of at least 25 rows', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
  });
  it.each(files)('%s parses to exactly its expected file', (file) => {
    // The bytes are ISO-8859-1, as served; decoded as the client does.
    const text = new TextDecoder('windows-1252').decode(readFileSync(join(LISTS, file)));
    const expected = JSON.parse(readFileSync(join(LISTS, file.replace(/\.csv$/, '.expected.json')), 'utf8')) as unknown;
    const parsed = parseLsuList(text);
    expect(parsed.rows.length).toBeGreaterThanOrEqual(25);
    expect({ ...parsed, listings: listingsOf(parsed) }).toEqual(expected);
  });
});

describe('format quirks', () => {
  it('reads the header despite its stray spaces, and refuses another header', () => {
    expect(parseLsuList(list(company('1a~~'))).rows).toHaveLength(1);
    expect(() => parseLsuList(list(company('1a~~')).replace('UID-Nr.', 'USt-Id'))).toThrow(LsuParseError);
  });

  it('drops the extra trailing ~ of a row, and refuses a row of another width', () => {
    expect(row(`${company('30435h~ATU12345675~R133R5574')}~`)).toMatchObject({ fnr: '30435h', uid: 'ATU12345675', urCode: 'R133R5574' });
    expect(() => parseLsuList(list(`${company('30435h~ATU12345675~R133R5574')}~x`))).toThrow(/line 2: 10 columns/);
    expect(() => parseLsuList(list('Beispiel Bau GmbH~1100 Wien'))).toThrow(/line 2: 2 columns/);
  });

  it('reads "" and " " as empty', () => {
    const r = row('Beispiel Bau GmbH~1100 Wien, Quellenstraße 145~14.02.2025~10.02.2025~""~" "~""~ ~""');
    expect(r).toMatchObject({ deemedSince: null, birthDate: null, fnr: null, uid: null, urCode: null, kind: 'legal', warnings: [] });
  });

  it('decodes HTML entities in values', () => {
    const r = row('Bau &amp; Montage &quot;Profi&quot; GmbH~1210 Wien, Br&uuml;nner Stra&#223;e 77~22.11.2023~20.11.2023~ ~~~~&quot;R567Z890&quot;');
    expect(r).toMatchObject({ name: 'Bau & Montage "Profi" GmbH', street: 'Brünner Straße 77', urCode: 'R567Z890', warnings: [] });
  });

  it('takes the Stand: footer as the version, with any spacing, after a blank line', () => {
    expect(parseLsuList(list(company('~~'))).version).toBe('2026-10-01T06:00:01');
    expect(parseLsuList(`${HEADER}\n${company('~~')}\nStand: 1.2.2026 6:05:09`).version).toBe('2026-02-01T06:05:09');
  });

  it('tells a list without its footer from a whole one, and never reads it', () => {
    const whole = list(company('~~'), company('12345h~~'));
    expect(lsuListComplete(whole)).toBe(true);
    const cut = whole.slice(0, whole.indexOf('Stand:') + 9);
    expect(lsuListComplete(cut)).toBe(false);
    expect(lsuListComplete(whole.slice(0, 200))).toBe(false);
    expect(lsuListComplete('')).toBe(false);
    expect(() => parseLsuList(whole.slice(0, 200))).toThrow(/without its Stand: footer/);
  });

  it('refuses rows after a footer', () => {
    expect(() => parseLsuList(`${list(company('~~'))}${company('~~')}\r\n`)).toThrow(/without its Stand: footer/);
    expect(() => parseLsuList(list(company('~~'), 'Stand: 30.09.2026 06:00:01', company('12345h~~')))).toThrow(/line 4: text after the Stand: footer/);
  });

  it('accepts LF and CR line ends as well as CRLF', () => {
    expect(parseLsuList(list(company('~~')).replace(/\r\n/g, '\n')).rows).toHaveLength(1);
    expect(parseLsuList(list(company('~~')).replace(/\r\n/g, '\r')).rows).toHaveLength(1);
  });

  it('reads the address as zip code, city and street, and warns when it has no Austrian zip code', () => {
    expect(row(company('~~'))).toMatchObject({ zipCode: '1100', city: 'Wien', street: 'Quellenstraße 145' });
    expect(row('Donau Trans Kft.~H-9200 Mosonmagyaróvár, Fö utca 1~11.02.2025~05.02.2025~ ~~~~')).toMatchObject({ zipCode: null, warnings: ['address-without-zip'] });
  });

  it('warns about dates it cannot read and keeps the row', () => {
    const r = row('Beispiel Bau GmbH~1100 Wien~31.02.2025~10.02.2025~ ~~~~');
    expect(r).toMatchObject({ publishedOn: null, decisionFinalOn: '2025-02-10', warnings: ['published-on-unreadable'] });
  });
});

describe('column mix-ups of the hand-kept list', () => {
  it('swaps UID and Kennziffer back', () => {
    expect(row(company('597821z~R133R5574~ATU79209223'))).toMatchObject({ uid: 'ATU79209223', urCode: 'R133R5574', warnings: ['uid-kennziffer-swapped'] });
    expect(row(company('580355p~R134I594W~'))).toMatchObject({ uid: null, urCode: 'R134I594W', warnings: ['uid-kennziffer-swapped'] });
  });

  it('finds the FN in the Kennziffer column: moved, a duplicate cleared, or swapped with a Kennziffer', () => {
    expect(row(company('~ATU22903455~667215z'))).toMatchObject({ fnr: '667215z', urCode: null, warnings: ['fnr-in-kennziffer'] });
    expect(row(company('640215v~ATU77812208~640215v'))).toMatchObject({ fnr: '640215v', urCode: null, warnings: ['fnr-in-kennziffer'] });
    expect(row(company('R499A7702~ATU57993014~579930p'))).toMatchObject({ fnr: '579930p', urCode: 'R499A7702', warnings: ['fnr-kennziffer-swapped'] });
  });

  it('normalises an upper-case check letter, the FN prefix and leading zeros', () => {
    expect(row(company('436634I~~'))).toMatchObject({ fnr: '436634i', fnrCheckLetterValid: true, warnings: ['fnr-upper-case-letter'] });
    expect(row(company('156207T~~'))).toMatchObject({ fnr: '156207t', fnrCheckLetterValid: true, warnings: ['fnr-upper-case-letter'] });
    expect(row(company('FN 124530 h~~'))).toMatchObject({ fnr: '124530h', fnrCheckLetterValid: true, warnings: ['fnr-prefixed'] });
    expect(row(company('030435h~~'))).toMatchObject({ fnr: '30435h', warnings: [] });
  });

  it('keeps an FN with a wrong check letter as given, with a warning, and no FN from what is none', () => {
    expect(row(company('123456f~~'))).toMatchObject({ fnr: '123456f', fnrCheckLetterValid: false, warnings: ['fnr-check-letter'] });
    expect(row(company('HRB 4711~~'))).toMatchObject({ fnr: null, fnrCheckLetterValid: null, warnings: ['fnr-unreadable'] });
  });

  it('takes foreign VAT numbers as UID, from the Kennziffer column too', () => {
    expect(row(company('~~RO38488384'))).toMatchObject({ uid: 'RO38488384', urCode: null, warnings: ['foreign-vat'] });
    expect(row(company('~HU12345678~'))).toMatchObject({ uid: 'HU12345678', warnings: ['foreign-vat'] });
  });

  it('clears a Kennziffer that repeats the UID, and checks ATU check digits', () => {
    expect(row(company('~ATU80457319~ATU80457319'))).toMatchObject({ uid: 'ATU80457319', urCode: null, warnings: ['kennziffer-duplicates-uid'] });
    expect(atUidCheckDigitValid('ATU12345675')).toBe(true);
    expect(atUidCheckDigitValid('ATU12345678')).toBe(false);
    expect(row(company('~ATU12345678~'))).toMatchObject({ warnings: ['uid-check-digit'] });
    expect(row(company('~ATU123~XYZ'))).toMatchObject({ warnings: ['uid-unreadable', 'kennziffer-unreadable'] });
  });

  it('keeps a natural person (a birth date) as such', () => {
    expect(row('MUSTERMANN Max~1010 Wien, Stephansplatz 1~01.03.2024~28.02.2024~15.01.2024~15.05.1975~~ATU12345675~~')).toMatchObject({
      kind: 'natural', name: 'MUSTERMANN Max', birthDate: '1975-05-15', deemedSince: '2024-01-15', fnr: null, uid: 'ATU12345675', warnings: [],
    });
  });
});

describe('listings', () => {
  it('are keyed by FN, else UID, else name + address + decision date', () => {
    const base = { name: 'A  GmbH', address: '1100 Wien', decisionFinalOn: '2025-01-02' };
    expect(listingKey({ ...base, fnr: '30435h', uid: 'ATU12345675' })).toBe('fn:30435h');
    expect(listingKey({ ...base, fnr: null, uid: 'ATU12345675' })).toBe('uid:ATU12345675');
    expect(listingKey({ ...base, fnr: null, uid: null })).toBe('name:a gmbh|1100 wien|2025-01-02');
  });

  it('gather the publications of one company and report a repeated row', () => {
    const parsed = parseLsuList(list(
      company('30435h~~'),
      'Beispiel Bau GmbH~1100 Wien, Quellenstraße 150~01.06.2025~10.02.2025~ ~~FN 30435 h~~',
      company('30435h~~'),
    ));
    const [listing, ...others] = listingsOf(parsed);
    expect(others).toEqual([]);
    expect(listing).toMatchObject({ listingKey: 'fn:30435h', street: 'Quellenstraße 150', warnings: ['fnr-prefixed', 'duplicate-row'] });
    expect(listing!.publications.map((p) => p.publishedOn)).toEqual(['2025-02-14', '2025-06-01']);
  });
});
