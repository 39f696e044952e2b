// Derived ÖNACE codes in the database: company_oenace rows with source 'derived', replaced as a whole
// when a company's business purpose or trade keys give different assignments, inside the caller's
// transaction (the Firmenbuch store, the GISA licence store, the re-derivation of `npm run reparse`).
// Deriving twice from the same inputs writes nothing, so every caller may derive again freely.
import type { Sql, TransactionSql } from '../../runtime/db.js';
import { DERIVED_OENACE_SOURCE, type OenaceEvidence } from '../../schemas/oenaceAssignment.js';
import { OenaceClassifier, type OenaceAssignment } from './classify.js';
import { loadTradeKeyMap, mappingByWording, resolveTradeKeys, type TradeKeyMapping } from './tradeKeys.js';

export interface DerivedRow {
  code: string;
  isPrimary: boolean;
  confidence: number;
  evidence: OenaceEvidence;
}

export interface DerivationState {
  /** Keys of the company's current (not ended) licences. */
  tradeKeys: string[];
  /** Their catalogue wordings (the licence's where the catalogue has none): keys the mapping lacks map by these. */
  tradeWordings?: Record<string, string>;
  /** The derived rows stored now. */
  stored: DerivedRow[];
  /** Codes another source gave the company: not derived again (one row per code). */
  given: string[];
}

let shared: OenaceClassifier | undefined;

/** One classifier per process: building it reads the lexicon and catalogue (a few hundred ms). */
export function oenaceClassifier(): OenaceClassifier {
  shared ??= new OenaceClassifier();
  return shared;
}

let tradeKeyMapping: { map: Map<string, TradeKeyMapping>; byWording: Map<string, TradeKeyMapping> } | undefined;
function tradeKeys() {
  if (!tradeKeyMapping) {
    const map = loadTradeKeyMap();
    tradeKeyMapping = { map, byWording: mappingByWording(map) };
  }
  return tradeKeyMapping;
}

/** Trade keys and stored derived rows of some companies, in one statement. */
export async function readDerivationState(tx: Sql | TransactionSql, fnrs: string[]): Promise<Map<string, DerivationState>> {
  const rows = await tx<Array<{ fnr: string; tradeKeys: string[]; tradeWordings: Record<string, string>; stored: Array<DerivedRow & { confidence: string | number }>; given: string[] }>>`
    SELECT f.fnr, coalesce(held.keys, '{}') AS trade_keys, coalesce(held.wordings, '{}') AS trade_wordings,
           coalesce((SELECT json_agg(json_build_object('code', co.code, 'isPrimary', co.is_primary, 'confidence', co.confidence,
                                                       'evidence', co.evidence) ORDER BY co.code)
                       FROM company_oenace co
                      WHERE co.fnr = f.fnr AND co.version = '2008' AND co.source = ${DERIVED_OENACE_SOURCE}), '[]') AS stored,
           coalesce((SELECT array_agg(co.code ORDER BY co.code) FROM company_oenace co
                      WHERE co.fnr = f.fnr AND co.version = '2008' AND co.source <> ${DERIVED_OENACE_SOURCE}), '{}') AS given
      FROM unnest(${fnrs}::text[]) AS f (fnr)
      LEFT JOIN LATERAL (
        SELECT array_agg(k.trade_key ORDER BY k.trade_key) AS keys, json_object_agg(k.trade_key, k.wording) AS wordings
          FROM (SELECT DISTINCT ON (t.trade_key) t.trade_key, coalesce(c.name, t.wording) AS wording
                  FROM trade_license t LEFT JOIN trade c ON c.trade_key = t.trade_key
                 WHERE t.fnr = f.fnr AND t.ended_on IS NULL AND t.trade_key IS NOT NULL ORDER BY t.trade_key) AS k) AS held ON true`;
  return new Map(rows.map((r) => [r.fnr, {
    tradeKeys: r.tradeKeys, tradeWordings: r.tradeWordings, stored: r.stored.map((s) => ({ ...s, confidence: Number(s.confidence) })), given: r.given,
  }]));
}

/** The rows to store for a company: its assignments, without codes another source gave it. */
export function derivedRows(classifier: OenaceClassifier, purposeText: string | null, state: DerivationState): DerivedRow[] {
  const { map, byWording } = tradeKeys();
  const held = resolveTradeKeys(state.tradeKeys, state.tradeWordings ?? {}, map, byWording);
  const rows = toRows(classifier.classify({ purposeText, tradeKeys: held.keys })).map((r) => held.heldAs.size === 0 ? r : {
    ...r, evidence: { ...r.evidence, tradeKeys: r.evidence.tradeKeys.map((k) => held.heldAs.get(k) ?? k) },
  });
  return state.given.length === 0 ? rows : rows.filter((r) => !state.given.includes(r.code));
}

export function toRows(assignments: OenaceAssignment[]): DerivedRow[] {
  return assignments.map((a) => ({ code: a.code, isPrimary: a.isPrimary, confidence: a.confidence, evidence: a.evidence }));
}

const canonical = (rows: DerivedRow[]) =>
  JSON.stringify([...rows].sort((a, b) => (a.code < b.code ? -1 : 1)).map((r) => [r.code, r.isPrimary, r.confidence, r.evidence.words, r.evidence.tradeKeys]));

export function sameRows(a: DerivedRow[], b: DerivedRow[]): boolean {
  return canonical(a) === canonical(b);
}

/**
 * Replaces the derived rows of the given companies with `rows` (fnr per row). Returns the statements
 * unawaited, so a store can pipeline them after its own; run them after the company rows exist.
 */
export function writeDerivedRows(tx: TransactionSql, replaced: string[], rows: Array<DerivedRow & { fnr: string }>): PromiseLike<unknown>[] {
  const out: PromiseLike<unknown>[] = [];
  if (replaced.length > 0) {
    out.push(tx`DELETE FROM company_oenace WHERE fnr = ANY(${replaced}::text[]) AND version = '2008' AND source = ${DERIVED_OENACE_SOURCE}`);
  }
  if (rows.length > 0) {
    const json = JSON.stringify(rows.map((r) => ({ fnr: r.fnr, code: r.code, is_primary: r.isPrimary, confidence: r.confidence, evidence: r.evidence })));
    out.push(tx`
      INSERT INTO company_oenace (fnr, version, code, is_primary, source, confidence, evidence)
      SELECT fnr, '2008', code, is_primary, ${DERIVED_OENACE_SOURCE}, confidence, evidence
        FROM jsonb_to_recordset(${json}::text::jsonb) AS r (fnr text, code text, is_primary boolean, confidence numeric, evidence jsonb)`);
  }
  return out;
}

/**
 * Derives the codes of some stored companies again from their stored business purpose and current
 * trade keys, and writes those that changed. Returns the fnrs whose assignments changed (the caller
 * records them in the change log with `oenaces` among the changed fields).
 */
export async function rederiveOenaces(tx: TransactionSql, fnrs: string[], classifier = oenaceClassifier()): Promise<string[]> {
  if (fnrs.length === 0) return [];
  const sorted = [...new Set(fnrs)].sort();
  // Locked like the Firmenbuch store locks them: a purpose stored meanwhile is not derived from stale text.
  const purposes = await tx<Array<{ fnr: string; businessPurpose: string | null }>>`
    SELECT fnr, business_purpose FROM company WHERE fnr = ANY(${sorted}::text[]) ORDER BY fnr FOR UPDATE`;
  const state = await readDerivationState(tx, purposes.map((p) => p.fnr));
  const changed: string[] = [];
  const rows: Array<DerivedRow & { fnr: string }> = [];
  for (const { fnr, businessPurpose } of purposes) {
    const current = state.get(fnr)!;
    const next = derivedRows(classifier, businessPurpose, current);
    if (sameRows(current.stored, next)) continue;
    changed.push(fnr);
    rows.push(...next.map((r) => ({ ...r, fnr })));
  }
  await Promise.all(writeDerivedRows(tx, changed, rows));
  return changed;
}
