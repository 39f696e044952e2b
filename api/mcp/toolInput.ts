// A tool's input is the REST operation's parameters flat in one object: path parameters, the query
// parameters and the body's fields. It is validated by the very schemas the route validates with:
// query parameters are turned into the strings a query string would carry (true -> 'true', 1e6 ->
// '1000000') and go through parseQuery, bodies through the route's body parser. So a tool accepts
// exactly what the route accepts and refuses the rest with the route's 400 (an unknown parameter
// included), and the same input gives the same data.
//
// The JSON Schema shown to the model is derived from the same zod schemas (their descriptions
// included), with the types a model sends: booleans and numbers where the query string carries them
// as text.
import { z } from 'zod';
import { ApiError, fieldErrors, validationFailed } from '../errors.js';
import { parseQuery, pathText } from '../validation.js';

export type JsonSchema = { [key: string]: unknown };

export interface PathParameter {
  description: string;
  example?: string;
  /** Only these values (a JSON Schema enum). */
  enum?: readonly string[];
}

export interface ToolInputSpec<Q extends z.ZodObject | undefined, B> {
  /** Path parameters (required, text). */
  path?: Record<string, PathParameter>;
  /** The route's query schema. */
  query?: Q;
  /** The route's body: its schema (for the model) and its parser (the route's own). */
  body?: { schema: z.ZodType; parse: (body: unknown) => B };
  /** Descriptions written for a model, replacing the schema's (by parameter name). */
  descriptions?: Record<string, string>;
}

export interface ParsedInput<Q, B> {
  path: Record<string, string>;
  query: Q;
  body: B;
}

export interface ToolInput<Q, B> {
  /** The tool's inputSchema (a JSON Schema object). */
  jsonSchema: JsonSchema;
  parse(args: Record<string, unknown> | undefined): ParsedInput<Q, B>;
}

/** REST paths named in the routes' descriptions, as the tool a model calls instead. */
const TOOL_REFERENCES: Array<[RegExp, string]> = [
  [/GET \/keyfigures/g, 'the list_key_figures tool'],
  [/GET \/courts/g, 'list_catalogue with catalogue "courts"'],
  [/GET \/legalforms/g, 'list_catalogue with catalogue "legalforms"'],
  [/GET \/assignmentfunctions/g, 'list_catalogue with catalogue "functions"'],
  [/GET \/trades/g, 'the search_trades tool'],
  [/a personId of \/people/g, 'a personId from search_people'],
  [/\(as in \/edikte\/changes\)/g, '(from list_changes with feed "edikt")'],
];

const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/.source;

function forModel(text: string): string {
  return TOOL_REFERENCES.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}

/** One property of the zod-made schema in the types a model sends, without what only a query string needs. */
function modelProperty(property: JsonSchema, description: string | undefined): JsonSchema {
  const { example, 'x-enumDescriptions': _meanings, anyOf, ...rest } = property as JsonSchema & { example?: unknown; anyOf?: JsonSchema[] };
  let out: JsonSchema = rest;
  const enumValues = rest.enum as unknown[] | undefined;
  if (rest.type === 'string' && enumValues?.length === 2 && enumValues.includes('true') && enumValues.includes('false')) {
    out = { type: 'boolean' };
  } else if (rest.type === 'string' && rest.pattern === DECIMAL_PATTERN) {
    out = { type: 'number' };
  } else if (anyOf?.every((branch) => branch.type === 'string')) {
    // Dates and timestamps: the regexes zod writes are long and tell a model less than the description.
    out = { type: 'string' };
  }
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  const text = description ?? (rest.description as string | undefined);
  if (text !== undefined) out.description = forModel(text);
  if (example !== undefined) out.examples = [example];
  if (rest.default !== undefined) out.default = rest.default;
  return out;
}

function objectSchema(schema: z.ZodType, descriptions: Record<string, string>): { properties: JsonSchema; required: string[] } {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonSchema>; required?: string[] };
  const properties: JsonSchema = {};
  for (const [name, property] of Object.entries(json.properties ?? {})) properties[name] = modelProperty(property, descriptions[name]);
  return { properties, required: json.required ?? [] };
}

/** A query-string value from a JSON argument; objects and arrays have no query-string form. */
function queryValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

export function toolInput<Q extends z.ZodObject | undefined = undefined, B = undefined>(
  spec: ToolInputSpec<Q, B>,
): ToolInput<Q extends z.ZodObject ? z.infer<Q> : undefined, B> {
  const descriptions = spec.descriptions ?? {};
  const pathNames = Object.keys(spec.path ?? {});
  const properties: JsonSchema = {};
  for (const [name, p] of Object.entries(spec.path ?? {})) {
    properties[name] = { type: 'string', description: forModel(descriptions[name] ?? p.description), ...(p.enum ? { enum: [...p.enum] } : {}), ...(p.example ? { examples: [p.example] } : {}) };
  }
  const required = [...pathNames];
  for (const part of [spec.query, spec.body?.schema]) {
    if (!part) continue;
    const shaped = objectSchema(part, descriptions);
    Object.assign(properties, shaped.properties);
    required.push(...shaped.required);
  }
  const jsonSchema: JsonSchema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };

  return {
    jsonSchema,
    parse(args = {}) {
      const path: Record<string, string> = {};
      const rest: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      const errors = fieldErrors();
      for (const [name, value] of Object.entries(args)) {
        if (pathNames.includes(name)) {
          // A number is accepted for an id (change ids are integers); the route reads every path segment as text.
          const text = typeof value === 'number' ? String(value) : value;
          if (typeof text === 'string' && text.trim() !== '') path[name] = pathText({ [name]: text }, name);
          else errors[name] = ['must be a non-empty string'];
        } else if (value !== null && value !== undefined) {
          rest[name] = value;
        }
      }
      for (const name of pathNames) if (!(name in path) && !errors[name]) errors[name] = ['is required'];
      for (const [name, allowed] of Object.entries(spec.path ?? {})) {
        if (allowed.enum && name in path && !allowed.enum.includes(path[name]!)) errors[name] = [`must be one of ${allowed.enum.join(', ')}`];
      }
      if (spec.body) {
        if (Object.keys(errors).length > 0) throw validationFailed(errors);
        return { path, query: undefined as never, body: spec.body.parse(rest) };
      }
      const query: Record<string, string> = {};
      for (const [name, value] of Object.entries(rest)) {
        const text = queryValue(value);
        if (text === undefined) errors[name] = ['must be a single value (text, number or boolean)'];
        else query[name] = text;
      }
      if (!spec.query) {
        for (const name of Object.keys(query)) errors[name] = ['is not a parameter of this tool'];
        if (Object.keys(errors).length > 0) throw validationFailed(errors);
        return { path, query: undefined as never, body: undefined as B };
      }
      let parsed: unknown;
      try {
        parsed = parseQuery(spec.query, query);
      } catch (err) {
        // One answer listing every problem, the path's included.
        if (err instanceof ApiError && err.errors) throw validationFailed({ ...errors, ...err.errors });
        throw err;
      }
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
      return { path, query: parsed as never, body: undefined as B };
    },
  };
}
