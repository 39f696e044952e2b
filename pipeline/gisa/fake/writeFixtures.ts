// Writes the GISA fixtures from fixtureModel.ts: `npx tsx pipeline/gisa/fake/writeFixtures.ts`.
//   fixtures/corpus/gisa/gewerbe/<gisaZahl>.xml   GetGewerbeV2 answers, served by the fake in replays
//   fixtures/corpus/gisa/expected/<gisaZahl>.json the record gewerbeParser must read from each
//   fixtures/corpus/gisa/katalog-*.xml            the two catalogue answers
//   fixtures/gisa/*.xml (+ .expected.json)        the other answers the parser tests read
// Deterministic: the same files come out every time; the output is checked in.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { personId } from '../../../schemas/identifiers.js';
import type { TradeLicence } from '../../../schemas/tradeRecords.js';
import { CATALOGUE, KINDS, LICENCES, type ModelLicence, type ModelPerson } from './fixtureModel.js';
import { catalogueOutput, dayAfter, errorOutput, gewerbeElement, gewerbeOutput, kindsOutput, okOutput, searchOutput } from './gisaResponses.js';

const ROOT = resolve(import.meta.dirname, '../../../fixtures');

const fnrOf = (spelled: string) => spelled.replace(/^FN\s*/i, '').replace(/\s+/g, '').replace(/^0+/, '').toLowerCase();
const fullName = (p: ModelPerson) => `${p.first} ${p.last}`;

/** What the parser must read from a licence's answer. */
export function expectedLicence(l: ModelLicence): TradeLicence {
  const h = l.holder;
  const street = (at: ModelLicence['at']) => `${at.street} ${at.number}`;
  return {
    gisaZahl: l.gisaZahl,
    tradeKey: l.key,
    wording: l.wording ?? CATALOGUE.find(([k]) => k === l.key)![1],
    authority: { code: l.authority[0], text: l.authority[1] },
    effectiveFrom: l.from,
    endedOn: l.ended ?? null,
    isIndustrial: l.industrial ?? false,
    isDormant: Boolean(l.dormant),
    dormantFrom: l.dormant?.[0] ?? null,
    dormantUntil: l.dormant?.[1] ?? null,
    holder: h.company
      ? { type: 'legal', name: h.company.name, fnr: h.company.fnr, personId: null, firstName: null, lastName: null, birthDate: null }
      : {
          type: 'natural', name: fullName(h.person!), fnr: h.firmFnr ? fnrOf(h.firmFnr) : null,
          personId: h.person!.born ? personId(h.person!.first, h.person!.last, h.person!.born) : null,
          firstName: h.person!.first, lastName: h.person!.last, birthDate: h.person!.born ?? null,
        },
    location: { street: street(l.at), zipCode: l.at.zip, city: l.at.city, effectiveFrom: l.moved ? dayAfter(l.moved[0]![2]) : l.from, endedOn: null },
    locationHistory: (l.moved ?? []).map(([at, from, ended]) => ({ street: street(at), zipCode: at.zip, city: at.city, effectiveFrom: from, endedOn: ended })),
    history: (l.formerly ?? []).map(([tradeKey, wording, effectiveFrom, endedOn]) => ({ tradeKey, wording, effectiveFrom, endedOn })),
    manager: l.manager ? { name: fullName(l.manager), personId: l.manager.born ? personId(l.manager.first, l.manager.last, l.manager.born) : null } : null,
    warnings: [],
  };
}

function write(path: string, text: string): void {
  mkdirSync(resolve(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

export function writeGisaFixtures(root = ROOT): void {
  const corpus = join(root, 'corpus/gisa');
  rmSync(corpus, { recursive: true, force: true });
  for (const l of LICENCES) {
    write(join(corpus, 'gewerbe', `${l.gisaZahl}.xml`), gewerbeOutput(gewerbeElement(l)) + '\n');
    write(join(corpus, 'expected', `${l.gisaZahl}.json`), JSON.stringify(expectedLicence(l), null, 2) + '\n');
  }
  write(join(corpus, 'katalog-gewerbeschluessel.xml'), catalogueOutput() + '\n');
  write(join(corpus, 'katalog-gewerbeart.xml'), kindsOutput(KINDS) + '\n');

  // The other answers, for the parser tests.
  const dir = join(root, 'gisa');
  const wienerwald = LICENCES.filter((l) => l.holder.company?.fnr === '33918f');
  write(join(dir, 'search-person-jur-33918f.xml'), searchOutput('SearchPersonJur', wienerwald.map(gewerbeElement)) + '\n');
  write(join(dir, 'search-person-jur-33918f.expected.json'), JSON.stringify({
    hits: wienerwald.map((l) => ({ gisaZahl: l.gisaZahl, tradeKey: l.key, endedOn: l.ended ?? null, holderFnr: '33918f', holderPerson: null })), capped: false,
  }, null, 2) + '\n');
  write(join(dir, 'search-person-nat-empty.xml'), searchOutput('SearchPersonNat', []) + '\n');
  write(join(dir, 'error-1000.xml'), errorOutput('GetGewerbeV2', '1000', 'Die GISA-Zahl wurde nicht gefunden oder ist ungültig.') + '\n');
  write(join(dir, 'error-300.xml'), errorOutput('GetGewerbeV2', '300', 'Der API-Key wurde nicht gefunden oder ist abgelaufen.') + '\n');
  write(join(dir, 'error-1050.xml'), errorOutput('SearchPersonJur', '1050', 'Name, Firmenbuchnummer oder Vereinsregisternummer muss angegeben werden.') + '\n');
  write(join(dir, 'start-auszug.xml'), okOutput('StartGISAAuszug', '<Jobid>4711</Jobid>') + '\n');
  write(join(dir, 'auszug-status-working.xml'), okOutput('GetAuszugStatus', '<Status>Working</Status>') + '\n');
  write(join(dir, 'apikey-info.xml'), okOutput('GetApikeyInfo', '<AblaufDatum>2027-03-31T00:00:00</AblaufDatum><Name>Beispiel</Name><QuotaAuszugMinute>10</QuotaAuszugMinute><QuotaDatenMinute>200</QuotaDatenMinute>') + '\n');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) writeGisaFixtures();
