// The graph operation (GET /graph?fnr=|personId=&depth=1..3): holdings and functions as typed edges
// between companies, people and organisations, walked breadth first from one company or person. A
// graph is bounded: past MAX_NODES it answers with the nodes reached so far and `truncated: true`,
// never a timeout.
import { z } from 'zod';
import type { Sql } from '../../runtime/db.js';
import { fnrFilterValue } from '../../schemas/identifiers.js';
import { codeAndText } from '../../schemas/screenerRecords.js';
import { notFound, validationFailed } from '../errors.js';

export const MAX_NODES = 500;

export const graphQuery = z.object({
  fnr: z.string().trim().min(1).max(20).transform(fnrFilterValue).optional()
    .meta({ description: 'Start at this company. Give exactly one of fnr and personId.', example: '30435h' }),
  personId: z.string().trim().min(1).max(300).optional()
    .meta({ description: 'Start at this person (a personId of /people). Give exactly one of fnr and personId.' }),
  depth: z.coerce.number({ error: 'must be 1, 2 or 3' }).int('must be 1, 2 or 3').min(1, 'must be 1, 2 or 3').max(3, 'must be 1, 2 or 3').default(1)
    .meta({ description: 'How many links away from the start to follow, 1 to 3 (default 1).' }),
});

type NodeType = 'company' | 'person' | 'organisation';
interface GraphNode { id: string; type: NodeType; label: string; fnr?: string; personId?: string; isActive?: boolean }
interface GraphEdge {
  source: string; target: string; type: 'holding' | 'function';
  functionCode?: string; functionText?: string | null; representation?: { code: string; text: string | null } | null;
  capital?: number | null; paidIn?: number | null; currency?: string | null; since?: string | null;
}

/** One link of a company's register: a party (by kind) with a function or holding in company `fnr`. */
interface LinkRow {
  fnr: string; companyName: string; companyActive: boolean;
  kind: NodeType; personId: string | null; relatedFnr: string | null; organisationId: string | null; partyLabel: string | null; partyActive: boolean | null;
  edgeType: 'holding' | 'function'; functionCode: string | null; functionText: string | null;
  representationCode: string | null; representationText: string | null;
  capital: string | null; paidIn: string | null; currency: string | null; since: Date | null;
}

const nodeId = (type: NodeType, key: string) => `${type}:${key}`;
const iso = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/** Current functions and holdings touching any of the given companies, people or organisations. */
async function links(sql: Sql, fnrs: string[], personIds: string[], organisationIds: string[]): Promise<LinkRow[]> {
  return sql<LinkRow[]>`
    WITH parties AS (
      SELECT * FROM company_party
       WHERE fnr = ANY(${fnrs}) OR related_fnr = ANY(${fnrs}) OR person_id = ANY(${personIds}) OR organisation_id = ANY(${organisationIds})
    )
    SELECT p.fnr, c.name AS company_name, c.status = 'active' AS company_active, p.kind, p.person_id, p.related_fnr, p.organisation_id,
           coalesce(nullif(concat_ws(' ', pe.first_name, pe.last_name), ''), rc.name, o.name) AS party_label, rc.status = 'active' AS party_active,
           l.edge_type, l.function_code, l.function_text, l.representation_code, l.representation_text, l.capital, l.paid_in, l.currency, l.since
      FROM parties p
      JOIN company c ON c.fnr = p.fnr
      LEFT JOIN person pe ON pe.person_id = p.person_id
      LEFT JOIN company rc ON rc.fnr = p.related_fnr
      LEFT JOIN organisation o ON o.organisation_id = p.organisation_id
      JOIN LATERAL (
        SELECT 'function' AS edge_type, f.function_code, coalesce(f.function_text, fc.text) AS function_text, f.representation_code,
               f.representation_text, NULL::numeric AS capital, NULL::numeric AS paid_in, NULL::text AS currency, f.since
          FROM company_function f LEFT JOIN function_code fc ON fc.code = f.function_code
         WHERE f.fnr = p.fnr AND f.pnr = p.pnr AND f.is_current AND f.function_code <> 'GS'
        UNION ALL
        SELECT 'holding', NULL, NULL, NULL, NULL, h.capital, h.paid_in, h.currency, h.since
          FROM holding h WHERE h.fnr = p.fnr AND h.pnr = p.pnr AND h.is_current
      ) l ON true
     ORDER BY p.fnr, p.pnr, l.edge_type, l.function_code`;
}

export async function buildGraph(sql: Sql, start: { fnr?: string; personId?: string }, depth: number) {
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  let truncated = false;
  let frontier: GraphNode[] = [];

  if (start.fnr) {
    const [c] = await sql<{ fnr: string; name: string; active: boolean }[]>`SELECT fnr, name, status = 'active' AS active FROM company WHERE fnr = ${start.fnr}`;
    if (!c) return null;
    frontier = [{ id: nodeId('company', c.fnr), type: 'company', label: c.name, fnr: c.fnr, isActive: c.active }];
  } else {
    const [p] = await sql<{ personId: string; label: string }[]>`SELECT person_id, concat_ws(' ', first_name, last_name) AS label FROM person WHERE person_id = ${start.personId!}`;
    if (!p) return null;
    frontier = [{ id: nodeId('person', p.personId), type: 'person', label: p.label, personId: p.personId }];
  }
  for (const n of frontier) nodes.set(n.id, n);

  const addNode = (n: GraphNode): boolean => {
    if (nodes.has(n.id)) return false;
    if (nodes.size >= MAX_NODES) {
      truncated = true;
      return false;
    }
    nodes.set(n.id, n);
    return true;
  };

  for (let level = 0; level < depth && frontier.length > 0 && !truncated; level++) {
    const rows = await links(
      sql,
      frontier.filter((n) => n.type === 'company').map((n) => n.fnr!),
      frontier.filter((n) => n.type === 'person').map((n) => n.personId!),
      frontier.filter((n) => n.type === 'organisation').map((n) => n.id.slice('organisation:'.length)),
    );
    const next: GraphNode[] = [];
    for (const r of rows) {
      const company: GraphNode = { id: nodeId('company', r.fnr), type: 'company', label: r.companyName, fnr: r.fnr, isActive: r.companyActive };
      const party: GraphNode =
        r.kind === 'person' ? { id: nodeId('person', r.personId!), type: 'person', label: r.partyLabel ?? r.personId!, personId: r.personId! }
        : r.kind === 'company' ? { id: nodeId('company', r.relatedFnr!), type: 'company', label: r.partyLabel ?? r.relatedFnr!, fnr: r.relatedFnr!, isActive: r.partyActive ?? undefined }
        : { id: nodeId('organisation', r.organisationId!), type: 'organisation', label: r.partyLabel ?? r.organisationId! };
      for (const n of [company, party]) if (addNode(n)) next.push(n);
      if (!nodes.has(company.id) || !nodes.has(party.id)) continue; // cut off by the bound
      const edge: GraphEdge = r.edgeType === 'holding'
        ? { source: party.id, target: company.id, type: 'holding', capital: r.capital === null ? null : Number(r.capital), paidIn: r.paidIn === null ? null : Number(r.paidIn), currency: r.currency, since: iso(r.since) }
        : { source: party.id, target: company.id, type: 'function', functionCode: r.functionCode!, functionText: r.functionText,
            representation: codeAndText(r.representationCode, r.representationText), since: iso(r.since) };
      edges.set(`${edge.source}|${edge.target}|${edge.type}|${edge.functionCode ?? ''}`, edge);
    }
    frontier = next;
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()], truncated };
}

export type GraphInput = z.infer<typeof graphQuery>;

/** GET /graph: 400 unless exactly one start is given, 404 for an unknown start. */
export async function getGraph(sql: Sql, q: GraphInput) {
  if ((q.fnr === undefined) === (q.personId === undefined)) {
    throw validationFailed({ fnr: ['give exactly one of fnr and personId'], personId: ['give exactly one of fnr and personId'] });
  }
  const graph = await buildGraph(sql, { fnr: q.fnr, personId: q.personId }, q.depth);
  if (!graph) throw notFound(q.fnr ? `No company has the register number ${q.fnr}.` : `No person has the id ${q.personId}.`);
  return graph;
}
