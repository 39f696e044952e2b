// Loads a Firmenbuch replay corpus (layout: fixtures/corpus/README.md) and indexes it for the fake
// upstream and for tests: companies by canonical FN with their parsed extract, document listings by KEY,
// the two change lists, the expected figures of XML filings. Only file reads happen here; document bytes
// are read on demand so a corpus with large documents stays cheap to load.

import { readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { CompanyChange, CompanyExtract, DocumentChange, DocumentListing } from '../../../schemas/firmenbuchRecords.js';
import type { FigureValues } from '../../../schemas/keyFigures.js';
import { parseAuszug } from '../extractParser.js';
import { parseSucheUrkunde, parseVeraenderungenFirma, parseVeraenderungenUrkunde } from '../registerParsers.js';
import { childElement, childText, parseSoapResponse, type XmlElement } from '../soapResponse.js';

export interface CorpusManifest {
  firmenbuch: {
    /** First and last day (yyyy-mm-dd) a replay polls the change feeds for. */
    changesFrom: string;
    changesTo: string;
    /** KEYs of documents a replay must fail on (and keep as the job's input), e.g. a truncated filing. */
    malformedDocuments?: string[];
  };
}

export interface CorpusCompany {
  /** Canonical FN (`30435h`). */
  fnr: string;
  extract: CompanyExtract;
  /** The AUSZUG_V2 response as stored (the fake re-prefixes it per request). */
  auszugXml: string;
  /** FI_DKZ15 RECHTSEIGENSCHAFT text (e.g. "Kreditunternehmen"): SUCHEFIRMA filters on it, the extract parser skips it. */
  legalCharacteristic: string | null;
  /** The SUCHEURKUNDE response as stored; null when the company has no documents. */
  documentsXml: string | null;
  documentKeys: string[];
}

export interface CorpusDocument {
  key: string;
  /** Canonical FN of the company whose listing holds the document. */
  fnr: string;
  listing: DocumentListing;
  /** Absolute path of the raw bytes; null when the listing names a document the corpus lacks. */
  file: string | null;
}

export interface ExpectedFiling {
  documentDate: string | null;
  /** All 47 figures: canonical decimal strings or null. */
  figures: FigureValues;
}

export interface FirmenbuchCorpus {
  /** Directory it was loaded from; null for a corpus built in memory. */
  dir: string | null;
  manifest: CorpusManifest;
  companies: ReadonlyMap<string, CorpusCompany>;
  documents: ReadonlyMap<string, CorpusDocument>;
  /** Every entry of veraenderungen-firma.xml (unfiltered; the fake filters by date and kind). */
  companyChanges: readonly CompanyChange[];
  documentChanges: readonly DocumentChange[];
  /** Expected parser output per XML annual-account KEY. */
  expected: ReadonlyMap<string, ExpectedFiling>;
  /** Raw document bytes, null for an unknown KEY or a missing file. */
  readDocument(key: string): Promise<Buffer | null>;
}

/** Runs `work` over `items` with at most `limit` in flight: a big corpus must not exhaust file handles. */
async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

async function readOptional(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function legalCharacteristic(root: XmlElement): string | null {
  const firma = childElement(root, 'FIRMA');
  return childText(childElement(childElement(firma, 'FI_DKZ15'), 'RECHTSEIGENSCHAFT'), 'TEXT');
}

class CorpusLoadError extends Error {
  override readonly name = 'CorpusLoadError';
}

async function loadCompany(fbDir: string, file: string): Promise<CorpusCompany> {
  const auszugXml = await readFile(path.join(fbDir, 'auszug', file), 'utf8');
  // One parse serves both the extract and the RECHTSEIGENSCHAFT the extract parser does not read.
  const { root, operation } = parseSoapResponse(auszugXml);
  if (operation !== 'auszug') throw new CorpusLoadError(`auszug/${file} is a ${operation} response`);
  const extract = parseAuszug(root);
  if (`${extract.fnr}.xml` !== file) throw new CorpusLoadError(`auszug/${file} holds the extract of ${extract.fnr}`);
  const documentsXml = await readOptional(path.join(fbDir, 'urkunden', file));
  return { fnr: extract.fnr, extract, auszugXml, legalCharacteristic: legalCharacteristic(root), documentsXml, documentKeys: [] };
}

/** KEY -> file name in dokumente/ (`<KEY>.xml`, `<KEY>.pdf`). */
async function documentFiles(fbDir: string): Promise<Map<string, string>> {
  const files = await listDir(path.join(fbDir, 'dokumente'));
  return new Map(files.map((f) => [f.replace(/\.[^.]+$/, ''), path.join(fbDir, 'dokumente', f)]));
}

function indexDocuments(companies: Map<string, CorpusCompany>, files: Map<string, string>): Map<string, CorpusDocument> {
  const documents = new Map<string, CorpusDocument>();
  for (const company of companies.values()) {
    if (company.documentsXml === null) continue;
    for (const listing of parseSucheUrkunde(company.documentsXml).documents) {
      documents.set(listing.key, { key: listing.key, fnr: company.fnr, listing, file: files.get(listing.key) ?? null });
      company.documentKeys.push(listing.key);
    }
  }
  return documents;
}

async function loadExpected(fbDir: string): Promise<Map<string, ExpectedFiling>> {
  const files = (await listDir(path.join(fbDir, 'expected'))).filter((f) => f.endsWith('.json'));
  const entries = await mapLimit(files, 32, async (f) => {
    const json = JSON.parse(await readFile(path.join(fbDir, 'expected', f), 'utf8')) as ExpectedFiling;
    return [f.slice(0, -'.json'.length), { documentDate: json.documentDate, figures: json.figures }] as const;
  });
  return new Map(entries);
}

async function loadManifest(dir: string): Promise<CorpusManifest> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Partial<CorpusManifest>;
  const fb = manifest.firmenbuch;
  if (!fb?.changesFrom || !fb.changesTo) throw new CorpusLoadError(`${dir}/manifest.json lacks firmenbuch.changesFrom/changesTo`);
  return { firmenbuch: fb };
}

/** Reads and indexes a corpus directory. Throws when a stored response does not parse. */
export async function loadFirmenbuchCorpus(dir: string): Promise<FirmenbuchCorpus> {
  const root = path.resolve(dir);
  const fbDir = path.join(root, 'firmenbuch');
  const manifest = await loadManifest(root);
  const auszugFiles = (await listDir(path.join(fbDir, 'auszug'))).filter((f) => f.endsWith('.xml'));
  const loaded = await mapLimit(auszugFiles, 32, (f) => loadCompany(fbDir, f));
  const companies = new Map(loaded.map((c) => [c.fnr, c]));
  const documents = indexDocuments(companies, await documentFiles(fbDir));
  const firmaXml = await readOptional(path.join(fbDir, 'veraenderungen-firma.xml'));
  const urkundeXml = await readOptional(path.join(fbDir, 'veraenderungen-urkunde.xml'));
  return {
    dir: root,
    manifest,
    companies,
    documents,
    companyChanges: firmaXml === null ? [] : parseVeraenderungenFirma(firmaXml).changes,
    documentChanges: urkundeXml === null ? [] : parseVeraenderungenUrkunde(urkundeXml).documents,
    expected: await loadExpected(fbDir),
    readDocument: async (key) => {
      const file = documents.get(key)?.file;
      if (!file) return null;
      try {
        // One synchronous read: fs/promises takes four thread-pool round trips per file, which made
        // document reads a large part of the fake upstream's CPU.
        return readFileSync(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
  };
}
