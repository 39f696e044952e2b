// The ÖNACE classifier's rules one by one (the evaluation set measures the whole): trade keys alone and
// beside the text, boilerplate and company names ignored, elided compounds, typos, determinism, and a
// lexicon that names an unknown code or spans a conjunction refused when it loads.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OenaceClassifier } from '../../pipeline/oenace/classify.js';
import { LexiconError, compileTerm, loadLexicon } from '../../pipeline/oenace/lexicon.js';
import { loadTradeKeyMap } from '../../pipeline/oenace/tradeKeys.js';

const classifier = new OenaceClassifier();
const classify = (purposeText: string | null, tradeKeys: string[] = []) => classifier.classify({ purposeText, tradeKeys });
const codes = (purposeText: string | null, tradeKeys: string[] = []) => classify(purposeText, tradeKeys).map((a) => a.code);

describe('ÖNACE classifier', () => {
  it('assigns nothing without a purpose or a known trade key', () => {
    expect(classify(null)).toEqual([]);
    expect(classify('', ['999999'])).toEqual([]);
  });

  it('reads a trade key alone through the bundled mapping, with the key as evidence', () => {
    const mapping = loadTradeKeyMap().get('300200')!;
    expect(classify(null, ['300200'])).toEqual([
      { code: mapping.code, isPrimary: true, confidence: mapping.weight, evidence: { words: [], tradeKeys: ['300200'] } },
    ]);
  });

  it('is surer when a licence confirms the text, and keeps a licence of another class beside it', () => {
    // The primary of two activities: calibrated below the sole reading's 0.99, so there is room to rise.
    const text = 'Elektroinstallationen und Handel mit Elektrogeräten';
    const [alone] = classify(text);
    const [confirmed] = classify(text, ['300200']);
    expect(confirmed!.code).toBe(alone!.code);
    expect(confirmed!.confidence).toBeGreaterThan(alone!.confidence);
    expect(confirmed!.evidence).toEqual({ words: ['Elektroinstallationen'], tradeKeys: ['300200'] });
    const both = classify('Softwareentwicklung', ['30100']);
    expect(both.map((a) => [a.code, a.isPrimary])).toEqual([['J 62.01-0', true], ['C 10.71-1', false]]);
  });

  it('ignores legal boilerplate, exceptions and the names of other companies', () => {
    expect(codes('Gegenstand des Unternehmens ist die Unternehmensberatung. Die Gesellschaft ist berechtigt, Liegenschaften zu erwerben '
      + 'und sich an anderen Unternehmen zu beteiligen; ausgenommen sind Bankgeschäfte.')).toEqual(['M 70.22-0']);
    expect(codes('Übernahme der Geschäftsführung der Alpen Bau GmbH & Co KG')).toEqual(['M 70.10-0']);
  });

  it('restores elided compounds and reads each activity in order', () => {
    expect(codes('Hoch- und Tiefbau')).toEqual(['F 41.20-1', 'F 42.99-0']);
    expect(codes('Herstellung und Vertrieb von Naturkosmetik')).toEqual(['C 20.42-0', 'G 46.45-0']);
  });

  it('corrects a typo, trusting the corrected reading a little less', () => {
    const [right] = classify('Unternehmensberatung');
    const [typo] = classify('Unternehmensbertung');
    expect(typo!.code).toBe(right!.code);
    expect(typo!.confidence).toBeLessThan(right!.confidence);
  });

  it('gives the same answer every time', () => {
    const text = 'Handel mit Waren aller Art, Vermietung von Ferienwohnungen sowie Unternehmensberatung';
    expect(classify(text, ['599999'])).toEqual(classify(text, ['599999']));
  });
});

describe('ÖNACE lexicon', () => {
  const lexicon = (activities: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'lexicon-'));
    writeFileSync(join(dir, 'modes.csv'), 'mode,terms,generic\ntrade,handel,\n');
    writeFileSync(join(dir, 'domains.csv'), 'domain,terms,codes,multi,shop,exclude,weight\n');
    writeFileSync(join(dir, 'activities.csv'), `code,pattern,weight\n${activities}\n`);
    return () => loadLexicon(`${dir}/`);
  };

  it('refuses a code the catalogue does not have, and a class with several subclasses', () => {
    expect(lexicon('C 99.99,irgendwas,0.9')).toThrow(LexiconError);
    expect(lexicon('F 41.20,baumeister,0.9')).toThrow(/subclasses, name one/);
    expect(lexicon('F 41.20-1,baumeister,0.9')().activities).toHaveLength(1);
  });

  it('refuses a term across a conjunction, which no clause could hold', () => {
    expect(() => compileTerm('hoch_und_tiefbau')).toThrow(/conjunction/);
  });
});
