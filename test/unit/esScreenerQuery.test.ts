import { describe, expect, it } from 'vitest';
import { COLUMNS } from '../../indexer/companySearchTable.js';
import { buildEsScreenerRequest, searchFilter } from '../../indexer/search/elasticsearch/esScreenerQuery.js';
import {
  INDEX_MAPPINGS, INDEX_SETTINGS, MAPPING_VERSION, NAME_PREFIX_MAX, parseIndexName, versionedIndexName,
} from '../../indexer/search/elasticsearch/mapping.js';
import { normaliseForSearch } from '../../indexer/search/postgresScreenerQuery.js';
import { toScreenerQuery } from '../../indexer/search/screenerFilters.js';
import { KEY_FIGURES, figureColumn } from '../../schemas/keyFigures.js';
import { screenerFilters } from '../../schemas/screenerParameters.js';

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
    expect(MAPPING_VERSION).toBe(2);
    expect(name).toBe('companies-v2-20261122051000');
    expect(parseIndexName(name)).toEqual({ mappingVersion: 2, stamp: '20261122051000' });
    expect(parseIndexName('companies')).toBeNull();
    expect(parseIndexName('other-v1-20261122051000')).toBeNull();
  });
});

describe('index mapping: every document field', () => {
  it('maps exactly the read-model columns the indexer sends (the mapping is strict: an unmapped field fails the bulk)', () => {
    expect(INDEX_MAPPINGS.dynamic).toBe('strict');
    expect(Object.keys(INDEX_MAPPINGS.properties).sort()).toEqual([...COLUMNS].sort());
  });
});

// ---------------------------------------------------------------------------------------------
// The screener's `search` on Elasticsearch against the Postgres semantics. Postgres matches
// `all_names_norm LIKE '%' || search_norm(search) || '%'`; the indexer sends the same all_names_norm
// text to Elasticsearch (current and former names joined by ' | ', see DOCUMENT_SELECT).

/** The conformance suite's companies (test/integration/screenerConformance.test.ts): digits, name, former names. */
const CONFORMANCE_NAMES: Array<[number, string, string[]]> = [
  [34853, 'Müller Bau GmbH', []],
  [1001, 'Huber Holz GmbH', []],
  [1002, 'Alpen Handel AG', []],
  [1003, 'Gasthaus Zum Löwen KG', []],
  [1004, 'Stillgelegt Verwaltungs GmbH', []],
  [1005, 'Neue Software OG', ['Softwareschmiede Maier OG']],
  [1006, 'Verlustbringer GmbH', []],
];

const allNamesNorm = (name: string, former: string[]) => [normaliseForSearch(name), ...former.map(normaliseForSearch)].join(' | ');

/** Elasticsearch's wildcard query on a wildcard field: `*` any run, `?` one character, `\` escapes; whole value. */
function wildcardMatches(pattern: string, value: string): boolean {
  let regex = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) regex += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '*') regex += '[\\s\\S]*';
    else if (c === '?') regex += '[\\s\\S]';
    else regex += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${regex}$`).test(value);
}

const esMatches = (search: string) => {
  const clause = searchFilter(search) as { wildcard: { all_names_norm: { value: string } } };
  return CONFORMANCE_NAMES.filter(([, name, former]) => wildcardMatches(clause.wildcard.all_names_norm.value, allNamesNorm(name, former))).map(([d]) => d);
};
const postgresMatches = (search: string) =>
  CONFORMANCE_NAMES.filter(([, name, former]) => allNamesNorm(name, former).includes(normaliseForSearch(search))).map(([d]) => d);

describe('Elasticsearch screener search', () => {
  it('is a filter clause only: it scores nothing, so the sort (and the total order by fnr) stays the screener\'s', () => {
    for (const params of [{ search: 'mueller' }, { search: 'Löwen', orderBy: 'guv.Umsatzerloese' }] as Record<string, string>[]) {
      const body = buildEsScreenerRequest(query(params), 'companies');
      expect(Object.keys(body.query)).toEqual(['bool']);
      expect(Object.keys(body.query.bool as object)).toEqual(['filter']);
      expect(JSON.stringify(body.sort)).not.toContain('_score');
      expect(body.sort!.at(-1)).toEqual({ fnr: { order: 'asc' } });
    }
  });

  it('finds what Postgres finds in the conformance cases: umlauts spelled out, umlauts, former names', () => {
    expect(esMatches('mueller')).toEqual([34853]);
    expect(esMatches('Löwen')).toEqual([1003]);
    expect(esMatches('softwareschmiede')).toEqual([1005]);
    expect(esMatches('MÜLLER')).toEqual([34853]);
    expect(esMatches('zum loewen')).toEqual([1003]);
    expect(esMatches('Maier')).toEqual([1005]);
  });

  it('matches exactly the companies Postgres matches for every infix, umlaut spelling and punctuation of their names', () => {
    const searches = new Set<string>(['gmbh', 'bau gmbh', 'og', 'g', 'handel ag', 'GmbH!', 'Müller-Bau', 'ller b', 'x', 'maier og', 'og | s', '*', '?', 'a\\b']);
    for (const [, name, former] of CONFORMANCE_NAMES) {
      for (const n of [name, ...former]) {
        for (let i = 0; i < n.length; i++) for (const len of [3, 6, 11]) searches.add(n.slice(i, i + len));
        searches.add(n.replace(/ü/g, 'ue').replace(/ö/g, 'oe'));
        searches.add(n.toUpperCase());
      }
    }
    for (const search of searches) expect(esMatches(search), search).toEqual(postgresMatches(search));
  });

  it('writes the normalised search into the wildcard with wildcard characters escaped', () => {
    expect(searchFilter('Gasthaus „Zum Löwen“')).toEqual({ wildcard: { all_names_norm: { value: '*gasthaus zum loewen*' } } });
    expect(searchFilter('Straße & Söhne')).toEqual({ wildcard: { all_names_norm: { value: '*strasse soehne*' } } });
  });
});

// ---------------------------------------------------------------------------------------------
// The name analyzers, run from their definition in INDEX_SETTINGS by a small interpreter of the
// building blocks used (an unknown block fails the test instead of being skipped).

type AnalysisDefs = Record<string, Record<string, { type: string; [key: string]: unknown }>>;
const analysis = INDEX_SETTINGS.analysis as unknown as AnalysisDefs;

function analyze(analyzer: string, text: string): string[] {
  const def = analysis.analyzer![analyzer] as unknown as { type: string; char_filter: string[]; tokenizer: string; filter: string[] };
  expect(def, analyzer).toBeDefined();
  expect(def.type).toBe('custom');
  let value = text;
  for (const name of def.char_filter) {
    const cf = analysis.char_filter![name]!;
    if (cf.type !== 'mapping') throw new Error(`char filter type ${cf.type} not interpreted`);
    for (const rule of cf.mappings as string[]) {
      const [from, to] = rule.split(' => ') as [string, string];
      value = value.split(from).join(to);
    }
  }
  const tokenizer = analysis.tokenizer![def.tokenizer]!;
  if (tokenizer.type !== 'pattern') throw new Error(`tokenizer type ${tokenizer.type} not interpreted`);
  let tokens = value.split(new RegExp(tokenizer.pattern as string, 'u')).filter((t) => t !== '');
  for (const name of def.filter) {
    const f = name === 'lowercase' ? { type: 'lowercase' } : analysis.filter![name]!;
    if (f.type === 'lowercase') tokens = tokens.map((t) => t.toLowerCase());
    else if (f.type === 'asciifolding' && f.preserve_original === false) tokens = tokens.map((t) => t.normalize('NFD').replace(/\p{M}/gu, ''));
    else if (f.type === 'edge_ngram') {
      tokens = tokens.flatMap((t) => Array.from({ length: Math.min(t.length, f.max_gram as number) - (f.min_gram as number) + 1 }, (_, i) => t.slice(0, (f.min_gram as number) + i)));
    } else if (f.type === 'truncate') tokens = tokens.map((t) => t.slice(0, f.length as number));
    else throw new Error(`token filter ${name} (${f.type}) not interpreted`);
  }
  return tokens;
}

describe('name analysis with German folding', () => {
  it('indexes Müller, Mueller and MÜLLER identically (ä = ae, not ä = a)', () => {
    for (const analyzer of ['name_folded', 'name_prefix_index', 'name_prefix_query']) {
      const mueller = analyze(analyzer, 'Mueller Bau GmbH');
      expect(analyze(analyzer, 'Müller Bau GmbH'), analyzer).toEqual(mueller);
      expect(analyze(analyzer, 'MÜLLER BAU GMBH'), analyzer).toEqual(mueller);
    }
    expect(analyze('name_folded', 'Müller Bau GmbH')).toEqual(['mueller', 'bau', 'gmbh']);
    expect(analyze('name_folded', 'Müller')).not.toEqual(analyze('name_folded', 'Muller'));
    expect(analyze('name_folded', 'Gasthaus Zum Löwen KG')).toEqual(['gasthaus', 'zum', 'loewen', 'kg']);
    expect(analyze('name_folded', 'Straße GROẞHANDEL Café')).toEqual(['strasse', 'grosshandel', 'cafe']);
  });

  it('makes the same words as the Postgres search_norm folding', () => {
    for (const name of [
      'Müller Bau GmbH', 'Gasthaus Zum Löwen KG', 'Süßwarenmanufaktur Maß & Söhne Gesellschaft m.b.H.', 'Wörthersee Schifffahrt GmbH',
      'Kaiserblick Café-Konditorei GmbH', 'Blumen Höfer e.U.', 'Ötztaler Bergbahnen AG', 'Hallstätter Seehotel GmbH & Co KG',
      'ÜBERLAND STRASSENBAU G.M.B.H.', 'Dvořák Čokoláda Handels-GmbH', 'Bäckerei Öztürk OG (vormals "Brot & Co")',
    ]) {
      expect(analyze('name_folded', name).join(' '), name).toBe(normaliseForSearch(name));
    }
  });

  it('indexes every word\'s prefixes, so a typed beginning with or without umlaut finds the name', () => {
    const indexed = new Set(analyze('name_prefix_index', 'Gasthaus Zum Löwen KG'));
    for (const typed of ['Lö', 'Loe', 'löw', 'Gasth', 'zum l']) {
      for (const word of analyze('name_prefix_query', typed)) expect(indexed.has(word), `${typed}: ${word}`).toBe(true);
    }
    expect(indexed.has('low')).toBe(false);
    // Words longer than the longest prefix indexed still match: the query side cuts them to it.
    const long = 'Projektentwicklungsgesellschaft';
    const longIndexed = new Set(analyze('name_prefix_index', `Werftareal ${long} mbH`));
    expect(analyze('name_prefix_query', long)).toEqual([normaliseForSearch(long).slice(0, NAME_PREFIX_MAX)]);
    expect(longIndexed.has(analyze('name_prefix_query', long)[0]!)).toBe(true);
  });

  it('puts the analyzers on the current and former name fields, with a prefix subfield', () => {
    for (const field of ['name', 'former_names'] as const) {
      const mapping = INDEX_MAPPINGS.properties[field];
      expect(mapping).toMatchObject({
        type: 'text', analyzer: 'name_folded',
        fields: { prefix: { type: 'text', analyzer: 'name_prefix_index', search_analyzer: 'name_prefix_query' } },
      });
    }
    expect(INDEX_MAPPINGS.properties.name.fields.raw).toEqual({ type: 'keyword' });
    expect(INDEX_MAPPINGS.properties.all_names_norm).toEqual({ type: 'wildcard' });
    expect(INDEX_MAPPINGS.properties.core_norm).toEqual({ type: 'keyword' });
  });
});
