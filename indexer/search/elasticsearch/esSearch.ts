// The Elasticsearch search backend: same ScreenerQuery, same rows, same order as the Postgres one.
import type { Client } from '@elastic/elasticsearch';
import { KEY_FIGURES, figureColumn, figureJsonKey } from '../../../schemas/keyFigures.js';
import type { ScreenerQuery } from '../../../schemas/screenerParameters.js';
import { resultFromRows, type ScreenerRow, type SearchBackend } from '../searchBackend.js';
import { buildEsScreenerRequest } from './esScreenerQuery.js';
import { INDEX_ALIAS } from './mapping.js';

type Source = Record<string, unknown>;

const decimalText = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

export function esHitToRow(source: Source): ScreenerRow {
  return {
    fnr: source.fnr as string,
    name: source.name as string,
    legalFormCode: (source.legal_form_code as string | null) ?? null,
    legalFormText: (source.legal_form_text as string | null) ?? null,
    courtCode: (source.court_code as string | null) ?? null,
    courtText: (source.court_text as string | null) ?? null,
    city: (source.city as string | null) ?? null,
    zipCode: (source.zip_code as string | null) ?? null,
    isActive: source.is_active as boolean,
    isScheinunternehmen: source.is_scheinunternehmen as boolean,
    hasEdikt: source.has_edikt as boolean,
    documentKey: (source.document_key as string | null) ?? null,
    documentDate: (source.document_date as string | null) ?? null,
    // _source keeps the decimal text the indexer sent, so values come back exactly as Postgres has them.
    figures: Object.fromEntries(KEY_FIGURES.map((f) => [figureJsonKey(f), decimalText(source[figureColumn(f)])])),
  };
}

export function elasticsearchSearch(client: Client, index = INDEX_ALIAS): SearchBackend {
  const count = async (query: ScreenerQuery) => {
    const response = await client.search(buildEsScreenerRequest(query, index, { countOnly: true }) as never);
    const total = response.hits.total;
    return typeof total === 'number' ? total : (total?.value ?? 0);
  };
  return {
    name: 'elasticsearch',
    count,
    screener: async (query, options = {}) => {
      if (options.countOnly) return resultFromRows([], await count(query), options);
      const response = await client.search<Source>(buildEsScreenerRequest(query, index) as never);
      const total = response.hits.total;
      return resultFromRows(response.hits.hits.map((h) => esHitToRow(h._source ?? {})), typeof total === 'number' ? total : (total?.value ?? 0), options);
    },
  };
}
