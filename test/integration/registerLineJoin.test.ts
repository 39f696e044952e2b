// Names the register splits across lines (issue 23.5): a word hyphenated at a line end is one word
// again, in the parser (fixtures/firmenbuch/soap/auszug-split-name.xml and its expected output hold
// the cases) and in what is stored: a company stored under the old joining ("Handels- gesellschaft")
// takes the joined name when its extract is ingested again, with a change row naming the fields, and
// search finds it by the whole word.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { autocompleteNames } from '../../indexer/search/nameSearch.js';
import { joinRegisterLines, parseAuszug } from '../../pipeline/firmenbuch/extractParser.js';
import { storeCompanyExtract } from '../../pipeline/store/companyStore.js';
import { createLogger } from '../../runtime/logger.js';
import type { CompanyExtract } from '../../schemas/firmenbuchRecords.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const FIXTURE = new URL('../../fixtures/firmenbuch/soap/auszug-split-name.xml', import.meta.url);

describe('joinRegisterLines', () => {
  it('joins a word hyphenated at a line end and keeps every other space', () => {
    expect(joinRegisterLines(['Wienerwald Bau- und Handels-', 'gesellschaft m.b.H.'])).toBe('Wienerwald Bau- und Handelsgesellschaft m.b.H.');
    expect(joinRegisterLines(['Bäckerei- und Konditorei-', 'waren Groß-', 'handel'])).toBe('Bäckerei- und Konditoreiwaren Großhandel');
    // An elided compound: the hyphen stands for the word's second half.
    expect(joinRegisterLines(['Meier-', 'und Partner'])).toBe('Meier- und Partner');
    expect(joinRegisterLines(['Elektro-', 'u. Installationstechnik'])).toBe('Elektro- u. Installationstechnik');
    expect(joinRegisterLines(['Ski-', 'oder Snowboardschule'])).toBe('Ski- oder Snowboardschule');
    // A dash between words, a hyphen after a digit, a capital after the break: left as lines joined by a space.
    expect(joinRegisterLines(['Müller -', 'Bau GmbH'])).toBe('Müller - Bau GmbH');
    expect(joinRegisterLines(['Tiefgarage 3-', 'etagig GmbH'])).toBe('Tiefgarage 3- etagig GmbH');
    expect(joinRegisterLines(['Raiffeisen-', 'Lagerhaus eGen'])).toBe('Raiffeisen- Lagerhaus eGen');
    // Within one line nothing changes: only the register's line breaks are repaired.
    expect(joinRegisterLines(['Handels- gesellschaft'])).toBe('Handels- gesellschaft');
    expect(joinRegisterLines([])).toBeNull();
  });
});

describe('stored names follow the rule on re-ingest', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('replaces the space-joined name, former names and party name, with a change row, and search finds the word', async () => {
    const extract = parseAuszug(readFileSync(FIXTURE, 'utf8'));
    // As the parser joined lines before: every line break a space.
    const spaced = (lines: string[]) => lines.join(' ');
    const before: CompanyExtract = {
      ...extract,
      name: spaced(extract.nameLines),
      formerNames: extract.formerNames.map((f) => ({ ...f, name: spaced(f.lines) })),
      parties: extract.parties.map((p) => (p.kind === 'company' ? { ...p, name: 'Wienerwald Beteiligungs- verwaltung GmbH' } : p)),
      businessPurpose: 'Baumeister, Handel mit Bau- stoffen',
    };
    await storeCompanyExtract(db.sql, before);
    await rebuildReadModel(db.sql, createLogger('silent'));
    expect((await autocompleteNames(db.sql, 'Wienerwald Bau- und Handelsgesellschaft m.b.H.', 10)).hits.map((h) => h.band)).not.toContain('exact');

    const result = await storeCompanyExtract(db.sql, extract);
    expect(result).toMatchObject({ action: 'updated' });
    // Fields derived from these (industry codes from the purpose, ...) may change with them.
    expect(result.changedFields).toEqual(expect.arrayContaining(['businessPurpose', 'formerNames', 'functions', 'name']));
    const names = await db.sql<{ name: string; isCurrent: boolean }[]>`SELECT name, is_current FROM company_name WHERE fnr = ${extract.fnr} ORDER BY vnr`;
    expect(names).toEqual([
      { name: 'Meier - Bau GmbH', isCurrent: false },
      { name: 'Meier- und Partner Elektroinstallationen GmbH', isCurrent: false },
      { name: 'Wienerwald Bau- und Handelsgesellschaft m.b.H.', isCurrent: true },
    ]);
    const [company] = await db.sql<{ name: string; businessPurpose: string }[]>`SELECT name, business_purpose FROM company WHERE fnr = ${extract.fnr}`;
    expect(company).toEqual({ name: 'Wienerwald Bau- und Handelsgesellschaft m.b.H.', businessPurpose: 'Baumeister, Handel mit Baustoffen' });

    while ((await indexOnce(db.sql)) > 0);
    const [hit] = (await autocompleteNames(db.sql, 'Wienerwald Bau- und Handelsgesellschaft m.b.H.', 10)).hits;
    expect(hit).toMatchObject({ fnr: extract.fnr, band: 'exact' });
    expect((await autocompleteNames(db.sql, 'Elektroinstallationen', 10)).hits[0]).toMatchObject({ fnr: extract.fnr, band: 'former' });
  });
});
