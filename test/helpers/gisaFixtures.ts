// What the API must answer for the GISA fixtures: the licence record of each expected parse result
// (fixtures/corpus/gisa/expected), built from the files and the fixture catalogue, not by the code under test.
import { readdirSync, readFileSync } from 'node:fs';
import { CATALOGUE, KINDS } from '../../pipeline/gisa/fake/fixtureModel.js';
import type { TradeLicence } from '../../schemas/tradeRecords.js';

const EXPECTED = new URL('../../fixtures/corpus/gisa/expected/', import.meta.url).pathname;

export const GISA_RECORDS: TradeLicence[] = readdirSync(EXPECTED).sort().map((f) => JSON.parse(readFileSync(EXPECTED + f, 'utf8')) as TradeLicence);

const kindOf = (key: string | null) => KINDS.find(([code]) => code === CATALOGUE.find(([k]) => k === key)?.[2])?.[1] ?? null;

/** The API's licence record; the manager's personId only where the register names that person. */
export function licenceRecord(r: TradeLicence, registerPersons: { has: (personId: string) => boolean }) {
  return {
    gisaZahl: r.gisaZahl, fnr: r.holder.fnr, tradeKey: r.tradeKey, wording: r.wording, kind: kindOf(r.tradeKey), authority: r.authority,
    effectiveFrom: r.effectiveFrom, endedOn: r.endedOn, isActive: r.endedOn === null, isDormant: r.isDormant, dormantFrom: r.dormantFrom,
    dormantUntil: r.dormantUntil, holder: { type: r.holder.type, name: r.holder.name, fnr: r.holder.fnr },
    location: { street: r.location?.street ?? null, zipCode: r.location?.zipCode ?? null, city: r.location?.city ?? null },
    manager: r.manager ? { name: r.manager.name, personId: r.manager.personId && registerPersons.has(r.manager.personId) ? r.manager.personId : null } : null,
  };
}

/** Current licences first, then the most recently effective, then by GISA-Zahl. */
export const currentFirst = (a: TradeLicence, b: TradeLicence) =>
  Number(a.endedOn !== null) - Number(b.endedOn !== null) || (b.effectiveFrom ?? '').localeCompare(a.effectiveFrom ?? '') || a.gisaZahl.localeCompare(b.gisaZahl);

/** The licences of a company, or of a person as holder, in the API's order. */
export const companyLicences = (fnr: string, persons: { has: (id: string) => boolean }) =>
  GISA_RECORDS.filter((r) => r.holder.fnr === fnr).sort(currentFirst).map((r) => licenceRecord(r, persons));
export const personLicences = (personId: string, persons: { has: (id: string) => boolean }) =>
  GISA_RECORDS.filter((r) => r.holder.type === 'natural' && r.holder.personId === personId).sort(currentFirst).map((r) => licenceRecord(r, persons));
