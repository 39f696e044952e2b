// The Elasticsearch index: explicit mapping, versioned index names behind one alias. Documents are
// the Postgres read-model rows (indexer/companySearchTable.ts), so names are normalised exactly as
// the Postgres backend normalises them and both backends answer alike.
//
// Two kinds of name fields:
// - `*_norm` keywords and `all_names_norm` (wildcard type) hold the indexer's search_norm() text. The
//   screener's `search` filter runs on all_names_norm, an infix match on exactly the string Postgres
//   matches with LIKE, so both backends find the same companies.
// - `name` and `former_names` are analysed for name matching (prefix, word prefix, fuzzy): German
//   folding first (ä -> ae, ö -> oe, ü -> ue, ß -> ss, as search_norm() does, so "Müller" and "Mueller"
//   index as the same term), then words split on anything but letters and digits, lower case, and
//   other accents folded (é -> e). Subfield `prefix` holds each word's edge n-grams for word-prefix
//   matching; fuzzy matching is a `fuzziness` match on the field itself.
import { KEY_FIGURES, figureColumn } from '../../../schemas/keyFigures.js';

/** Bump when the mapping or the document shape changes: a reindex then builds a new version. */
export const MAPPING_VERSION = 2;
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

/** German folding of the name analyzers: umlauts and ß to their two-letter spellings (ä = ae), before lower-casing. */
export const GERMAN_FOLDING = ['ä => ae', 'ö => oe', 'ü => ue', 'ß => ss', 'Ä => Ae', 'Ö => Oe', 'Ü => Ue', 'ẞ => SS'] as const;

/** Longest word prefix indexed for word-prefix matching; longer query words are cut to it. */
export const NAME_PREFIX_MAX = 20;

const nameChain = { type: 'custom', char_filter: ['german_folding'], tokenizer: 'name_words' } as const;

export const INDEX_SETTINGS = {
  number_of_shards: 1,
  number_of_replicas: 0,
  // Pages are addressed by number like on Postgres (pageSize <= 1000); deep pages stay answerable.
  max_result_window: 1_000_000,
  analysis: {
    char_filter: { german_folding: { type: 'mapping', mappings: GERMAN_FOLDING } },
    // Words as search_norm() makes them: anything but letters and digits separates (G.m.b.H. -> g m b h).
    tokenizer: { name_words: { type: 'pattern', pattern: '[^\\p{L}\\p{Nd}]+' } },
    filter: {
      accent_folding: { type: 'asciifolding', preserve_original: false },
      name_prefixes: { type: 'edge_ngram', min_gram: 1, max_gram: NAME_PREFIX_MAX },
      name_prefix_length: { type: 'truncate', length: NAME_PREFIX_MAX },
    },
    analyzer: {
      // Whole words: exact and fuzzy name matching.
      name_folded: { ...nameChain, filter: ['lowercase', 'accent_folding'] },
      // Index side of `.prefix`: every word's prefixes of 1..NAME_PREFIX_MAX characters.
      name_prefix_index: { ...nameChain, filter: ['lowercase', 'accent_folding', 'name_prefixes'] },
      // Query side of `.prefix`: whole query words, cut to the longest prefix indexed.
      name_prefix_query: { ...nameChain, filter: ['lowercase', 'accent_folding', 'name_prefix_length'] },
    },
  },
} as const;

/** A name field: folded words, their prefixes, and the name as given. */
const nameField = (withRaw: boolean) => ({
  type: 'text',
  analyzer: 'name_folded',
  fields: {
    prefix: { type: 'text', analyzer: 'name_prefix_index', search_analyzer: 'name_prefix_query' },
    ...(withRaw ? { raw: { type: 'keyword' } } : {}),
  },
}) as const;

const keyword = { type: 'keyword' } as const;

export const INDEX_MAPPINGS = {
  dynamic: 'strict',
  properties: {
    fnr: keyword,
    name: nameField(true),
    name_norm: keyword,
    // search_core(name_norm): the name without its legal-form suffix, the exact band of name matching.
    core_norm: keyword,
    former_names: nameField(false),
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
