import { describe, expect, it } from 'vitest';
import { buildEsScreenerRequest } from '../../indexer/search/elasticsearch/esScreenerQuery.js';
import { INDEX_MAPPINGS, parseIndexName, versionedIndexName } from '../../indexer/search/elasticsearch/mapping.js';
import { screenerFilters, toScreenerQuery } from '../../indexer/search/screenerFilters.js';
import { KEY_FIGURES, figureColumn } from '../../schemas/keyFigures.js';

const query = (params: Record<string, string>, paging = { page: 1, pageSize: 10 }, oenacePath?: string) =>
  toScreenerQuery(screenerFilters.strict().parse(params), paging, oenacePath);

describe('Elasticsearch screener request', () => {
  it('turns every filter into a bool filter clause', () => {
    const body = buildEsScreenerRequest(
      query({
        search: 'Müller*', fnr: '034853 f', city: 'Wien', zipCode: '1010', courtCode: '007', legalFormCode: 'GES', gisaLicenseKey: '123',
        active: 'true', isScheinunternehmen: 'false', 'bilanz.BilanzSumme_gte': '1000000.50', employees_lte: '50',
      }, undefined, 'C107'),
      'companies',
    );
    expect(body.query).toEqual({
      bool: {
        filter: [
          { wildcard: { all_names_norm: { value: '*mueller*' } } },
          { term: { fnr: '34853f' } },
          { term: { city_norm: 'wien' } },
          { term: { zip_code: '1010' } },
          { term: { court_code: '007' } },
          { term: { legal_form_code: 'GES' } },
          { term: { oenace_paths: 'C107' } },
          { term: { trade_keys: '123' } },
          { term: { is_active: true } },
          { term: { is_scheinunternehmen: false } },
          { range: { fig_bilanzsumme: { gte: '1000000.50' } } },
          { range: { fig_employees: { lte: '50' } } },
        ],
      },
    });
    expect(body.track_total_hits).toBe(true);
  });

  it('sorts by a figure with missing values last and fnr as tie-breaker, and pages by from/size', () => {
    const body = buildEsScreenerRequest(query({ orderBy: 'guv.Umsatzerloese', orderByDescending: 'true' }, { page: 3, pageSize: 50 }), 'companies');
    expect(body.sort).toEqual([{ fig_umsatzerloese: { order: 'desc', missing: '_last' } }, { fnr: { order: 'asc' } }]);
    expect(body.from).toBe(100);
    expect(body.size).toBe(50);
  });

  it('uses the Postgres default order when no figure is chosen', () => {
    expect(buildEsScreenerRequest(query({}), 'companies').sort).toEqual([
      { is_active: { order: 'desc' } }, { name_norm: { order: 'asc' } }, { fnr: { order: 'asc' } },
    ]);
  });

  it('asks only for the count when countOnly', () => {
    expect(buildEsScreenerRequest(query({ city: 'Graz' }), 'companies', { countOnly: true })).toEqual({
      index: 'companies', query: { bool: { filter: [{ term: { city_norm: 'graz' } }] } }, size: 0, track_total_hits: true,
    });
  });
});

describe('index mapping', () => {
  it('maps all 47 figures as scaled floats in cents', () => {
    for (const f of KEY_FIGURES) expect(INDEX_MAPPINGS.properties[figureColumn(f) as keyof typeof INDEX_MAPPINGS.properties]).toEqual({ type: 'scaled_float', scaling_factor: 100 });
  });
  it('names indices by mapping version and time, and recognises only its own', () => {
    const name = versionedIndexName(new Date('2026-11-22T05:10:00.123Z'));
    expect(name).toBe('companies-v1-20261122051000');
    expect(parseIndexName(name)).toEqual({ mappingVersion: 1, stamp: '20261122051000' });
    expect(parseIndexName('companies')).toBeNull();
    expect(parseIndexName('other-v1-20261122051000')).toBeNull();
  });
});
