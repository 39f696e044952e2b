// The Elasticsearch index: explicit mapping, versioned index names behind one alias. Documents are
// the Postgres read-model rows (indexer/companySearchTable.ts), so names are normalised exactly as
// the Postgres backend normalises them and both backends answer alike.
import { KEY_FIGURES, figureColumn } from '../../../schemas/keyFigures.js';

/** Bump when the mapping or the document shape changes: a reindex then builds a new version. */
export const MAPPING_VERSION = 1;
export const INDEX_ALIAS = 'companies';

export function versionedIndexName(at = new Date()): string {
  const stamp = at.toISOString().replace(/[-:TZ.]/g, '').slice(0, 14);
  return `${INDEX_ALIAS}-v${MAPPING_VERSION}-${stamp}`;
}

/** Parses `companies-v1-20261122051000` back into its parts; null for indices that are not ours. */
export function parseIndexName(name: string): { mappingVersion: number; stamp: string } | null {
  const m = /^companies-v(\d+)-(\d{14})$/.exec(name);
  return m ? { mappingVersion: Number(m[1]), stamp: m[2]! } : null;
}

export const INDEX_SETTINGS = {
  number_of_shards: 1,
  number_of_replicas: 0,
  // Pages are addressed by number like on Postgres (pageSize <= 1000); deep pages stay answerable.
  max_result_window: 1_000_000,
  analysis: {
    filter: { german_folding: { type: 'asciifolding', preserve_original: false } },
    analyzer: {
      // For relevance-ranked name search (autocomplete): ä = ae is done by the indexer's search_norm.
      name_words: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'german_folding'] },
    },
  },
} as const;

const keyword = { type: 'keyword' } as const;

export const INDEX_MAPPINGS = {
  dynamic: 'strict',
  properties: {
    fnr: keyword,
    name: { type: 'text', analyzer: 'name_words', fields: { raw: keyword } },
    name_norm: keyword,
    former_names: { type: 'text', analyzer: 'name_words' },
    former_names_norm: keyword,
    // Infix search over current and former names: the wildcard type is built for `*term*` queries.
    all_names_norm: { type: 'wildcard' },
    legal_form_code: keyword,
    legal_form_text: { type: 'keyword', index: false },
    court_code: keyword,
    court_text: { type: 'keyword', index: false },
    city: { type: 'keyword', index: false },
    city_norm: keyword,
    zip_code: keyword,
    municipality_code: keyword,
    state_code: keyword,
    oenace_paths: keyword,
    is_active: { type: 'boolean' },
    is_scheinunternehmen: { type: 'boolean' },
    has_edikt: { type: 'boolean' },
    has_licence: { type: 'boolean' },
    trade_keys: keyword,
    document_key: { type: 'keyword', index: false },
    document_date: { type: 'date', format: 'yyyy-MM-dd' },
    // Money as scaled_float in cents (exact for the two decimals money has; a long underneath).
    ...Object.fromEntries(KEY_FIGURES.map((f) => [figureColumn(f), { type: 'scaled_float', scaling_factor: 100 }])),
  },
} as const;
