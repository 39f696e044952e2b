// Query validation with zod: unknown parameters, repeated parameters and malformed values are 400s
// with `errors` keyed by parameter name, never silently ignored.
// Every map keyed by a client's names has no prototype, so `constructor` or `__proto__` is a name
// like any other. NUL characters (which Postgres cannot store) and `__proto__` keys in bodies are
// refused here, naming the field, before a schema or a query sees them.
import type { ParsedUrlQuery } from 'node:querystring';
import { z } from 'zod';
import { fieldErrors, validationFailed, type FieldErrors } from './errors.js';

export const MAX_PAGE_SIZE = 1000;

/** page (default 1) and pageSize (default 10, at most 1000: above is a 400, never clamped). */
export function pagingShape(defaultPageSize = 10, maxPage?: number) {
  return {
    page: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1')
      .max(maxPage ?? Number.MAX_SAFE_INTEGER, `must be at most ${maxPage}`).default(1)
      .meta({ description: `The page to answer, from 1${maxPage ? ` to ${maxPage}` : ''}; a page past the end answers no rows.` }),
    pageSize: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1')
      .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`).default(defaultPageSize)
      .meta({ description: `Rows per page, 1 to ${MAX_PAGE_SIZE} (default ${defaultPageSize}); above ${MAX_PAGE_SIZE} is a 400, never clamped.` }),
  };
}

export const queryBoolean = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');

const NUL_MESSAGE = 'must not contain NUL characters';

/** Appends `message` to the problems of `field`. */
function addError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

function flattenQuery(query: ParsedUrlQuery, errors: FieldErrors): Record<string, string> {
  const flat: Record<string, string> = Object.create(null);
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) addError(errors, key, 'must be given once');
    else if (value === undefined) continue;
    else if (key.includes('\0') || value.includes('\0')) addError(errors, key, NUL_MESSAGE);
    else flat[key] = value;
  }
  return flat;
}

/** Deeper bodies are refused: no request body of the contract nests beyond a few levels, and schemas recurse. */
export const MAX_BODY_DEPTH = 32;

/**
 * NUL characters anywhere in a parsed JSON body (values and keys), `__proto__` keys, and nesting
 * beyond MAX_BODY_DEPTH, by field path. A walk with its own stack: a body nested 100k deep is data.
 */
function hostileBodyParts(body: unknown, errors: FieldErrors): void {
  const stack: Array<{ value: unknown; path: string[] }> = [{ value: body, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    const field = path.join('.') || '(body)';
    if (typeof value === 'string') {
      if (value.includes('\0')) addError(errors, field, NUL_MESSAGE);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= MAX_BODY_DEPTH) {
      addError(errors, field, `is nested too deeply (at most ${MAX_BODY_DEPTH} levels)`);
      continue;
    }
    const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, i) => [String(i), item]) : Object.entries(value);
    for (const [key, item] of entries) {
      const at = [...path, key];
      if (key === '__proto__') addError(errors, at.join('.'), 'is not accepted as a field name');
      else if (key.includes('\0')) addError(errors, at.join('.'), NUL_MESSAGE);
      else stack.push({ value: item, path: at });
    }
  }
}

// zod compiles a schema on its first parse; .strict() makes a new schema, so making it per request
// would compile on every request, a visible share of the API's CPU under load. One per schema.
const strictSchemas = new WeakMap<z.ZodObject, z.ZodObject>();
function strictVersion<S extends z.ZodObject>(schema: S): z.ZodObject {
  let strict = strictSchemas.get(schema);
  if (!strict) {
    strict = schema.strict();
    strictSchemas.set(schema, strict);
  }
  return strict;
}

/** Validates a query string against a strict object schema; throws a 400 listing every problem. */
export function parseQuery<S extends z.ZodObject>(schema: S, query: ParsedUrlQuery): z.infer<S> {
  const errors = fieldErrors();
  const flat = flattenQuery(query, errors);
  const result = strictVersion(schema).safeParse(flat);
  if (!result.success) issuesToErrors(result.error.issues, errors, 'is not a parameter of this endpoint', '(query)');
  if (Object.keys(errors).length > 0 || !result.success) throw validationFailed(errors);
  return result.data as z.infer<S>;
}

function issuesToErrors(issues: z.core.$ZodIssue[], errors: FieldErrors, unknownKeyMessage: string, root: string): void {
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const at = issue.path.join('.');
      for (const key of issue.keys) addError(errors, at ? `${at}.${key}` : key, unknownKeyMessage);
    } else {
      addError(errors, issue.path.join('.') || root, issue.message);
    }
  }
}

/** Validates a JSON request body (already parsed by middleware/requestBody.ts); 400 listing every problem. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined) throw validationFailed({ '(body)': ['is required'] });
  const errors = fieldErrors();
  hostileBodyParts(body, errors);
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  issuesToErrors(result.error.issues, errors, 'is not a field of this request', '(body)');
  throw validationFailed(errors);
}

/** Validates path parameters (`id` and the like); a malformed one is a 400, not a 404. */
export function parseParams<S extends z.ZodObject>(schema: S, params: Record<string, string>): z.infer<S> {
  const errors = fieldErrors();
  for (const [name, value] of Object.entries(params)) if (value.includes('\0')) addError(errors, name, NUL_MESSAGE);
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  issuesToErrors(result.error.issues, errors, 'is not a parameter', '(path)');
  throw validationFailed(errors);
}

/** The query of an endpoint that takes no parameters: any one sent is a 400, as everywhere else. */
export const noQuery = z.object({});

export const idParams = z.object({
  id: z.uuid({ error: 'must be an id (a UUID)' }).meta({ description: 'The record\'s id (a UUID), as its create answer and its listing give it.', example: '3f6c2a1e-8b4d-4e7a-9c15-2d0b7e6f4a90' }),
});

/** A path parameter taken as text (looked up as given): only NUL characters are refused. */
export function pathText(params: Record<string, string | undefined>, name: string): string {
  const value = params[name] ?? '';
  if (!value.includes('\0')) return value;
  const errors = fieldErrors();
  addError(errors, name, NUL_MESSAGE);
  throw validationFailed(errors);
}
