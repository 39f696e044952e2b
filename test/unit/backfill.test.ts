import { describe, expect, it } from 'vitest';
import { backfillRoots, FIRST_CHARACTERS, MAX_PREFIX_LENGTH, NEXT_CHARACTERS, splitCappedTask } from '../../pipeline/firmenbuch/backfill.js';
import { firmenbuchHandlers } from '../../pipeline/firmenbuch/firmenbuchJobs.js';
import type { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import type { Sql } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';

describe('backfill planning', () => {
  it('starts with every first character under every legal form', () => {
    const roots = backfillRoots(['GES', 'AG']);
    expect(roots).toHaveLength(2 * FIRST_CHARACTERS.length);
    expect(roots[0]).toEqual({ legalForm: 'GES', prefix: 'A' });
  });

  it('splits a capped prefix into longer ones, then by federal state, then gives up', () => {
    expect(splitCappedTask({ legalForm: 'GES', prefix: 'Al' }).map((t) => t.prefix)).toEqual(NEXT_CHARACTERS.map((c) => `Al${c}`));
    const long = 'A'.repeat(MAX_PREFIX_LENGTH);
    expect(splitCappedTask({ legalForm: 'GES', prefix: long }).map((t) => t.ortnr)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(splitCappedTask({ legalForm: 'GES', prefix: long, ortnr: '9' })).toEqual([]);
  });
});

describe('backfill job', () => {
  const hit = (n: number) => ({ fnr: `${n}a`, fnrCheckLetterValid: false, status: 'active', statusText: '', name: `Firma ${n}`, nameLines: [], seat: null, legalForm: null, legalCharacteristic: null, court: null });
  const run = async (hits: number) => {
    const enqueued: Array<[string, unknown]> = [];
    const requests: unknown[] = [];
    const client = {
      searchCompanies: async (params: unknown) => {
        requests.push(params);
        return { request: {}, hits: Array.from({ length: hits }, (_, i) => hit(i)), capped: hits >= 1000, warnings: [] };
      },
    } as unknown as FirmenbuchClient;
    const handlers = firmenbuchHandlers({
      sql: null as unknown as Sql, client, log: createLogger('silent'),
      enqueue: async (key, payload) => void enqueued.push([key, payload]),
    });
    await handlers.backfill({ legalForm: 'GES', prefix: 'Al' }, null as never);
    return { enqueued, requests };
  };

  it('searches the prefix exactly within the legal form and enqueues a company job per hit', async () => {
    const { enqueued, requests } = await run(3);
    expect(requests).toEqual([{ firmenwortlaut: 'Al*', exakteSuche: true, suchbereich: 1, rechtsform: 'GES', ortnr: undefined }]);
    expect(enqueued).toEqual([0, 1, 2].map((n) => ['company', { fnr: `${n}a`, vnr: null }]));
  });

  it('splits the prefix instead when the search hit the 1000 cap', async () => {
    const { enqueued } = await run(1000);
    expect(enqueued.every(([key]) => key === 'backfill')).toBe(true);
    expect(enqueued.map(([, p]) => (p as { prefix: string }).prefix)).toEqual(NEXT_CHARACTERS.map((c) => `Al${c}`));
  });
});
