// The operations the fuzzer calls, read from the API's own OpenAPI document: every path and method,
// its path and query parameters with their JSON schemas, its request body schema ($refs resolved),
// and whether it is public (an empty `security`) or belongs to one account.
import { buildOpenApiDocument } from '../../api/openapi/document.js';

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  example?: unknown;
  default?: unknown;
  $ref?: string;
};

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** The template under the server prefix, e.g. `/lists/{id}/add`. */
  template: string;
  /** Server prefix + template, e.g. `/api/v1/lists/{id}/add`. */
  fullTemplate: string;
  parameters: Parameter[];
  body?: JsonSchema;
  /** No key needed (`security: []`). */
  public: boolean;
  /** Saved queries, lists, exports: a key without an account gets a 401 (contract, Authentication 3). */
  accountBound: boolean;
}

const ACCOUNT_BOUND = /^\/(queries|lists|exports)(\/|$)/;

type Doc = {
  servers: { url: string }[];
  components: { schemas: Record<string, JsonSchema> };
  paths: Record<string, Record<string, {
    parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
    requestBody?: { content: Record<string, { schema: JsonSchema }> };
    security?: unknown[];
  }>>;
};

/** The schema with every $ref replaced by its component (cycles stop at depth 8). */
function resolve(schema: JsonSchema, components: Record<string, JsonSchema>, depth = 0): JsonSchema {
  if (depth > 8) return {};
  if (schema.$ref) return resolve(components[schema.$ref.split('/').pop()!] ?? {}, components, depth + 1);
  const out: JsonSchema = { ...schema };
  if (schema.items) out.items = resolve(schema.items, components, depth + 1);
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, components, depth + 1)]));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (schema[key]) out[key] = schema[key]!.map((s) => resolve(s, components, depth + 1));
  }
  return out;
}

export function fuzzOperations(): Operation[] {
  const doc = buildOpenApiDocument() as unknown as Doc;
  const prefix = new URL(doc.servers[0]!.url, 'http://x').pathname.replace(/\/$/, '');
  const ops: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const parameters = (op.parameters ?? [])
        .filter((p) => p.in === 'path' || p.in === 'query')
        .map((p) => ({ name: p.name, in: p.in as 'path' | 'query', required: p.required ?? p.in === 'path', schema: resolve(p.schema ?? {}, doc.components.schemas) }));
      const bodySchema = op.requestBody?.content['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(), template, fullTemplate: prefix + template, parameters,
        ...(bodySchema ? { body: resolve(bodySchema, doc.components.schemas) } : {}),
        public: Array.isArray(op.security) && op.security.length === 0,
        accountBound: ACCOUNT_BOUND.test(template),
      });
    }
  }
  return ops;
}
