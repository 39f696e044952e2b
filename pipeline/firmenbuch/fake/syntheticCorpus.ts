// Writes Firmenbuch-shaped data: SOAP response XML as the HVD service sends it, annual-account filings
// with known figures, small PDFs, and whole replay corpora in the layout of fixtures/corpus/README.md.
// The writers live in synthetic/ (response XML, AUSZUG, listings and change feeds, filings, PDFs, the
// corpus directory); this module writes a corpus of N typical companies for the ingestion benchmark, the
// API benchmark and cap tests (`writeSyntheticCorpus(dir, { companies: N, seed })`).
//
// Everything is a pure function of its input and a seeded PRNG: the same seed writes the same bytes.

import { writeCorpus } from './synthetic/corpusDirectory.js';
import { seededRandom } from './synthetic/random.js';
import { syntheticCompany, type SyntheticOptions } from './synthetic/syntheticCompany.js';

export type { SyntheticOptions };

/** N synthetic companies (one typical filing each) in the corpus layout, for benchmarks and cap tests. */
export async function writeSyntheticCorpus(dir: string, options: SyntheticOptions): Promise<void> {
  const resolved = {
    firstFnr: options.firstFnr ?? 600001,
    changesFrom: options.changesFrom ?? '2026-10-01',
    changesTo: options.changesTo ?? '2026-10-21',
  };
  const random = seededRandom(options.seed);
  const generated = Array.from({ length: options.companies }, (_, i) => syntheticCompany(i, random, resolved));
  await writeCorpus(
    dir,
    {
      companies: generated.map((g) => g.company),
      documents: options.filings === false ? [] : generated.flatMap((g) => g.documents),
      companyChanges: generated.map((g) => g.change),
      changesFrom: resolved.changesFrom,
      changesTo: resolved.changesTo,
    },
    random,
  );
}
