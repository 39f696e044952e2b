// Query validation with zod: unknown parameters, repeated parameters and malformed values are 400s
// with `errors` keyed by parameter name, never silently ignored.
import type { ParsedUrlQuery } from 'node:querystring';
import { z } from 'zod';
import { validationFailed, type FieldErrors } from './errors.js';

export const MAX_PAGE_SIZE = 1000;

/** page (default 1) and pageSize (default 10, at most 1000: above is a 400, never clamped). */
export function pagingShape(defaultPageSize = 10, maxPage?: number) {
  return {
    page: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1')
      .max(maxPage ?? Number.MAX_SAFE_INTEGER, `must be at most ${maxPage}`).default(1),
    pageSize: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1')
      .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`).default(defaultPageSize),
  };
}

export const queryBoolean = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');

function flattenQuery(query: ParsedUrlQuery, errors: FieldErrors): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) errors[key] = ['must be given once'];
    else if (value !== undefined) flat[key] = value;
  }
  return flat;
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
  const errors: FieldErrors = {};
  const flat = flattenQuery(query, errors);
  const result = strictVersion(schema).safeParse(flat);
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) errors[key] = [...(errors[key] ?? []), 'is not a parameter of this endpoint'];
      } else {
        const key = issue.path.join('.') || '(query)';
        errors[key] = [...(errors[key] ?? []), issue.message];
      }
    }
  }
  if (Object.keys(errors).length > 0 || !result.success) throw validationFailed(errors);
  return result.data as z.infer<S>;
}

function issuesToErrors(issues: z.core.$ZodIssue[], errors: FieldErrors, unknownKeyMessage: string, root: string): void {
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const at = issue.path.join('.');
      for (const key of issue.keys) {
        const field = at ? `${at}.${key}` : key;
        errors[field] = [...(errors[field] ?? []), unknownKeyMessage];
      }
    } else {
      const key = issue.path.join('.') || root;
      errors[key] = [...(errors[key] ?? []), issue.message];
    }
  }
}

/** Validates a JSON request body (already parsed by middleware/requestBody.ts); 400 listing every problem. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined) throw validationFailed({ '(body)': ['is required'] });
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  issuesToErrors(result.error.issues, errors, 'is not a field of this request', '(body)');
  throw validationFailed(errors);
}

/** Validates path parameters (`id` and the like); a malformed one is a 400, not a 404. */
export function parseParams<S extends z.ZodObject>(schema: S, params: Record<string, string>): z.infer<S> {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  issuesToErrors(result.error.issues, errors, 'is not a parameter', '(path)');
  throw validationFailed(errors);
}

/** The query of an endpoint that takes no parameters: any one sent is a 400, as everywhere else. */
export const noQuery = z.object({});

export const idParams = z.object({ id: z.uuid({ error: 'must be an id (a UUID)' }) });
