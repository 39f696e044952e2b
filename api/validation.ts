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

/** Validates a query string against a strict object schema; throws a 400 listing every problem. */
export function parseQuery<S extends z.ZodObject>(schema: S, query: ParsedUrlQuery): z.infer<S> {
  const errors: FieldErrors = {};
  const flat = flattenQuery(query, errors);
  const result = schema.strict().safeParse(flat);
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
