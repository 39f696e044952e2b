// Writes a replay corpus directory (layout: fixtures/corpus/README.md) from company descriptions,
// documents and company changes; the document change feed is derived from the documents.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FigureValues } from '../../../../schemas/keyFigures.js';
import type { CompanyChange, DocumentChange, DocumentListing } from '../../../../schemas/firmenbuchRecords.js';
import { auszugResponseRoot, type CompanySpec } from './auszugXml.js';
import { sucheUrkundeResponseRoot, veraenderungenFirmaResponseRoot, veraenderungenUrkundeResponseRoot } from './listingAndChangeXml.js';
import type { Random } from './random.js';
import { ResponseXml, soapEnvelope } from './responseXml.js';

export interface CorpusDocumentSpec {
  listing: DocumentListing;
  bytes: Buffer;
  /** VOLLZUGSDATUM in the document change feed. */
  executedOn: string;
  /** Expected parser output for XML annual accounts (documentDate + all 47 figures). */
  expected?: { documentDate: string | null; figures: FigureValues };
}

export interface CorpusContent {
  companies: CompanySpec[];
  documents: CorpusDocumentSpec[];
  companyChanges: CompanyChange[];
  changesFrom: string;
  changesTo: string;
  /** Documents a replay must fail on (and keep as input), e.g. a truncated filing. */
  malformedDocuments?: string[];
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

function documentChangeOf(d: CorpusDocumentSpec): DocumentChange {
  return {
    key: d.listing.key,
    fnrDigits: d.listing.fnrDigits,
    documentType: d.listing.documentType,
    executedOn: d.executedOn,
    contentType: d.listing.contentType,
    fileExtension: d.listing.fileExtension,
  };
}

function byDateThenKey<T>(date: (item: T) => string | null, key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => (date(a) ?? '').localeCompare(date(b) ?? '') || key(a).localeCompare(key(b));
}

/**
 * Writes `<dir>/firmenbuch/…` and `<dir>/manifest.json` (layout: fixtures/corpus/README.md). Each stored
 * response draws its own prefixes from `random`, like the real service's.
 */
export async function writeCorpus(dir: string, content: CorpusContent, random: Random): Promise<void> {
  const fb = path.join(dir, 'firmenbuch');
  for (const sub of ['auszug', 'urkunden', 'dokumente', 'expected']) await mkdir(path.join(fb, sub), { recursive: true });
  const responses = content.companies.map((c) => ({ c, w: new ResponseXml('auszug', random) }));
  await inBatches(responses, 64, ({ c, w }) =>
    writeFile(path.join(fb, 'auszug', `${c.fnr}.xml`), soapEnvelope('1.2', auszugResponseRoot(w, c))),
  );

  const byCompany = new Map<string, CorpusDocumentSpec[]>();
  for (const d of content.documents) {
    const fnr = d.listing.fnr!;
    byCompany.set(fnr, [...(byCompany.get(fnr) ?? []), { ...d, listing: { ...d.listing, sizeBytes: d.bytes.length } }]);
  }
  const listings = [...byCompany.entries()].map(([fnr, docs]) => ({ fnr, docs, w: new ResponseXml('sucheUrkunde', random) }));
  await inBatches(listings, 64, ({ fnr, docs, w }) =>
    writeFile(path.join(fb, 'urkunden', `${fnr}.xml`), soapEnvelope('1.1', sucheUrkundeResponseRoot(w, { fnr }, docs.map((d) => d.listing)))),
  );
  await inBatches(content.documents, 64, async (d) => {
    await writeFile(path.join(fb, 'dokumente', `${d.listing.key}.${d.listing.fileExtension ?? 'bin'}`), d.bytes);
    if (d.expected) await writeFile(path.join(fb, 'expected', `${d.listing.key}.json`), `${JSON.stringify(d.expected, null, 2)}\n`);
  });

  const window = { von: content.changesFrom, bis: content.changesTo };
  const companyChanges = [...content.companyChanges].sort(byDateThenKey((c) => c.executedOn, (c) => c.fnr));
  const documentChanges = content.documents.map(documentChangeOf).sort(byDateThenKey((c) => c.executedOn, (c) => c.key));
  const firmaXml = veraenderungenFirmaResponseRoot(new ResponseXml('veraenderungenFirma', random), window, companyChanges);
  const urkundeXml = veraenderungenUrkundeResponseRoot(new ResponseXml('veraenderungenUrkunde', random), window, documentChanges);
  await writeFile(path.join(fb, 'veraenderungen-firma.xml'), soapEnvelope('1.2', firmaXml));
  await writeFile(path.join(fb, 'veraenderungen-urkunde.xml'), soapEnvelope('1.2', urkundeXml));
  const manifest = {
    firmenbuch: {
      changesFrom: content.changesFrom,
      changesTo: content.changesTo,
      ...(content.malformedDocuments?.length ? { malformedDocuments: content.malformedDocuments } : {}),
    },
  };
  await writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}
