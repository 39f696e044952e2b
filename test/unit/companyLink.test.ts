// The linking scores (pipeline/linking/companyLink.ts): legal-form and street keys, and which matches
// are asserted (>= 0.9) and which are only candidates: namesakes elsewhere, deleted companies, another
// legal form, two equally good companies.
import { describe, expect, it } from 'vitest';
import {
  ASSERT_CONFIDENCE, formerNamePrefixes, legalFormKey, namesDisagree, scoreMatches, streetKey, type CompanyMatch,
} from '../../pipeline/linking/companyLink.js';

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

  it('does not assert one of two companies of that name at that zip code without the street', () => {
    // One company's street is unknown, the other's differs from the record's: which one is meant is a guess.
    const two = scoreMatches(subject, [match({ fnr: '1m', street: null }), match({ fnr: '2n', street: 'Hauptplatz 1' })]);
    expect(two.fnr).toBeNull();
    expect(two.candidates.map((c) => [c.fnr, c.confidence])).toEqual([['1m', 0.85], ['2n', 0.85]]);
    // The street decides when it fits one of them.
    expect(scoreMatches(subject, [match({ fnr: '1m' }), match({ fnr: '2n', street: 'Hauptplatz 1' })])).toMatchObject({ fnr: '1m', confidence: 0.98 });
  });

  it('uses a former name with the whole address, never when another company bears that name now', () => {
    const former = (over: Partial<CompanyMatch> & { fnr: string }) => match({ former: true, ...over });
    expect(scoreMatches(subject, [former({ fnr: '3p' })])).toMatchObject({ fnr: '3p', evidence: 'name-address', confidence: 0.9 });
    expect(scoreMatches({ ...subject, street: null }, [former({ fnr: '3p' })])).toMatchObject({ fnr: null, candidates: [{ fnr: '3p', confidence: 0.8 }] });
    expect(scoreMatches(subject, [former({ fnr: '3p', zipCode: '8010' })])).toMatchObject({ fnr: null, candidates: [{ fnr: '3p', evidence: 'name', confidence: 0.4 }] });
    const taken = scoreMatches(subject, [former({ fnr: '3p' }), match({ fnr: '4q', zipCode: '8010' })]);
    expect(taken.fnr).toBeNull();
    expect(taken.candidates).toEqual([expect.objectContaining({ fnr: '3p', confidence: 0.6 }), expect.objectContaining({ fnr: '4q', confidence: 0.4 })]);
  });
});

describe('namesDisagree', () => {
  const n = (norm: string, core: string) => ({ norm, core });
  it('tells another company from spelling differences, cut names and renames', () => {
    expect(namesDisagree(n('grossglockner brauerei gmbh', 'grossglockner brauerei'), n('grossglockner spedition ag', 'grossglockner spedition'))).toBe(true);
    expect(namesDisagree(n('lavanttaler fliesenhandel gmbh', 'lavanttaler fliesenhandel'), n('tauernkraft energiehandel gmbh', 'tauernkraft energiehandel'))).toBe(true);
    // Same words, another legal form: the GmbH is not its GmbH & Co KG.
    expect(namesDisagree(n('seehotel gmbh', 'seehotel'), n('seehotel gmbh co kg', 'seehotel'))).toBe(true);
    expect(namesDisagree(n('huber gruber og', 'huber gruber'), n('huber gruber og', 'huber gruber'))).toBe(false);
    expect(namesDisagree(n('abc handels gmbh', 'abc handels'), n('abc handelsgesellschaft gmbh', 'abc handelsgesellschaft'))).toBe(false);
    expect(namesDisagree(n('korneuburger werftareal projektentwicklungs gmbh', 'korneuburger werftareal projektentwicklungs'), n('korneuburger werftareal gmbh', 'korneuburger werftareal'))).toBe(false);
    // Too short to tell: never a clear disagreement.
    expect(namesDisagree(n('a b og', 'a b'), n('c d og', 'c d'))).toBe(false);
  });
});

describe('formerNamePrefixes', () => {
  it('spells the first word with and without umlauts', () => {
    expect(formerNamePrefixes('Ötztaler Liftgesellschaft AG')).toEqual(['ötztaler', 'oetztaler']);
    expect(formerNamePrefixes('OETZTALER LIFT')).toEqual(['oetztaler', 'ötztaler']);
    expect(formerNamePrefixes('Strasser Bau')).toEqual(['strasser', 'straßer']);
    expect(formerNamePrefixes('AB Bau')).toBeNull();
  });
});
