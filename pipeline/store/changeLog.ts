// Writing the change log: rows go in the same transaction as the data they record. Reading it, and
// the types both sides share, are runtime/changeLog.ts, so the indexer and the API need nothing here.
import type postgres from 'postgres';
import type { ChangeAction, ChangeType } from '../../runtime/changeLog.js';
import type { TransactionSql } from '../../runtime/db.js';

export interface NewChange {
  type: ChangeType;
  fnr: string | null;
  action: ChangeAction;
  changedFields: string[];
  vnr?: string | null;
  documentKey?: string | null;
  ediktId?: string | null;
  gisaZahl?: string | null;
  snapshot?: unknown;
}

/** Records changes inside the caller's transaction; returns their ids in insertion order. */
export async function recordChanges(tx: TransactionSql, changes: NewChange[]): Promise<number[]> {
  if (changes.length === 0) return [];
  const rows = changes.map((c) => ({
    type: c.type,
    fnr: c.fnr,
    action: c.action,
    changed_fields: c.changedFields,
    vnr: c.vnr ?? null,
    document_key: c.documentKey ?? null,
    edikt_id: c.ediktId ?? null,
    gisa_zahl: c.gisaZahl ?? null,
    snapshot: c.snapshot === undefined ? null : (c.snapshot as postgres.JSONValue),
  }));
  const inserted = await tx<{ id: number }[]>`
    INSERT INTO change_log ${tx(rows)}
    RETURNING id`;
  return inserted.map((r) => r.id);
}
