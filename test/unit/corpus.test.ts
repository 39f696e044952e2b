import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fnrDigitsPadded } from '../../schemas/identifiers.js';
import { KEY_FIGURES, figureJsonKey } from '../../schemas/keyFigures.js';
import { extractPdfText } from '../../pipeline/documents/pdfText.js';
import { AnnualAccountParseError, parseAnnualAccount } from '../../pipeline/firmenbuch/annualAccountParser.js';
import { loadFirmenbuchCorpus, type FirmenbuchCorpus } from '../../pipeline/firmenbuch/fake/corpus.js';
import { writeSyntheticCorpus } from '../../pipeline/firmenbuch/fake/syntheticCorpus.js';
import type { PersonParty } from '../../schemas/firmenbuchRecords.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CORPUS_DIR = path.join(ROOT, 'fixtures/corpus');
const FILINGS_DIR = path.join(ROOT, 'fixtures/firmenbuch/filings');

let corpus: FirmenbuchCorpus;

beforeAll(async () => {
  corpus = await loadFirmenbuchCorpus(CORPUS_DIR);
});

function within(date: string | null, from: string, to: string): boolean {
  return date !== null && date >= from && date <= to;
}

describe('fixtures/corpus', () => {
  it('holds at least 30 companies, each stored under its canonical FN', () => {
    expect(corpus.companies.size).toBeGreaterThanOrEqual(30);
    for (const [fnr, company] of corpus.companies) {
      expect(company.extract.fnr).toBe(fnr);
      expect(company.extract.fnrCheckLetterValid).toBe(true);
      expect(company.extract.warnings).toEqual([]);
    }
  });

  it('has bytes for every listed document, with the listed size and the company FN in the KEY', async () => {
    expect(corpus.documents.size).toBeGreaterThan(0);
    for (const doc of corpus.documents.values()) {
      const bytes = await corpus.readDocument(doc.key);
      expect(bytes, doc.key).not.toBeNull();
      expect(doc.listing.sizeBytes).toBe(bytes!.length);
      expect(doc.key.split('_')[0]).toBe(fnrDigitsPadded(doc.fnr));
      expect(doc.listing.fnr).toBe(doc.fnr);
    }
  });

  it('has an expected file for every XML annual account, matching the parser', async () => {
    // The bundled corpus is clean (its replay ends with zero failures); the truncated filing lives in
    // fixtures/corpus-malformed, tested below.
    const malformed = new Set(corpus.manifest.firmenbuch.malformedDocuments ?? []);
    expect(malformed.size).toBe(0);
    const xmlFilings = [...corpus.documents.values()].filter((d) => d.listing.documentType?.code === '48' && d.listing.contentType === 'application/xml');
    expect(xmlFilings.length).toBeGreaterThanOrEqual(12);
    for (const doc of xmlFilings) {
      const xml = (await corpus.readDocument(doc.key))!.toString('utf8');
      if (malformed.has(doc.key)) {
        expect(corpus.expected.has(doc.key)).toBe(false);
        expect(() => parseAnnualAccount(xml)).toThrow(AnnualAccountParseError);
        continue;
      }
      const expected = corpus.expected.get(doc.key);
      expect(expected, doc.key).toBeDefined();
      expect(Object.keys(expected!.figures).sort()).toEqual(KEY_FIGURES.map(figureJsonKey).sort());
      const parsed = parseAnnualAccount(xml);
      expect({ documentDate: parsed.documentDate, figures: parsed.figures }, doc.key).toEqual(expected);
      expect(doc.listing.balanceSheetDate).toBe(expected!.documentDate);
      expect(parsed.fnr).toBe(doc.fnr);
    }
    expect([...corpus.expected.keys()].every((key) => corpus.documents.has(key))).toBe(true);
  });

  it('keeps the malformed filing in the overlay corpus, next to a valid one of the same company', async () => {
    const overlay = await loadFirmenbuchCorpus(new URL('../../fixtures/corpus-malformed/', import.meta.url).pathname);
    const [bad] = overlay.manifest.firmenbuch.malformedDocuments ?? [];
    expect(bad).toBeDefined();
    expect(overlay.documents.size).toBe(2);
    const xml = (await overlay.readDocument(bad!))!.toString('utf8');
    expect(() => parseAnnualAccount(xml)).toThrow(AnnualAccountParseError);
    expect(overlay.expected.has(bad!)).toBe(false);
    expect(overlay.expected.size).toBe(1);
  });

  it('copies every filing of fixtures/firmenbuch/filings with its expected figures', async () => {
    const files = readdirSync(FILINGS_DIR).filter((f) => f.endsWith('.xml'));
    expect(files.length).toBeGreaterThanOrEqual(11);
    const bytesByKey = new Map<string, Buffer>();
    for (const key of corpus.documents.keys()) bytesByKey.set(key, (await corpus.readDocument(key))!);
    for (const file of files) {
      const original = readFileSync(path.join(FILINGS_DIR, file));
      const key = [...bytesByKey].find(([, bytes]) => bytes.equals(original))?.[0];
      expect(key, file).toBeDefined();
      const fixture = JSON.parse(readFileSync(path.join(FILINGS_DIR, file.replace(/\.xml$/, '.expected.json')), 'utf8')) as {
        documentDate: string;
        figures: Record<string, string | null>;
      };
      expect(corpus.expected.get(key!)).toEqual({ documentDate: fixture.documentDate, figures: fixture.figures });
    }
  });

  it('lists every company and every document in the change feeds, inside the manifest range', () => {
    const { changesFrom, changesTo } = corpus.manifest.firmenbuch;
    expect(changesFrom <= changesTo).toBe(true);
    const generic = corpus.companyChanges.filter((c) => ['Neueintragung', 'Änderung', 'Löschung'].includes(c.kindText));
    expect(new Set(generic.map((c) => c.fnr))).toEqual(new Set(corpus.companies.keys()));
    expect(new Set(corpus.documentChanges.map((c) => c.key))).toEqual(new Set(corpus.documents.keys()));
    for (const c of corpus.companyChanges) expect(within(c.executedOn, changesFrom, changesTo), c.fnr).toBe(true);
    for (const d of corpus.documentChanges) expect(within(d.executedOn, changesFrom, changesTo), d.key).toBe(true);
  });

  it('covers the cases of upstream-interfaces.md section 6.2', () => {
    const extracts = [...corpus.companies.values()].map((c) => c.extract);
    for (const form of ['GES', 'AG', 'KG', 'OG', 'EU', 'GEN', 'PST']) expect(extracts.some((x) => x.legalForm?.code === form), form).toBe(true);
    expect(new Set(extracts.map((x) => x.court?.code)).size).toBe(16);
    expect(extracts.some((x) => x.nameLines.length > 1)).toBe(true);
    expect(extracts.some((x) => x.formerNames.length > 0)).toBe(true);
    expect(extracts.some((x) => x.addresses.some((a) => !a.isCurrent))).toBe(true);
    expect(extracts.some((x) => x.addresses[0]?.form === 'line')).toBe(true);
    expect(extracts.some((x) => x.addresses[0]?.form === 'structured')).toBe(true);
    expect(extracts.some((x) => /[äöüß]/i.test(x.name ?? ''))).toBe(true);
    expect(extracts.some((x) => x.holdings.length === 0)).toBe(true);
    expect(extracts.some((x) => x.parties.some((p) => p.kind === 'organisation'))).toBe(true);
    expect(corpus.companies.get('629a')?.legalCharacteristic).toBe('Kreditunternehmen');

    const deleted = extracts.filter((x) => x.status === 'deleted');
    expect(deleted).toHaveLength(1);
    expect(corpus.companyChanges.some((c) => c.fnr === deleted[0]!.fnr && c.kind === 'Löschung')).toBe(true);

    const raw = [...corpus.companies.values()].map((c) => c.auszugXml).join('\n');
    expect(raw).toMatch(/GEBURTSDATUM>\d{8}</);
    expect(raw).toMatch(/GEBURTSDATUM>\d{4}-\d{2}-\d{2}</);
  });

  it('has a chain of corporate shareholders inside the corpus (A held by B held by C)', () => {
    const holderOf = (fnr: string): string[] =>
      corpus.companies.get(fnr)?.extract.holdings.map((h) => h.holderFnr).filter((f): f is string => f !== null) ?? [];
    const chains = [...corpus.companies.keys()].flatMap((a) => holderOf(a).flatMap((b) => holderOf(b).map((c) => [a, b, c])));
    expect(chains.length).toBeGreaterThan(0);
    for (const chain of chains) for (const fnr of chain) expect(corpus.companies.has(fnr)).toBe(true);
  });

  it('has one person (same name and birth date) with functions in two companies', () => {
    const companiesByPerson = new Map<string, Set<string>>();
    for (const company of corpus.companies.values()) {
      for (const party of company.extract.parties.filter((p): p is PersonParty => p.kind === 'person' && p.birthDate !== null)) {
        companiesByPerson.set(party.personId, (companiesByPerson.get(party.personId) ?? new Set()).add(company.fnr));
      }
    }
    expect(companiesByPerson.get('gerhard-leitner-1966-02-21')?.size).toBe(2);
  });

  it('has PDF documents (an annual account and a type 42) and a company with two XML filings of different years', () => {
    const listings = [...corpus.documents.values()].map((d) => d.listing);
    expect(listings.some((l) => l.documentType?.code === '48' && l.contentType === 'application/pdf')).toBe(true);
    expect(listings.some((l) => l.documentType?.code === '42' && l.contentType === 'application/pdf')).toBe(true);
    const pdfOnly = [...corpus.companies.values()].filter((c) => {
      const docs = c.documentKeys.map((k) => corpus.documents.get(k)!.listing);
      return docs.some((l) => l.contentType === 'application/pdf' && l.documentType?.code === '48') && !docs.some((l) => l.contentType === 'application/xml');
    });
    expect(pdfOnly.length).toBeGreaterThanOrEqual(1);
    const twoYears = [...corpus.companies.values()].filter((c) => {
      const dates = c.documentKeys.map((k) => corpus.expected.get(k)?.documentDate).filter(Boolean);
      return new Set(dates).size >= 2;
    });
    expect(twoYears.length).toBeGreaterThanOrEqual(1);
  });

  it('has PDFs that pdf-parse reads: several pages of text', async () => {
    const pdfs = [...corpus.documents.values()].filter((d) => d.listing.contentType === 'application/pdf');
    expect(pdfs.length).toBeGreaterThanOrEqual(3);
    for (const doc of pdfs) {
      const { text, pages } = await extractPdfText((await corpus.readDocument(doc.key))!);
      expect(pages, doc.key).toBeGreaterThanOrEqual(2);
      expect(text).toMatch(/Jahresabschluss|JAHRESABSCHLUSS|GESELLSCHAFTSVERTRAG/);
      expect(text).toMatch(/[äöüß]/);
    }
  });
});

describe('writeSyntheticCorpus', () => {
  let dirA: string;
  let dirB: string;

  beforeAll(async () => {
    dirA = await mkdtemp(path.join(tmpdir(), 'synthetic-a-'));
    dirB = await mkdtemp(path.join(tmpdir(), 'synthetic-b-'));
    await writeSyntheticCorpus(dirA, { companies: 12, seed: 99 });
    await writeSyntheticCorpus(dirB, { companies: 12, seed: 99 });
  });

  afterAll(async () => {
    await rm(dirA, { recursive: true, force: true });
    await rm(dirB, { recursive: true, force: true });
  });

  it('writes the same bytes for the same seed', async () => {
    const list = async (dir: string): Promise<string[]> => (await readdir(dir, { recursive: true })).map(String).sort();
    const files = await list(path.join(dirA, 'firmenbuch'));
    expect(files).toEqual(await list(path.join(dirB, 'firmenbuch')));
    for (const f of files.filter((name) => /\.(xml|json)$/.test(name))) {
      expect(await readFile(path.join(dirA, 'firmenbuch', f), 'utf8')).toBe(await readFile(path.join(dirB, 'firmenbuch', f), 'utf8'));
    }
  });

  it('writes a loadable corpus whose ~25 KB filings parse to their expected figures', async () => {
    const synthetic = await loadFirmenbuchCorpus(dirA);
    expect(synthetic.companies.size).toBe(12);
    expect(synthetic.expected.size).toBe(12);
    for (const [key, expected] of synthetic.expected) {
      const bytes = (await synthetic.readDocument(key))!;
      expect(bytes.length).toBeGreaterThan(15_000);
      expect(bytes.length).toBeLessThan(40_000);
      const parsed = parseAnnualAccount(bytes.toString('utf8'));
      expect({ documentDate: parsed.documentDate, figures: parsed.figures }).toEqual(expected);
      expect(parsed.warnings).toEqual([]);
    }
    expect(new Set(synthetic.companyChanges.map((c) => c.fnr))).toEqual(new Set(synthetic.companies.keys()));
  });
});
