// GET /people/{personId} with the id spelled in ASCII (issue 23.9): /people/zoe-fuerst-1990-02-14 finds
// zoë-fürst-1990-02-14 and answers it under its canonical id with a Content-Location header; the exact
// id always wins; a spelling that fits several people is a 404 naming them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../helpers/httpClient.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    plan: 'api',
    prepare: async (db) => {
      const people = [
        ['zoë-fürst-1990-02-14', 'Zoë', 'Fürst', '1990-02-14'],
        ['jürgen-strauß-1970-02-01', 'Jürgen', 'Strauß', '1970-02-01'],
        ['františek-dvořák-x', 'František', 'Dvořák', null],
        // Two people whose ids fold alike: the register spells them apart.
        ['lena-müller-1980-01-01', 'Lena', 'Müller', '1980-01-01'],
        ['lena-mueller-1980-01-01', 'Lena', 'Mueller', '1980-01-01'],
      ] as const;
      for (const [id, first, last, birth] of people) {
        await db.sql`INSERT INTO person (person_id, first_name, last_name, birth_date, name_norm)
                     VALUES (${id}, ${first}, ${last}, ${birth}, ${`${first} ${last}`.toLowerCase()})`;
      }
    },
  });
});
afterAll(() => api.close());

const get = (id: string) => api.http.get(`/api/v1/people/${encodeURIComponent(id)}`);

describe('person ids spelled in ASCII', () => {
  it('resolve to the person, answered under the canonical id with Content-Location', async () => {
    for (const spelling of ['zoe-fuerst-1990-02-14', 'zoe-furst-1990-02-14', 'Zoe-Fuerst-1990-02-14', 'zoë-fuerst-1990-02-14', 'zoe\u0308-fu\u0308rst-1990-02-14']) {
      const res = await get(spelling);
      expect(res.status, spelling).toBe(200);
      expect(res.headers.get('content-location'), spelling).toBe(`/api/v1/people/${encodeURIComponent('zoë-fürst-1990-02-14')}`);
      expect(await json(res), spelling).toMatchObject({ personId: 'zoë-fürst-1990-02-14', firstName: 'Zoë', lastName: 'Fürst', birthDate: '1990-02-14' });
    }
    expect(await json(await get('juergen-strauss-1970-02-01'))).toMatchObject({ personId: 'jürgen-strauß-1970-02-01' });
    expect(await json(await get('jurgen-strauss-1970-02-01'))).toMatchObject({ personId: 'jürgen-strauß-1970-02-01' });
    expect(await json(await get('frantisek-dvorak-x'))).toMatchObject({ personId: 'františek-dvořák-x' });
  });

  it('answer the canonical id as before, without Content-Location', async () => {
    const res = await get('zoë-fürst-1990-02-14');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-location')).toBeNull();
    // The exact id wins over another person whose id folds alike.
    expect(await json(await get('lena-mueller-1980-01-01'))).toMatchObject({ personId: 'lena-mueller-1980-01-01', lastName: 'Mueller' });
    expect(await json(await get('lena-müller-1980-01-01'))).toMatchObject({ personId: 'lena-müller-1980-01-01', lastName: 'Müller' });
  });

  it('are a 404 when they fit nobody, or several people, naming those', async () => {
    const nobody = await get('zoe-fuerst-1990-02-15');
    expect(nobody.status).toBe(404);
    expect((await json(nobody)).detail).toBe('No person has the id zoe-fuerst-1990-02-15.');
    const several = await get('lena-muller-1980-01-01');
    expect(several.status).toBe(404);
    expect((await json(several)).detail).toBe('No person has the id lena-muller-1980-01-01; spelled with their letters it could be lena-mueller-1980-01-01 or lena-müller-1980-01-01.');
  });

  it('are described in the OpenAPI document', async () => {
    const doc = await json(await api.http.get('/api/v1/openapi.json'));
    expect(doc.paths['/people/{personId}'].get.description).toMatch(/`zoe-fuerst-1990-02-14`.*Content-Location/s);
  });
});
