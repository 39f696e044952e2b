// What the API must answer for the BMF list fixtures: a company's scheinunternehmenKundmachungen after
// a replay, built from the last list version's expected parse and the hand-labelled links
// (fixtures/corpus/bmf/links.json), not by the code under test.
import { readdirSync, readFileSync } from 'node:fs';
import type { BogusListing } from '../../schemas/bmfRecords.js';

const BMF = new URL('../../fixtures/corpus/bmf/', import.meta.url).pathname;
const lastExpected = readdirSync(`${BMF}lists`).filter((f) => f.endsWith('.expected.json')).sort().at(-1)!;
const LISTINGS = (JSON.parse(readFileSync(`${BMF}lists/${lastExpected}`, 'utf8')) as { listings: BogusListing[] }).listings;
const LINKS = (JSON.parse(readFileSync(`${BMF}links.json`, 'utf8')) as { links: Record<string, { fnr: string; evidence: string; confidence: number }> }).links;

/** The profile's publications of the listings linked to `fnr`, oldest first. */
export function companyKundmachungen(fnr: string) {
  return LISTINGS.filter((l) => LINKS[l.listingKey]?.fnr === fnr)
    .flatMap((l) => l.publications.map((p) => ({
      name: l.name, ...p, address: l.address, uid: l.uid, urCode: l.urCode, listedFnr: l.fnr,
      link: { evidence: LINKS[l.listingKey]!.evidence, confidence: LINKS[l.listingKey]!.confidence },
    })))
    .sort((a, b) => a.publishedOn.localeCompare(b.publishedOn));
}
