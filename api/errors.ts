// One error type for the API and one place that turns errors into responses (middleware/errorHandler.ts).
// Handlers throw; they never write error bodies themselves.

export type FieldErrors = Record<string, string[]>;

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
