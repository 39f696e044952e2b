// The Postgres search read model: one row per company with everything the screener filters and
// sorts on, and the 47 figures of its latest filing as numeric columns (derived from
// schemas/keyFigures.ts, never typed out). Tables are versioned (company_search_v<N>); the view
// company_search points at the live one.
import { KEY_FIGURES, figureColumn, figureJsonKey } from '../schemas/keyFigures.js';
import { OENACE_CONFIDENCE_THRESHOLD } from '../schemas/oenaceAssignment.js';

export const READ_MODEL = 'company_search';

/** Prefix lengths of ÖNACE EDV codes per level (C, C10, C107, C1071, C10711): a code matches its descendants. */
export const OENACE_PREFIX_LENGTHS = [1, 3, 4, 5, 6];

const figureColumnsDdl = KEY_FIGURES.map((f) => `  ${figureColumn(f)} numeric`).join(',\n');

export function createTableSql(table: string): string {
  return `
CREATE TABLE ${table} (
  fnr                  text PRIMARY KEY,
  name                 text NOT NULL,
  name_norm            text NOT NULL,
  core_norm            text NOT NULL,
  former_names         text[] NOT NULL DEFAULT '{}',
  former_names_norm    text[] NOT NULL DEFAULT '{}',
  all_names_norm       text NOT NULL,
  legal_form_code      text,
  legal_form_text      text,
  court_code           text,
  court_text           text,
  city                 text,
  city_norm            text,
  zip_code             text,
  municipality_code    text,
  state_code           text,
  oenace_paths         text[] NOT NULL DEFAULT '{}',
  is_active            boolean NOT NULL,
  is_scheinunternehmen boolean NOT NULL,
  has_edikt            boolean NOT NULL,
  has_licence          boolean NOT NULL,
  trade_keys           text[] NOT NULL DEFAULT '{}',
  document_key         text,
  document_date        date,
${figureColumnsDdl}
)`;
}

/** Indexes built after a bulk load (building them on a full table is several times faster). */
export function createIndexesSql(table: string): string[] {
  return [
    // Autocomplete's prefix band in answer order (name, then fnr: duplicate names cut at the same rows
    // every time) and its size, index-only. Named apart from the name-only index it replaces, so a
    // live table of an earlier release is rebuilt on start.
    `CREATE INDEX ${table}_name_prefix_fnr ON ${table} (name_norm text_pattern_ops, fnr)`,
    // Name search (indexer/search/nameSearch.ts). The exact band reads one core's rows in answer order
    // (active first, then name); typo candidates are ranges of the core or of the reversed core, with
    // the length (and for the reversed one, the core's start) checked in the index, not on the heap.
    `CREATE INDEX ${table}_core ON ${table} (core_norm text_pattern_ops, length(core_norm), is_active DESC, name_norm text_pattern_ops, fnr)`,
    `CREATE INDEX ${table}_core_reverse ON ${table} (reverse(core_norm) text_pattern_ops, length(core_norm), core_norm text_pattern_ops)`,
    // Word-prefix and former-name bands: whole words, so a lookup reads one posting list per word
    // instead of one per trigram (names share few words but most trigrams).
    `CREATE INDEX ${table}_name_words ON ${table} USING gin (array_to_tsvector(string_to_array(name_norm, ' ')))`,
    `CREATE INDEX ${table}_former_words ON ${table} USING gin (array_to_tsvector(string_to_array(all_names_norm, ' '))) WHERE former_names_norm <> '{}'`,
    `CREATE INDEX ${table}_names_trgm ON ${table} USING gin (all_names_norm gin_trgm_ops)`,
    `CREATE INDEX ${table}_former_names ON ${table} USING gin (former_names_norm)`,
    `CREATE INDEX ${table}_legal_form ON ${table} (legal_form_code)`,
    `CREATE INDEX ${table}_court ON ${table} (court_code)`,
    `CREATE INDEX ${table}_city ON ${table} (city_norm)`,
    `CREATE INDEX ${table}_zip ON ${table} (zip_code)`,
    `CREATE INDEX ${table}_oenace ON ${table} USING gin (oenace_paths)`,
    `CREATE INDEX ${table}_trade_keys ON ${table} USING gin (trade_keys)`,
    ...KEY_FIGURES.map((f) => `CREATE INDEX ${table}_${figureColumn(f)} ON ${table} (${figureColumn(f)})`),
  ];
}

/** Names of the indexes createIndexesSql() builds, as Postgres stores them (cut to 63 bytes). */
export function indexNames(table: string): string[] {
  return createIndexesSql(table).map((ddl) => /^CREATE INDEX (\S+) ON /.exec(ddl)![1]!.slice(0, 63));
}

const figureSelect = KEY_FIGURES.map((f) => `(fa.figures ->> '${figureJsonKey(f)}')::numeric AS ${figureColumn(f)}`).join(',\n       ');

/**
 * The documents of some companies (or all), computed from the source tables. `$1` is a text[] of
 * fnrs, or NULL for every company.
 */
export const DOCUMENT_SELECT = `
SELECT c.fnr,
       c.name,
       search_norm(c.name) AS name_norm,
       search_core(search_norm(c.name)) AS core_norm,
       coalesce(fn.names, '{}') AS former_names,
       coalesce(fn.norms, '{}') AS former_names_norm,
       -- current and former names in one text, so one index (trigram; words for name search) finds both
       -- A name of punctuation only normalises to '': left out, since an empty word in the word
       -- indexes' arrays ("lexeme array may not contain empty strings") would fail the whole build.
       concat_ws(' | ', nullif(search_norm(c.name), ''), array_to_string(fn.norms, ' | ')) AS all_names_norm,
       c.legal_form_code,
       coalesce(lf.name, c.legal_form_text) AS legal_form_text,
       c.court_code,
       ct.name AS court_text,
       addr.city,
       search_norm(addr.city) AS city_norm,
       addr.zip_code,
       c.municipality_code,
       left(c.municipality_code, 1) AS state_code,
       coalesce(oe.paths, '{}') AS oenace_paths,
       c.status = 'active' AS is_active,
       EXISTS (SELECT 1 FROM bogus_company_listing b WHERE b.fnr = c.fnr AND b.removed_at IS NULL) AS is_scheinunternehmen,
       EXISTS (SELECT 1 FROM court_notice n WHERE n.fnr = c.fnr) AS has_edikt,
       EXISTS (SELECT 1 FROM trade_license t WHERE t.fnr = c.fnr AND t.ended_on IS NULL) AS has_licence,
       coalesce(tk.keys, '{}') AS trade_keys,
       fa.document_key,
       fa.document_date,
       ${figureSelect}
  FROM company c
  LEFT JOIN legal_form lf ON lf.code = c.legal_form_code
  LEFT JOIN court ct ON ct.code = c.court_code
  LEFT JOIN LATERAL (
         SELECT array_agg(n.name ORDER BY n.vnr, n.name) AS names, array_agg(DISTINCT search_norm(n.name)) FILTER (WHERE search_norm(n.name) <> '') AS norms
           FROM company_name n WHERE n.fnr = c.fnr AND NOT n.is_current) fn ON true
  LEFT JOIN LATERAL (
         SELECT a.city, a.zip_code FROM company_address a
          WHERE a.fnr = c.fnr AND a.is_current ORDER BY a.position LIMIT 1) addr ON true
  LEFT JOIN LATERAL (
         SELECT array_agg(DISTINCT left(o.edv_code, l)) AS paths
           FROM company_oenace co
           JOIN oenace_class o ON o.version = co.version AND o.code = co.code
          CROSS JOIN unnest(ARRAY[${OENACE_PREFIX_LENGTHS.join(', ')}]) AS l
          WHERE co.fnr = c.fnr AND co.version = '2008' AND length(o.edv_code) >= l
            -- Derived codes count from the threshold up; a code a source gave has no confidence and counts.
            AND (co.confidence IS NULL OR co.confidence >= ${OENACE_CONFIDENCE_THRESHOLD})) oe ON true
  LEFT JOIN LATERAL (
         SELECT array_agg(DISTINCT t.trade_key) AS keys FROM trade_license t
          WHERE t.fnr = c.fnr AND t.ended_on IS NULL AND t.trade_key IS NOT NULL) tk ON true
  LEFT JOIN LATERAL (
         SELECT a.document_key, a.document_date, a.figures FROM annual_account a
          WHERE a.fnr = c.fnr ORDER BY a.document_date DESC NULLS LAST, a.document_key DESC LIMIT 1) fa ON true
 WHERE ($1::text[] IS NULL OR c.fnr = ANY($1::text[]))`;

/** The columns a read-model table has; a live table missing one predates this code (indexer.ts rebuilds it). */
export const COLUMNS = [
  'fnr', 'name', 'name_norm', 'core_norm', 'former_names', 'former_names_norm', 'all_names_norm', 'legal_form_code', 'legal_form_text',
  'court_code', 'court_text',
  'city', 'city_norm', 'zip_code', 'municipality_code', 'state_code', 'oenace_paths', 'is_active', 'is_scheinunternehmen',
  'has_edikt', 'has_licence', 'trade_keys', 'document_key', 'document_date', ...KEY_FIGURES.map(figureColumn),
];

/** Upserts the documents of the given fnrs (NULL: all) into a read-model table. */
export function upsertDocumentsSql(table: string): string {
  const updates = COLUMNS.filter((c) => c !== 'fnr').map((c) => `${c} = EXCLUDED.${c}`).join(', ');
  return `INSERT INTO ${table} (${COLUMNS.join(', ')}) ${DOCUMENT_SELECT}
ON CONFLICT (fnr) DO UPDATE SET ${updates}`;
}

/** Bulk load into a fresh table (no conflict handling needed). */
export function bulkLoadSql(table: string): string {
  return `INSERT INTO ${table} (${COLUMNS.join(', ')}) ${DOCUMENT_SELECT}`;
}
