// One error type per body shape of the contract, and one place that turns them into responses
// (middleware/errorHandler.ts). Handlers and middlewares throw; they never write error bodies themselves.
//   ApiError    -> application/problem+json ProblemDetails (400, 404, 415, 500)
//   AccessError -> application/json { error } (401 and 429, answered before a request reaches an endpoint)

export type FieldErrors = Record<string, string[]>;

/** An empty error map without a prototype: a field named `constructor` or `__proto__` is a plain key. */
export function fieldErrors(): FieldErrors {
  return Object.create(null) as FieldErrors;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly errors?: FieldErrors,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export const badRequest = (detail: string, errors?: FieldErrors) =>
  new ApiError(400, 'Bad Request', detail, errors);

export const notFound = (detail: string) => new ApiError(404, 'Not Found', detail);

export const validationFailed = (errors: FieldErrors) =>
  new ApiError(400, 'One or more validation errors occurred.', 'See errors for the parameters that were not accepted.', errors);

export const unsupportedMediaType = (given: string) =>
  new ApiError(
    415,
    'Unsupported Media Type',
    `Request bodies are accepted as application/json, text/json or application/*+json, not ${given || 'a body without Content-Type'}.`,
  );

/**
 * 401 and 429: the contract's ApiError body `{ error }` as application/json. Headers (Retry-After,
 * RateLimit-*) are set on the context before throwing; the error handler keeps them.
 */
export class AccessError extends Error {
  constructor(
    readonly status: 401 | 429,
    message: string,
  ) {
    super(message);
    this.name = 'AccessError';
  }
}

export const MESSAGES = {
  missingKey: 'API key missing: send it in the x-api-key header.',
  invalidKey: 'API key unknown or no longer active.',
  accountRequired:
    'This route belongs to an account: use an API key issued to an account, or sign in to the dashboard (session cookie).',
  burst: (limit: number, windowSeconds: number) =>
    `Burst limit exceeded: at most ${limit} requests per ${windowSeconds} seconds per key. Retry after the number of seconds in Retry-After.`,
  /** The quota message; the contract requires the body to begin with a monthly-quota-exceeded message. */
  quota: (limit: number) =>
    `Monthly quota exceeded: your plan allows ${limit} requests per month. The quota resets at 00:00 UTC on the first of next month (see Retry-After).`,
} as const;
