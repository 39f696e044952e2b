// Shapes every route's OpenAPI entry shares: the two error bodies, the access-chain answers (401,
// 429), the headers on authenticated responses and the company shapes several read routes answer.
// Route modules register their own paths (api/routes/*.docs.ts) with their own zod schemas (the ones
// they validate with) and use these for the common parts.
import type { OpenAPIRegistry, ResponseConfig, ZodMediaTypeObject } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { KEY_FIGURES, figureJsonKey, figureUnit, type KeyFigureDefinition } from '../../schemas/keyFigures.js';

export const ProblemDetails = z
  .object({
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    instance: z.string().meta({ description: 'The request path.' }),
    traceId: z.string().meta({ description: 'The correlation id of the request (X-Correlation-ID).' }),
    correlationId: z.string().optional().meta({
      description: 'On bodies written by the exception handler: every 500, and 400/404/415 answers from a thrown exception.',
    }),
    errors: z.record(z.string(), z.array(z.string())).optional().meta({
      description: 'Validation failures, keyed by parameter or body field (`filters.city`, `fnrs.3`, `(body)`).',
    }),
  })
  .meta({ id: 'ProblemDetails', description: 'application/problem+json body of 400, 404, 413, 415 and 500.' });

export const ApiErrorBody = z
  .object({ error: z.string() })
  .meta({ id: 'ApiError', description: 'application/json body of 401 and 429, written before a request reaches an endpoint.' });

/** Named examples of one media type (`{ name: { $ref } }` or inline `{ name: { summary, value } }`). */
export type Examples = NonNullable<ZodMediaTypeObject['examples']>;

/**
 * Registers an example under components/examples and answers the media type's `examples` entry
 * pointing at it, so the three JSON media types of one answer share one copy of the value.
 */
export function registerExample(registry: OpenAPIRegistry, name: string, summary: string, value: unknown): Examples {
  registry.registerComponent('examples', name, { summary, value });
  return { [name]: { $ref: `#/components/examples/${name}` } };
}

const withExamples = (schema: z.ZodType, examples: Examples | undefined): ZodMediaTypeObject => (examples ? { schema, examples } : { schema });

/** Request bodies: the three accepted JSON media types (anything else is a 415). */
export function requestJsonContent(schema: z.ZodType, examples?: Examples): Record<string, ZodMediaTypeObject> {
  return {
    'application/json': withExamples(schema, examples),
    'text/json': withExamples(schema, examples),
    'application/*+json': withExamples(schema, examples),
  };
}

/** The list envelope of every list endpoint around rows of `row`. */
export function pageOf(row: z.ZodType) {
  return z.object({
    data: z.array(row),
    pageNumber: z.int(),
    pageSize: z.int(),
    totalRecords: z.int().meta({ description: 'All matches, not the rows on the page.' }),
    totalPages: z.int(),
  });
}

/** Successful JSON: application/json by default; text/json and text/plain carry the same JSON when Accept asks. */
export function jsonContent(schema: z.ZodType, examples?: Examples): Record<string, ZodMediaTypeObject> {
  return {
    'application/json': withExamples(schema, examples),
    'text/json': withExamples(schema, examples),
    'text/plain': withExamples(schema, examples),
  };
}

const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed or out-of-range parameter or body (billed)',
  404: 'No resource matches (billed)',
  413: 'Request body larger than 1 MB (billed)',
  415: 'Request body not in application/json, text/json or application/*+json (billed)',
  500: 'Unexpected server error; internals are never shown (billed)',
};

export function problemResponses(...statuses: number[]): Record<number, ResponseConfig> {
  return Object.fromEntries(
    statuses.map((status) => [status, { description: PROBLEM_DESCRIPTIONS[status] ?? 'Error', content: { 'application/problem+json': { schema: ProblemDetails } } }]),
  );
}

const RATE_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed per sliding 60 s window for this key (1000).', schema: { type: 'integer' as const } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' as const } },
  'RateLimit-Reset': { description: 'Seconds until the oldest request leaves the window (Remaining grows).', schema: { type: 'integer' as const } },
  'X-Quota-Limit': { description: 'Requests per month of your plan, or `unlimited`.', schema: { type: 'string' as const } },
  'X-Quota-Remaining': { description: 'Requests left this month, or `unlimited`.', schema: { type: 'string' as const } },
};

/** 401, 429 and 500: what every authenticated endpoint can answer besides its own results. */
export function accessResponses(): Record<number, ResponseConfig> {
  return {
    401: { description: 'x-api-key missing, unknown or no longer active (not billed)', content: { 'application/json': { schema: ApiErrorBody } } },
    429: {
      description:
        'Burst limit (Retry-After: 60, not billed) or monthly quota exhausted (error begins "Monthly quota exceeded"; ' +
        'Retry-After: seconds until 00:00 UTC on the first of next month, at least 61)',
      headers: { 'Retry-After': { description: 'Seconds; 60 = burst limit, more = monthly quota', schema: { type: 'integer' } }, ...RATE_HEADERS },
      content: { 'application/json': { schema: ApiErrorBody } },
    },
    ...problemResponses(500),
  };
}

/** Account-bound routes also answer 401 to a key without an account and without a session cookie. */
export function accountBoundResponses(): Record<number, ResponseConfig> {
  const base = accessResponses();
  return {
    ...base,
    401: {
      description:
        'x-api-key missing, unknown or no longer active; or a service key (no account) without a `session` cookie (not billed)',
      content: { 'application/json': { schema: ApiErrorBody } },
    },
  };
}

export const AUTHENTICATED_RESPONSE_HEADERS = RATE_HEADERS;

/**
 * The tags in the order a user needs them (the docs page and generated clients follow it): the data
 * first, from companies outward, then the feeds that keep a copy fresh, the codes, the account's own
 * records and the service's freshness. Route docs name their tag through this map.
 */
export const TAGS = {
  companies: { name: 'Companies', description: 'Find companies (screener, count, name autocomplete, name resolution) and read their profiles.' },
  people: { name: 'People', description: 'People in the company register (managing directors, procurators, shareholders) and the graph of holdings and functions.' },
  trades: { name: 'Trades', description: 'The trade register (GISA): trades, licences of a trade or a company, signed extracts.' },
  notices: { name: 'Notices', description: 'Court notices (Ediktsdatei): insolvency and restructuring proceedings linked to companies and people.' },
  documents: { name: 'Documents', description: 'Filed documents (annual accounts) as PDF or XML.' },
  feeds: { name: 'Feeds', description: 'Change feeds for keeping a copy up to date: poll with sinceId (see the polling recipe in the contract).' },
  catalogues: { name: 'Catalogues', description: 'Codes the other endpoints use, resolved to names, and the 47 key figures with their signs.' },
  account: { name: 'Account', description: 'Saved queries, lists and exports of your account (a key without an account needs the dashboard\'s session cookie).' },
  status: { name: 'Status', description: 'How fresh each register is. No key, not billed.' },
} as const;

export interface CodeSample { lang: string; label: string; source: string }

/**
 * An operation's curl example as `x-codeSamples` (what Redoc and Scalar show, and the docs page):
 * `target` is the path under the server prefix with example values; the base URL comes from
 * $API_URL and the key from $API_KEY, so the line runs as pasted.
 */
export function curlSample(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', target: string, options: { body?: unknown; output?: string; free?: boolean } = {}): { 'x-codeSamples': CodeSample[] } {
  const lines = [`curl${method === 'GET' ? '' : ` -X ${method}`} "$API_URL${target}"`];
  if (!options.free) lines.push('-H "x-api-key: $API_KEY"');
  if (options.body !== undefined) lines.push('-H "Content-Type: application/json"', `-d '${JSON.stringify(options.body).replaceAll("'", "'\\''")}'`);
  if (options.output) lines.push(`-o ${options.output}`);
  return { 'x-codeSamples': [{ lang: 'Shell', label: 'curl', source: lines.join(' \\\n  ') }] };
}

/**
 * A GET answering `body` as JSON with its named examples, its problem answers (400 unless given) and the access answers.
 * `request` is the example request (path and query under /api/v1) its curl sample sends.
 */
export function registerJsonGet(
  registry: OpenAPIRegistry, path: string, tags: string[], summary: string, query: z.ZodObject | undefined, body: z.ZodType,
  extra: { operationId: string; description: string; request: string; params?: z.ZodObject; problems?: number[]; examples: Examples },
): void {
  registry.registerPath({
    method: 'get', path, tags, summary, operationId: extra.operationId, description: extra.description, ...curlSample('GET', extra.request),
    request: { ...(query ? { query } : {}), ...(extra.params ? { params: extra.params } : {}) },
    responses: {
      200: { description: summary, content: jsonContent(body, extra.examples) },
      ...problemResponses(...(extra.problems ?? [400])), ...accessResponses(),
    },
  });
}

// Company shapes more than one read route answers (screener rows and the profile, notices and feeds).
export const nullableString = z.string().nullable();
export const codeText = z.object({ code: z.string(), text: nullableString });

const SIGN_NOTES = { positive: '', negative: '; an expense: NEGATIVE as filed', signed: '; signed as filed (a loss is negative)' } as const;
const figureField = (f: KeyFigureDefinition) => `${f.label} (${f.labelDe}), ${figureUnit(f)}${SIGN_NOTES[f.sign]}.`;

/** The 47 figures of one filing, as fields (null = not reported in that filing, never 0). */
export const keyFigureFields = Object.fromEntries(KEY_FIGURES.map((f) => [figureJsonKey(f), z.number().nullable().meta({ description: figureField(f) })]));
export const KeyFigures = z
  .object({ documentDate: z.string().nullable().meta({ description: 'Balance-sheet date of the filing the figures come from.' }), ...keyFigureFields })
  .meta({ id: 'KeyFigures', description: 'The 47 figures of one filing. null = not reported in that filing (never 0).' });

export const fnrPath = z.object({ fnr: z.string().meta({ description: 'Matched exactly as stored: a leading-zero form is a 404.', example: '30435h' }) });
