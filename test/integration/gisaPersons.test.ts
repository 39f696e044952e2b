// The persons GISA is asked about (audit of issue 20): every natural person the register names with a
// birth date, whatever the role, is looked up once by SearchPersonNat; a search that answers namesakes
// (phonetic or wildcard, the fake's personSearchByNameOnly) keeps only the licences whose holder has
// this name and birth date, without fetching the others; and a licence's gewerberechtlicher
// Geschäftsführer is linked to a register person only where name and birth date both match.
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCompanyLicenses } from '../../api/operations/trades.js';
import { startFakeGisa, type FakeGisa } from '../../pipeline/gisa/fake/fakeGisa.js';
import { GisaClient } from '../../pipeline/gisa/gisaClient.js';
import { gisaHandlers } from '../../pipeline/gisa/gisaJobs.js';
import { recordChanges } from '../../pipeline/store/changeLog.js';
import { createLogger } from '../../runtime/logger.js';
import { personId } from '../../schemas/identifiers.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = new URL('../../fixtures/corpus/', import.meta.url).pathname;
const log = createLogger('silent');
const noJob = undefined as unknown as Job;

describe('GISA person lookups', () => {
  let db: TestDatabase;
  let fake: FakeGisa;
  beforeAll(async () => {
    db = await createTestDatabase();
    fake = await startFakeGisa({ fixturesDir: CORPUS, personSearchByNameOnly: true });
  });
  afterAll(async () => {
    await fake.close();
    await db.drop();
  });

  /** The handlers with the licence jobs a lookup enqueues kept to be worked by the test. */
  function handlers() {
    const enqueued: Record<string, Array<Record<string, unknown>>> = {};
    const h = gisaHandlers({
      sql: db.sql, client: new GisaClient({ baseUrl: fake.url }), log,
      enqueueMany: async (key, payloads) => void (enqueued[key] ??= []).push(...(payloads as Array<Record<string, unknown>>)),
    });
    return { h, enqueued };
  }

  const person = (first: string | null, last: string, born: string | null) => ({ personId: personId(first, last, born), first, last, born });

  it('follows a company change to every person it names with a birth date: directors, partners, shareholders and the rest', async () => {
    const fnr = '77001t';
    const roles: Array<[code: string, p: ReturnType<typeof person>, current: boolean]> = [
      ['GF', person('Anna', 'Direktor', '1970-01-01'), true], // managing director
      ['GF', person('Otto', 'Früher', '1950-02-02'), false], // a former one
      ['GS', person('Berta', 'Anteil', '1971-03-03'), true], // shareholder (with a holding)
      ['PH', person('Carl', 'Haftend', '1972-04-04'), true], // general partner
      ['KM', person('Dora', 'Kommandit', '1973-05-05'), true], // limited partner
      ['PR', person('Emil', 'Prokura', '1974-06-06'), true],
      ['VM', person('Fritz', 'Vorstand', '1975-07-07'), true],
      ['AR', person('Gerda', 'Aufsicht', '1976-08-08'), true],
      ['IH', person(null, 'Einname', '1977-09-09'), true], // a person with one name
      ['GF', person('Hans', 'Ohnedatum', null), true], // no birth date: GISA cannot be asked
    ];
    await db.sql`INSERT INTO company (fnr, name) VALUES (${fnr}, 'Rollen Test KG')`;
    for (const [i, [code, p, current]] of roles.entries()) {
      const pnr = String.fromCharCode(65 + i);
      await db.sql`
        INSERT INTO person (person_id, first_name, last_name, birth_date, name_norm)
        VALUES (${p.personId}, ${p.first}, ${p.last}, ${p.born}, ${`${p.first ?? ''} ${p.last}`.toLowerCase()}) ON CONFLICT DO NOTHING`;
      await db.sql`INSERT INTO company_party (fnr, pnr, kind, person_id) VALUES (${fnr}, ${pnr}, 'person', ${p.personId})`;
      await db.sql`INSERT INTO company_function (fnr, pnr, function_code, vnr, is_current) VALUES (${fnr}, ${pnr}, ${code}, '1', ${current})`;
      if (code === 'GS') await db.sql`INSERT INTO holding (fnr, pnr, vnr, capital, currency, is_current) VALUES (${fnr}, ${pnr}, '1', 35000, 'EUR', true)`;
    }
    await db.sql.begin((tx) => recordChanges(tx, [{ type: 'business', fnr, action: 'created', changedFields: [], vnr: '1' }]));
    const { h, enqueued } = handlers();
    await h.follow({}, { data: {}, updateData: async () => undefined, updateProgress: async () => undefined } as unknown as Job);
    expect(enqueued.company).toEqual([{ fnr, cause: expect.any(String) }]);
    const asked = roles.filter(([, p]) => p.born !== null).map(([, p]) => ({ personId: p.personId, firstName: p.first, lastName: p.last, birthDate: p.born }));
    expect(enqueued.person!.sort((a, b) => String(a.personId).localeCompare(String(b.personId)))).toEqual(asked.sort((a, b) => a.personId.localeCompare(b.personId)));
  });

  it('keeps only the licences of the person with this birth date when the search answers namesakes, and fetches no namesake', async () => {
    const { h, enqueued } = handlers();
    const leitner = { personId: 'gerhard-leitner-1966-02-21', firstName: 'Gerhard', lastName: 'Leitner', birthDate: '1966-02-21' };
    const fetchesBefore = fake.calls.filter((c) => c.method === 'GetGewerbeV2').length;
    const searched = await h.person(leitner, noJob);
    // The search found his two licences and his namesake's (born 1970-05-05).
    expect(searched).toMatchObject({ hits: 3, toFetch: 2 });
    expect((enqueued.licence ?? []).map((j) => j.gisaZahl).sort()).toEqual(['100000542', '100000559']);
    for (const job of enqueued.licence ?? []) await h.licence(job as never, noJob);
    expect(fake.calls.filter((c) => c.method === 'GetGewerbeV2').length - fetchesBefore).toBe(2);
    const stored = await db.sql<{ gisaZahl: string; holderPersonId: string }[]>`
      SELECT gisa_zahl, holder_person_id FROM trade_license WHERE holder_name = 'Gerhard Leitner' ORDER BY gisa_zahl`;
    expect(stored).toEqual([
      { gisaZahl: '100000542', holderPersonId: leitner.personId },
      { gisaZahl: '100000559', holderPersonId: leitner.personId },
    ]);
    const [checked] = await db.sql`SELECT 1 FROM gisa_person_check WHERE person_id = ${leitner.personId}`;
    expect(checked).toBeDefined();
  });

  it('a licence a namesake\'s search reached anyway (no birth date in the hit) is fetched and not stored as theirs', async () => {
    const { h } = handlers();
    const namesake = { personId: 'gerhard-leitner-1980-01-01', firstName: 'Gerhard', lastName: 'Leitner', birthDate: '1980-01-01' };
    const result = await h.licence({ gisaZahl: '100000610', cause: 'test', person: namesake }, noJob);
    expect(result).toEqual({ skipped: 'another holder' });
    const [row] = await db.sql`SELECT 1 FROM trade_license WHERE gisa_zahl = '100000610'`;
    expect(row).toBeUndefined();
  });

  it('links the gewerberechtlicher Geschäftsführer to a register person only where name and birth date match', async () => {
    // 100000054: Wienerwald Bau (33918f), managed by Gerhard Leitner born 1966-02-21.
    await db.sql`INSERT INTO company (fnr, name) VALUES ('33918f', 'Wienerwald Bau- und Handelsgesellschaft m.b.H.')`;
    const { h } = handlers();
    await h.licence({ gisaZahl: '100000054', cause: 'test' }, noJob);
    const manager = async () => {
      const page = await listCompanyLicenses(db.sql, '33918f', { page: 1, pageSize: 10 });
      return (page.data as Array<{ gisaZahl: string; manager: unknown }>).find((l) => l.gisaZahl === '100000054')!.manager;
    };
    // Only namesakes in the register: another birth date, another first name, no birth date.
    await db.sql`
      INSERT INTO person (person_id, first_name, last_name, birth_date, name_norm) VALUES
        ('gerhard-leitner-1970-05-05', 'Gerhard', 'Leitner', '1970-05-05', 'gerhard leitner'),
        ('walter-leitner-1966-02-21', 'Walter', 'Leitner', '1966-02-21', 'walter leitner'),
        ('gerhard-leitner-x', 'Gerhard', 'Leitner', NULL, 'gerhard leitner')
      ON CONFLICT DO NOTHING`;
    expect(await manager()).toEqual({ name: 'Gerhard Leitner', personId: null });
    await db.sql`INSERT INTO person (person_id, first_name, last_name, birth_date, name_norm) VALUES ('gerhard-leitner-1966-02-21', 'Gerhard', 'Leitner', '1966-02-21', 'gerhard leitner') ON CONFLICT DO NOTHING`;
    expect(await manager()).toEqual({ name: 'Gerhard Leitner', personId: 'gerhard-leitner-1966-02-21' });
  });
});
