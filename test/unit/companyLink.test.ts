// The linking scores (pipeline/linking/companyLink.ts): legal-form and street keys, and which matches
// are asserted (>= 0.9) and which are only candidates: namesakes elsewhere, deleted companies, another
// legal form, two equally good companies.
import { describe, expect, it } from 'vitest';
import { ASSERT_CONFIDENCE, legalFormKey, scoreMatches, streetKey, type CompanyMatch } from '../../pipeline/linking/companyLink.js';

const match = (over: Partial<CompanyMatch> & { fnr: string }): CompanyMatch => ({
  name: 'Beispiel Bau GmbH', status: 'active', norm: 'beispiel bau gmbh', core: 'beispiel bau', zipCode: '1100', street: 'Quellenstraße 145', ...over,
});
const subject = { norm: 'beispiel bau gmbh', core: 'beispiel bau', zipCode: '1100', street: 'Quellenstr. 145/3' };

describe('legalFormKey', () => {
  it('gives one key for the spellings of a form and keeps combined forms apart', () => {
    expect(legalFormKey('mueller bau ges m b h', 'mueller bau')).toBe('gmbh');
    expect(legalFormKey('mueller bau gesellschaft mit beschraenkter haftung', 'mueller bau')).toBe('gmbh');
    expect(legalFormKey('mueller bau gmbh', 'mueller bau')).toBe('gmbh');
    expect(legalFormKey('mueller bau gmbh co kg', 'mueller bau')).toBe('gmbh co kg');
    expect(legalFormKey('mueller bau kg', 'mueller bau')).toBe('kg');
    expect(legalFormKey('mueller bau', 'mueller bau')).toBeNull();
  });
});

describe('streetKey', () => {
  it('folds umlauts, Straße/Str. and door numbers', () => {
    expect(streetKey('Quellenstraße 145/3')).toBe('quellenstr145');
    expect(streetKey('Quellenstr. 145')).toBe('quellenstr145');
    expect(streetKey('Münzbergstrasse 3a')).toBe('muenzbergstr3');
    expect(streetKey('Hauptplatz 3')).not.toBe(streetKey('Hauptplatz 4'));
    expect(streetKey('  ')).toBeNull();
    expect(streetKey(null)).toBeNull();
  });
});

describe('scoreMatches', () => {
  it('asserts the one company of that name, form and zip code, best with the street', () => {
    const link = scoreMatches(subject, [match({ fnr: '1a' })]);
    expect(link).toMatchObject({ fnr: '1a', evidence: 'name-address', confidence: 0.98, candidates: [] });
    const noStreet = scoreMatches({ ...subject, street: null }, [match({ fnr: '1a' })]);
    expect(noStreet).toMatchObject({ fnr: '1a', evidence: 'name-address', confidence: 0.93 });
  });

  it('counts a company once, at its best current address', () => {
    const link = scoreMatches(subject, [match({ fnr: '1a', zipCode: '8010' }), match({ fnr: '1a' })]);
    expect(link).toMatchObject({ fnr: '1a', confidence: 0.98, candidates: [] });
  });

  it('keeps a namesake at another zip code or street as a candidate only', () => {
    const elsewhere = scoreMatches(subject, [match({ fnr: '2b', zipCode: '8010' })]);
    expect(elsewhere).toMatchObject({ fnr: null, evidence: null, confidence: null });
    expect(elsewhere.candidates).toEqual([{ fnr: '2b', name: 'Beispiel Bau GmbH', evidence: 'name', confidence: 0.6 }]);
    const otherStreet = scoreMatches(subject, [match({ fnr: '2b', street: 'Hauptplatz 1' })]);
    expect(otherStreet.fnr).toBeNull();
    expect(otherStreet.candidates[0]).toMatchObject({ evidence: 'name-address', confidence: 0.85 });
  });

  it('never asserts a deleted company, another legal form, or one of two equal matches', () => {
    expect(scoreMatches(subject, [match({ fnr: '3c', status: 'deleted' })]).fnr).toBeNull();
    const kg = scoreMatches(subject, [match({ fnr: '4d', norm: 'beispiel bau kg' })]);
    expect(kg.fnr).toBeNull();
    expect(kg.candidates[0]!.confidence).toBeLessThan(ASSERT_CONFIDENCE);
    const twins = scoreMatches({ ...subject, street: null }, [match({ fnr: '5f' }), match({ fnr: '6g' })]);
    expect(twins.fnr).toBeNull();
    expect(twins.candidates.map((c) => c.fnr)).toEqual(['5f', '6g']);
  });

  it('prefers the active company over a deleted namesake at the same address', () => {
    const link = scoreMatches(subject, [match({ fnr: '7h', status: 'deleted' }), match({ fnr: '8i' })]);
    expect(link).toMatchObject({ fnr: '8i', confidence: 0.98 });
    expect(link.candidates).toEqual([expect.objectContaining({ fnr: '7h', confidence: 0.7 })]);
  });

  it('ignores matches of another core and subjects without one', () => {
    expect(scoreMatches(subject, [match({ fnr: '9k', core: 'beispiel' })])).toMatchObject({ fnr: null, candidates: [] });
    expect(scoreMatches({ ...subject, core: '' }, [match({ fnr: '9k', core: '' })])).toMatchObject({ fnr: null, candidates: [] });
  });
});
