import { describe, expect, it } from 'vitest';
import { canonicalFnr, fnrCheckLetter, fnrFilterValue, personId, personIdSpellings, registerDate } from '../../schemas/identifiers.js';

describe('canonicalFnr', () => {
  it.each([
    ['030435h', '30435h'],
    ['30435 h', '30435h'],
    ['FN 30435 H', '30435h'],
    ['436634I', '436634i'],
    ['  5h ', '5h'],
  ])('normalises %s to %s', (raw, expected) => {
    expect(canonicalFnr(raw)?.fnr).toBe(expected);
  });

  it('validates the check letter against the 25 real FNs of the sources', () => {
    for (const fn of ['030435h', '433826f', '145733p', '304188k', '629a', '5h', '73589w', '257770z', '678606a', '597821z', '122944a', '160573m', '033209m']) {
      expect(canonicalFnr(fn)?.checkLetterValid, fn).toBe(true);
    }
  });

  it('keeps a value with a wrong check letter but flags it', () => {
    expect(canonicalFnr('30435x')).toEqual({ fnr: '30435x', checkLetterValid: false });
  });

  it('rejects values that are no FN', () => {
    expect(canonicalFnr('abc')).toBeNull();
    expect(canonicalFnr('1234567a')).toBeNull();
    expect(canonicalFnr('')).toBeNull();
  });

  it('computes the letter as N mod 17', () => {
    expect(fnrCheckLetter(123456)).toBe('d');
  });
});

describe('fnrFilterValue', () => {
  it('trims, removes spaces and leading zeros, never folds case', () => {
    expect(fnrFilterValue(' 034853 f ')).toBe('34853f');
    expect(fnrFilterValue('34853F')).toBe('34853F');
  });
});

describe('personId', () => {
  it('builds firstname-lastname-birthdate in lower case with umlauts kept', () => {
    expect(personId('Jürgen', 'Müller', '1970-02-01')).toBe('jürgen-müller-1970-02-01');
    expect(personId('Anna Maria', 'Huber', null)).toBe('anna-maria-huber-x');
    expect(personId(null, 'Huber', null)).toBe('x-huber-x');
  });
});

describe('registerDate', () => {
  it('accepts YYYYMMDD, ISO and German dates', () => {
    expect(registerDate('19700101')).toBe('1970-01-01');
    expect(registerDate('2023-01-01')).toBe('2023-01-01');
    expect(registerDate('2023-01-01T00:00:00+01:00')).toBe('2023-01-01');
    expect(registerDate('4.3.2025')).toBe('2025-03-04');
  });
  it('rejects impossible dates', () => {
    expect(registerDate('20230231')).toBeNull();
    expect(registerDate('soon')).toBeNull();
  });
});

describe('personIdSpellings', () => {
  it('spells umlauts, ß and accents every way person_id_fold() maps alike, both ways', () => {
    const mueller = personIdSpellings('hans-müller-1970-01-01');
    expect(mueller).toEqual(expect.arrayContaining(['hans-müller-1970-01-01', 'hans-mueller-1970-01-01', 'hans-muller-1970-01-01']));
    expect(personIdSpellings('johann-gruener-1952-06-16')).toContain('johann-grüner-1952-06-16');
    expect(personIdSpellings('franz-strauss-x')).toContain('franz-strauß-x');
    expect(personIdSpellings('josé-garcía-x')).toContain('jose-garcia-x');
    expect(mueller).not.toContain('hans-miller-1970-01-01');
  });

  it('keeps plain vowels as written when spelling them all would be too many', () => {
    const many = personIdSpellings('maria-theresia-oberhuber-schoenauer-1980-01-01');
    expect(many.length).toBeLessThanOrEqual(512);
    expect(many).toContain('maria-theresia-oberhuber-schönauer-1980-01-01');
  });
});
