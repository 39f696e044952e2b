// The Ediktsdatei parser (pipeline/edikte/iwgParser.ts) on every edict of the bundled corpus
// (fixtures/corpus/edikte: document and expected parse side by side), on the hand-made quirk files of
// fixtures/edikte, and one test per quirk of the IWG interface.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLOSING_BLOCKS, IwgContentError, contentRangeTotal, entrySortKey, iwgDate, isClosingBlock, isLoginForm, parseBausteine, parseNoticeDocument, parseViewPage,
  redactIwgInput,
} from '../../pipeline/edikte/iwgParser.js';
import { UnrecoverableInputError } from '../../pipeline/jobs/errors.js';
import { jsonDocumentComplete } from '../../pipeline/upstream/completeBody.js';

const CORPUS = resolve(import.meta.dirname, '../../fixtures/corpus/edikte');
const QUIRKS = resolve(import.meta.dirname, '../../fixtures/edikte');
const read = (path: string) => readFileSync(path, 'utf8');
const corpusFiles = readdirSync(join(CORPUS, 'documents')).filter((f) => f.endsWith('.json')).sort();
const labels = JSON.parse(read(join(CORPUS, 'links.json'))) as Array<{ unid: string; debtorType: 'J' | 'N'; truth: string | null; case: string }>;
const byCase = (text: string) => {
  const label = labels.find((l) => l.case.includes(text));
  if (!label) throw new Error(`no corpus case "${text}"`);
  return { label, raw: read(join(CORPUS, 'documents', `${label.unid}.json`)), notice: parseNoticeDocument(read(join(CORPUS, 'documents', `${label.unid}.json`))) };
};

describe('parseNoticeDocument on the corpus', () => {
  it('covers what issue 19 asks of the fixtures', () => {
    expect(corpusFiles.length).toBe(labels.length);
    expect(labels.filter((l) => l.debtorType === 'J').length).toBeGreaterThanOrEqual(60);
    expect(labels.filter((l) => l.debtorType === 'J' && l.truth === null).length).toBeGreaterThanOrEqual(15);
    expect(labels.filter((l) => l.debtorType === 'N').length).toBeGreaterThanOrEqual(15);
  });

  it.each(corpusFiles)('%s gives its expected parse', (file) => {
    const expected = JSON.parse(read(join(CORPUS, 'expected', file)));
    expect(parseNoticeDocument(read(join(CORPUS, 'documents', file)))).toEqual(expected);
  });

  it('has closed proceedings of every closing kind', () => {
    const closed = corpusFiles.map((f) => parseNoticeDocument(read(join(CORPUS, 'documents', f)))).filter((n) => !n.isOpen);
    const kinds = new Set(closed.flatMap((n) => n.blocks.filter((b) => isClosingBlock(b.name)).map((b) => b.name)));
    expect([...kinds].sort()).toEqual(['Aufhebung', 'Einstellung', 'Nichteröffnung']);
    expect(CLOSING_BLOCKS).toEqual(['Aufhebung', 'Einstellung', 'Nichteröffnung', 'Beendigung']);
  });
});

describe('parseNoticeDocument on hand-made quirk files', () => {
  it.each(['document-quirks', 'document-sparse'])('%s gives its expected parse', (name) => {
    expect(parseNoticeDocument(read(join(QUIRKS, `${name}.json`)))).toEqual(JSON.parse(read(join(QUIRKS, `${name}.expected.json`))));
  });

  it('refuses a Loeschung document and one without AZKey, keeping the answer', () => {
    for (const name of ['document-loeschung', 'document-without-azkey']) {
      const raw = read(join(QUIRKS, `${name}.json`));
      const err = (() => {
        try {
          parseNoticeDocument(raw);
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(err, name).toBeInstanceOf(IwgContentError);
      expect(err).toBeInstanceOf(UnrecoverableInputError);
      expect((err as IwgContentError).rawInput).toBe(redactIwgInput(raw));
    }
    expect(() => parseNoticeDocument('[]')).toThrow(IwgContentError);
    expect(() => parseNoticeDocument('<html></html>')).toThrow(/not JSON/);
  });

  it('keeps the input of a failed edict without its personal data (the failed job is not erased with the edict)', () => {
    const raw = read(join(QUIRKS, 'document-without-azkey.json'));
    const kept = (() => {
      try {
        parseNoticeDocument(raw);
      } catch (e) {
        return (e as IwgContentError).rawInput!;
      }
      return '';
    })();
    const doc = JSON.parse(kept) as Record<string, unknown>;
    expect(doc).toMatchObject({ Aktenzeichen: '458 015 S 00012/25', Schuldner_Akt_Type: 'J', Schuldner_Akt_Name: 'xxxx xxxxxxxxx xxxx' });
    expect(kept).not.toContain('Schlüssel');
    // A quoted address, a birth date and a name in the Bausteine are masked; the keys and the court stay.
    const edict = JSON.stringify({ AZKey: '013001S0000217001', Gericht_Code: '013', Schuldner_Akt_GebDat: '1970-03-15', Schuldner_Akt_StrNr: 'Favoritenstraße 100',
      Dat_Akt_Geburt: '1970-03-15', Dat_Ori_Bekanntmachung: '2026-09-02', Bausteine: { type: 'richtext', data: '02.09.2026~Schuldner~Maria Huber~' } });
    expect(JSON.parse(redactIwgInput(edict))).toEqual({
      AZKey: '013001S0000217001', Gericht_Code: '013', Schuldner_Akt_GebDat: '9999-99-99', Schuldner_Akt_StrNr: 'xxxxxxxxxxxxxxx 999',
      Dat_Akt_Geburt: '9999-99-99', Dat_Ori_Bekanntmachung: '2026-09-02', Bausteine: { type: 'richtext', data: '99.99.9999~xxxxxxxxx~xxxxx xxxxx~' },
    });
    // Not JSON: masked whole; the parser's message quotes none of it.
    const broken = '{"Schuldner_Akt_Name": "Maria Huber", ';
    expect(redactIwgInput(broken)).toBe('{"xxxxxxxxx_xxx_xxxx": "xxxxx xxxxx", ');
    expect(() => parseNoticeDocument('{"Schuldner_Akt_Name": "Maria Huber" x}')).toThrow(/not JSON/);
    try {
      parseNoticeDocument('{"Schuldner_Akt_Name": "Maria Huber" x}');
    } catch (e) {
      expect((e as Error).message).not.toContain('Huber');
      expect((e as IwgContentError).rawInput).not.toContain('Huber');
    }
  });

  it('tells a cut-off document from a complete one, so the client retries it instead of failing', () => {
    const cut = read(join(QUIRKS, 'document-cut-off.json'));
    expect(jsonDocumentComplete(cut)).toBe(false);
    expect(jsonDocumentComplete(read(join(QUIRKS, 'document-quirks.json')))).toBe(true);
  });
});

describe('one test per quirk', () => {
  it('joins a company name the clerk cut anywhere, in the order Vorname, Name', () => {
    expect(byCase('name cut after the ampersand').notice.debtor.name).toBe('Huber & Gruber OG');
    expect(byCase('whole name in Vorname').notice.debtor.name).toBe('Bergblick Tischlerei GmbH');
    expect(byCase('one word across its line break').notice.debtor.name).toBe('Wienerwald Bau- und Handelsgesellschaft m.b.H.');
  });

  it('keeps the FN field as given and canonical only when its check letter fits', () => {
    expect(byCase('FN zero-padded').notice.debtor).toMatchObject({ fnrRaw: '073210m', fnr: '73210m' });
    expect(byCase('FN upper case with prefix').notice.debtor).toMatchObject({ fnrRaw: 'FN 629 A', fnr: '629a' });
    const wrong = byCase('FN with a wrong check letter').notice;
    expect(wrong.debtor).toMatchObject({ fnrRaw: '98231x', fnr: null });
    expect(wrong.warnings).toContain('fnr-check-letter');
    expect(byCase('FN field holding something else').notice.warnings).toContain('fnr-unreadable');
  });

  it('reads date-time items as their date in Vienna (local midnight is 22:00 or 23:00 UTC the day before)', () => {
    const { raw, notice } = byCase('dates as instants');
    expect(raw).toMatch(/"Dat_Ori_Bekanntmachung":"2026-07-06T22:00:00Z"/);
    expect(notice.firstPublishedOn).toBe('2026-07-07');
    expect(iwgDate('2026-01-14T23:00:00Z')).toBe('2026-01-15');
    expect(iwgDate('2026-07-14T22:00:00Z')).toBe('2026-07-15');
    expect(iwgDate('2026-07-14')).toBe('2026-07-14');
    expect(iwgDate('14.07.2026')).toBe('2026-07-14');
    expect(iwgDate('2026-02-30')).toBeNull();
  });

  it('takes debtor fields from _Ori_ when no _Akt_ value exists, and _Akt_ over _Ori_', () => {
    const { raw, notice } = byCase('debtor fields as _Ori_ only');
    expect(raw).not.toMatch(/Schuldner_Akt_/);
    expect(notice.debtor).toMatchObject({ type: 'J', name: 'Hallstätter Seehotel GmbH & Co KG', fnr: '512308w' });
    const quirks = parseNoticeDocument(read(join(QUIRKS, 'document-quirks.json')));
    expect(quirks.debtor).toMatchObject({ type: 'N', lastName: 'Gößler-Pichler' });
  });

  it('reads single values written as arrays', () => {
    const { raw, notice } = byCase('FN upper case with prefix; single values as arrays');
    expect(raw).toMatch(/"Aktenzeichen":\["/);
    expect(notice.aktenzeichen).toMatch(/^929 038 S \d{5}\/26$/);
    expect(notice.court.name).toBe('Landesgericht Feldkirch');
  });

  it('reads Bausteine from the multipart shape (base64 text/html part) as from the richtext one', () => {
    const { raw, notice } = byCase('Bausteine as multipart');
    expect(raw).toMatch(/"contentTransferEncoding":"base64"/);
    expect(notice.blocks.map((b) => b.name)).toEqual(['Eröffnung', 'Masseverwalter', 'Tagsatzung']);
  });

  it('decodes entities and &lt;br&gt; line breaks in blocks, and keeps a tilde inside the content', () => {
    const named = byCase('Bausteine with named entities');
    expect(named.raw).toMatch(/&Uuml;ber das Verm&ouml;gen/);
    expect(named.notice.blocks[0]!.text).toBe('Über das Vermögen der Schuldnerin wurde das Konkursverfahren eröffnet.\nAnmeldungsfrist: 23.11.2026\nForderungen über € 1.000,00 sind "schriftlich" anzumelden.');
    expect(named.notice.blocks[1]!.text).toContain('& Fax');
    expect(named.notice.blocks[2]!.text).toContain('Verhandlungssaal <3>');
    const tilde = byCase('a tilde in a block').notice.blocks.find((b) => b.name === 'Text');
    expect(tilde).toMatchObject({ text: 'Forderungsstand ~ 1,2 Mio. EUR (vorläufig)', decidedOn: null });
  });

  it('splits blocks on every <br> spelling and leaves out empty ones', () => {
    const blocks = parseBausteine('01.02.2026~A~x~01.02.2026<br>02.02.2026~B~y~<BR/>\n<br />\r\n03.02.2026~C~z&lt;BR&gt;w~02.02.2026<br />\r\n');
    expect(blocks.map((b) => [b.publishedOn, b.name, b.text, b.decidedOn])).toEqual([
      ['2026-02-01', 'A', 'x', '2026-02-01'], ['2026-02-02', 'B', 'y', null], ['2026-02-03', 'C', 'z\nw', '2026-02-02'],
    ]);
    const warnings: string[] = [];
    expect(parseBausteine('nur Text ohne Felder', warnings)).toEqual([{ publishedOn: null, name: null, text: 'nur Text ohne Felder', decidedOn: null }]);
    expect(warnings).toEqual(['block-unreadable']);
  });

  it('closes a proceeding on Aufhebung, Einstellung or Nichteröffnung only', () => {
    expect(byCase('FN; closed by Einstellung').notice.isOpen).toBe(false);
    expect(byCase('FN; not opened').notice.isOpen).toBe(false);
    expect(byCase('FN as stored').notice.isOpen).toBe(true);
    for (const name of ['Aufhebung', 'Aufhebung des Konkurses', 'Einstellung', 'Nichteroeffnung', 'NICHTERÖFFNUNG']) expect(isClosingBlock(name), name).toBe(true);
    for (const name of ['Aufhebungsantrag', 'Eröffnung', 'Tagsatzung', 'Kostendeckung', null]) expect(isClosingBlock(name), String(name)).toBe(false);
    // The end of a debt-discharge proceeding closes; its start does not.
    expect(isClosingBlock('Beendigung des Abschöpfungsverfahrens')).toBe(true);
    expect(isClosingBlock('Abschöpfungsverfahren', 'Das Abschöpfungsverfahren wird eingeleitet.')).toBe(false);
    // A rejected, dismissed or withdrawn opening application closes; a rejected restructuring plan does not.
    expect(isClosingBlock('Abweisung', 'Der Antrag auf Eröffnung des Insolvenzverfahrens wird mangels Kostendeckung abgewiesen.')).toBe(true);
    expect(isClosingBlock('Zurueckweisung des Eroeffnungsantrags')).toBe(true);
    expect(isClosingBlock('Zurückziehung', 'Der Konkursantrag wurde zurückgezogen.')).toBe(true);
    expect(isClosingBlock('Abweisung', 'Der Antrag auf Bestätigung des Sanierungsplans wird abgewiesen; Eröffnung des Konkursverfahrens.')).toBe(false);
  });

  it('gives natural persons their personId only with a birth date', () => {
    expect(byCase('GF of 33918f').notice.debtor.personId).toBe('gerhard-leitner-1966-02-21');
    expect(byCase('no birth date published').notice.debtor).toMatchObject({ birthDate: null, personId: null });
    expect(byCase('a letter outside Latin-1').notice.debtor.personId).toBe('mehmet-yılmaz-1979-04-04');
    // A legal person has no birth date even when a field says so.
    expect(byCase('FN as stored').notice.debtor).toMatchObject({ birthDate: null, personId: null, firstName: null });
  });
});

describe('view pages, totals and the login form', () => {
  it.each(['view-all-page', 'view-deletions-page'])('%s gives its expected entries and total', (name) => {
    const { contentRange, page } = JSON.parse(read(join(QUIRKS, `${name}.expected.json`)));
    expect(parseViewPage(read(join(QUIRKS, `${name}.json`)), contentRange)).toEqual(page);
  });

  it('reads the total from Content-Range and nothing from a missing or odd header', () => {
    expect(contentRangeTotal('items 0-99/89306')).toBe(89306);
    expect(contentRangeTotal('items 0-0/0')).toBe(0);
    expect(contentRangeTotal(undefined)).toBeNull();
    expect(contentRangeTotal('bytes */*')).toBeNull();
  });

  it('gives an entry its place in the AZKey order: its AZKey, else the start of it in its Aktenzeichen', () => {
    expect(entrySortKey({ ediktId: '499038S0026426001', aktenzeichen: '499 038 S 264/26' })).toBe('499038S0026426001');
    expect(entrySortKey({ ediktId: null, aktenzeichen: '013 001 S 00002/17' })).toBe('013001S0000217');
    expect(entrySortKey({ ediktId: null, aktenzeichen: '458 015 Se 12/25' })).toBe('458015Se0001225');
    expect(entrySortKey({ ediktId: null, aktenzeichen: 'kein Aktenzeichen' })).toBeNull();
    expect(entrySortKey({ ediktId: null, aktenzeichen: null })).toBeNull();
    // The start sorts at or before every AZKey of that Aktenzeichen (they add a running number).
    expect('013001S0000217' <= '013001S0000217001').toBe(true);
  });

  it('refuses a page that is not an array of entries', () => {
    expect(() => parseViewPage('{"code":400}', 'items 0-0/0')).toThrow(IwgContentError);
    expect(() => parseViewPage('[1]', null)).toThrow(IwgContentError);
  });

  it('recognises Domino\'s login form, by content type or by content', () => {
    const form = read(join(QUIRKS, 'login-form.html'));
    expect(isLoginForm('text/html; charset=UTF-8', form)).toBe(true);
    expect(isLoginForm('application/json', form)).toBe(true);
    expect(isLoginForm(null, form)).toBe(true);
    expect(isLoginForm('application/json', read(join(QUIRKS, 'view-all-page.json')))).toBe(false);
  });
});
