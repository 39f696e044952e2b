// Output shapes of the account-bound records (api-decisions.md "Request bodies"): timestamps as ISO
// 8601 UTC strings, fields in the documented order.
import type { CompanyListRow } from '../stores/lists.js';
import type { SavedQueryRow } from '../stores/savedQueries.js';

/** jsonb stores keys in its own order; the canonical form has them sorted. */
function sortedKeys<T>(object: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(object).sort().map((k) => [k, object[k]!]));
}

export function presentSavedQuery(row: SavedQueryRow) {
  return { id: row.id, name: row.name, filters: sortedKeys(row.filters), createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export function presentList(row: CompanyListRow) {
  return {
    id: row.id,
    name: row.name,
    fnrs: row.fnrs,
    removedFnrs: row.removedFnrs,
    memberCount: row.fnrs.length,
    settings: row.settings,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
