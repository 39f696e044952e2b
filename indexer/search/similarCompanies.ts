// Companies similar to one company: nearest industry code, size and region.
//   similarity = 0.5 x industry + 0.3 x size + 0.2 x region, each 0..1:
//   industry: depth of the deepest shared ÖNACE level (subclass 1.0, class 0.8, group 0.6, division 0.4, section 0.2);
//   size: mean over revenue, balance-sheet total and employees (where both report a positive value) of
//         exp(-|ln a - ln b|), i.e. 1 for equal size and 0.37 for a factor e apart;
//   region: same municipality 1, same federal state 0.5.
// Industry codes are the read model's oenace_paths: the codes derived from business purpose and trade
// keys with confidence at or above the threshold (schemas/oenaceAssignment.ts), so a guess never makes
// two companies alike. Candidates share at least the ÖNACE section; companies without such a code are
// compared with companies of the same legal form in the same state.
import { countedPage, type CountedRow } from '../../runtime/countedPage.js';
import type { Sql } from '../../runtime/db.js';
import { RESULT_COLUMNS } from './postgresScreenerQuery.js';
import { toScreenerRow } from './postgresSearch.js';
import type { ScreenerRow } from './searchBackend.js';

/** Upper bound on candidates scored per request: keeps the answer bounded on broad sections. */
const MAX_CANDIDATES = 20_000;

const sizeTerm = (column: string) =>
  `CASE WHEN s.${column} > 0 AND t.${column} > 0 THEN exp(-abs(ln(s.${column}) - ln(t.${column}))) END`;

const SIMILAR_SQL = `
WITH t AS (SELECT * FROM company_search WHERE fnr = $1),
candidates AS (
  SELECT s.*,
         (SELECT coalesce(max(length(p)), 0) FROM unnest(s.oenace_paths) p WHERE p = ANY (t.oenace_paths)) AS shared_depth,
         (SELECT avg(v) FROM unnest(ARRAY[${['fig_umsatzerloese', 'fig_bilanzsumme', 'fig_employees'].map(sizeTerm).join(', ')}]) v) AS size_score,
         CASE WHEN s.municipality_code IS NOT NULL AND s.municipality_code = t.municipality_code THEN 1.0
              WHEN s.state_code IS NOT NULL AND s.state_code = t.state_code THEN 0.5 ELSE 0 END AS region_score
    FROM company_search s, t
   WHERE s.fnr <> t.fnr
     AND (CASE WHEN cardinality(t.oenace_paths) > 0 THEN s.oenace_paths && t.oenace_paths
               ELSE s.legal_form_code IS NOT DISTINCT FROM t.legal_form_code AND s.state_code IS NOT DISTINCT FROM t.state_code END)
   LIMIT ${MAX_CANDIDATES}
),
scored AS (
  SELECT *,
         round((0.5 * (CASE shared_depth WHEN 6 THEN 1.0 WHEN 5 THEN 0.8 WHEN 4 THEN 0.6 WHEN 3 THEN 0.4 WHEN 1 THEN 0.2 ELSE 0 END)
              + 0.3 * coalesce(size_score, 0) + 0.2 * region_score)::numeric, 4)::float8 AS similarity
    FROM candidates
)
SELECT ${RESULT_COLUMNS.join(', ')}, similarity, count(*) OVER () AS total_records
  FROM scored ORDER BY similarity DESC, fnr LIMIT $2 OFFSET $3`;

export async function findSimilar(
  sql: Sql,
  fnr: string,
  paging: { page: number; pageSize: number },
): Promise<{ rows: Array<{ row: ScreenerRow; similarity: number }>; total: number } | null> {
  const [exists] = await sql`SELECT 1 FROM company_search WHERE fnr = ${fnr}`;
  if (!exists) return null;
  const { rows, total } = await countedPage(
    (limit, offset) => sql.unsafe<Array<Record<string, unknown> & CountedRow>>(SIMILAR_SQL, [fnr, limit, offset]),
    paging,
  );
  return { rows: rows.map((r) => ({ row: toScreenerRow(r), similarity: r.similarity as number })), total };
}
