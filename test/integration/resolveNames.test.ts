// POST /businesses/resolve-names labels (issue 23.4): an exact match on a former name is `exact` with
// that former name as matchedName, a score of 1 is never `probable`, and the labels' thresholds are
// the ones the OpenAPI description states.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOLVE_THRESHOLDS } from '../../indexer/search/nameSearch.js';
import { json } from '../helpers/httpClient.js';
import { seedFnr, seedSearchable } from '../helpers/seedCompanies.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    plan: 'api',
    prepare: (db) =>
      seedSearchable(db.sql, [
        { digits: 5101, name: 'Almhütte Huber KG', formerNames: ['Berghof Huber KG', 'Huber Alm OG'] },
        // Its current name starts with the former one: a prefix match that must not win over the exact former name.
        { digits: 5102, name: 'Berghof Huber Hotelbetriebs GmbH' },
        { digits: 5103, name: 'Donau Logistik Süd GmbH' },
        { digits: 5104, name: 'Tauern Getränkehandel GmbH' },
      ]),
  });
});
afterAll(() => api.close());

interface Resolved { name: string; fnr: string | null; matchedName: string | null; score: number; match: string; candidates: Array<{ fnr: string; score: number }> }

async function resolve(names: string[]): Promise<Resolved[]> {
  const res = await api.http.request('/api/v1/businesses/resolve-names', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ names }),
  });
  expect(res.status).toBe(200);
  return json(res);
}

describe('resolve-names labels', () => {
  it('answers an exact match on a former name as exact, naming the former name', async () => {
    const [berghof, alm, lower] = await resolve(['Berghof Huber KG', 'Huber Alm', 'berghof huber']);
    expect(berghof).toMatchObject({ fnr: seedFnr(5101), matchedName: 'Berghof Huber KG', score: 1, match: 'exact' });
    // The company whose current name merely starts so is still a candidate, after it.
    expect(berghof!.candidates.map((c) => c.fnr)).toEqual([seedFnr(5101), seedFnr(5102)]);
    expect(alm).toMatchObject({ fnr: seedFnr(5101), matchedName: 'Huber Alm OG', match: 'exact' });
    expect(lower).toMatchObject({ fnr: seedFnr(5101), matchedName: 'Berghof Huber KG', match: 'exact' });
  });

  it('never labels a score of 1 probable, and labels every other score by the documented thresholds', async () => {
    const names = [
      'Donau Logistik Süd GmH', 'Donau Logistik SüdGmbH', 'Donau Logistk Süd GmbH', 'Tauern Getraenkehandel', 'Tauern Getränke', 'Tauern',
      'Almhuette Huber', 'Berghof Huber Hotelbetriebs', 'Berghof', 'Völlig Unbekannt KG',
    ];
    const answers = await resolve(names);
    // A misspelt or glued legal form over an exact name scores 1: exact, not probable.
    expect(answers[0]).toMatchObject({ fnr: seedFnr(5103), score: 1, match: 'exact' });
    expect(answers[1]).toMatchObject({ fnr: seedFnr(5103), score: 1, match: 'exact' });
    for (const a of answers) {
      const expected = a.fnr === null && a.candidates.length === 0 ? 'none'
        : a.score === 1 ? 'exact'
          : a.score >= RESOLVE_THRESHOLDS.probable ? 'probable' : a.score >= RESOLVE_THRESHOLDS.review ? 'review' : 'none';
      if (a.match === 'exact') expect(a.score, a.name).toBe(1);
      else expect(a.match, `${a.name} (${a.score})`).toBe(expected);
    }
    // The names cover every label, so the checks above mean something.
    expect(new Set(answers.map((a) => a.match))).toEqual(new Set(['exact', 'probable', 'review', 'none']));
  });

  it('states those thresholds in the OpenAPI description of the route', async () => {
    const doc = await json(await api.http.get('/api/v1/openapi.json'));
    const description: string = doc.paths['/businesses/resolve-names'].post.description;
    expect(description).toContain(`\`probable\` when ${RESOLVE_THRESHOLDS.probable} <= score < 1`);
    expect(description).toContain(`\`review\` when ${RESOLVE_THRESHOLDS.review} <= score < ${RESOLVE_THRESHOLDS.probable}`);
    expect(description).toContain('former names');
  });
});
