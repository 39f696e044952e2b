// The API's machine-readable description: OpenAPI 3.1 generated from the zod schemas the routes
// validate with (each route module's sibling api/routes/NAME.docs.ts registers its own paths), version
// `v1` as in the path prefix.
// Where the contract is silent, the choice made is written into the description below, so a
// consumer reads it in one place.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { registerBusinessesDocs } from '../routes/businesses.docs.js';
import { registerCatalogueDocs } from '../routes/catalogues.docs.js';
import { registerChangeFeedDocs } from '../routes/changeFeeds.docs.js';
import { registerCompanyProfileDocs } from '../routes/companyProfile.docs.js';
import { registerStatusDocs } from '../routes/status.docs.js';
import { registerDocumentDocs } from '../routes/documents.docs.js';
import { registerExportDocs } from '../routes/exports.docs.js';
import { registerGraphDocs } from '../routes/graph.docs.js';
import { registerListDocs } from '../routes/lists.docs.js';
import { registerPeopleDocs } from '../routes/people.docs.js';
import { registerQueryDocs } from '../routes/queries.docs.js';
import { registerTradeDocs } from '../routes/trades.docs.js';
import { addConditionalGets } from './conditional.js';
import { AUTHENTICATED_RESPONSE_HEADERS, TAGS } from './common.js';

export const API_VERSION = 'v1';

const DESCRIPTION = `
Austrian public company data (company register, trade register, court notices, the finance ministry's list of bogus
companies) as JSON. Every path is relative to \`/api/v1\`.

## Authentication
Every request carries \`x-api-key\`. A missing, unknown or no longer active key is a **401** \`{ "error" }\`
(application/json), not billed. Saved queries, lists and exports belong to one account: a key without an account
(service key) gets a 401 there unless it sends the dashboard's \`session\` cookie; an account key always acts for
its own account, whatever cookie comes along. Key lookups are cached for up to 5 seconds per API process, so a
revoked key stops working within 5 seconds.

## Limits and billing
- Monthly quota per user (the account; a service key on its own): free 100, pro 5000, api unlimited. It resets at
  00:00 UTC on the first of each month; issuing or rotating keys does not reset it.
- Burst limit: 1000 requests per 60 seconds, sliding window, per key.
- Order: authentication, then burst limit, then quota, then the endpoint. Every call that gets past the three costs
  exactly one request, whatever the endpoint answers (400, 404, 413, 415 and 500 included). 401s and burst 429s are
  not billed; a quota 429 is not billed either (it never reaches the endpoint) but does take a burst-window slot.
- A path that names no operation is a **404** ProblemDetails before authentication, with or without a key, and is
  not billed. Paths are matched without regard to case and with an optional trailing slash; any form that reaches an
  operation goes through authentication, limits and billing like the canonical one.
- **429** \`{ "error" }\`: \`Retry-After: 60\` means the burst limit; a larger value means the monthly quota
  (seconds until the reset, never below 61, so the two causes cannot be confused). The quota body's \`error\`
  begins with "Monthly quota exceeded".
- Every authenticated response carries \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` (seconds until
  the oldest request leaves the window) and \`X-Quota-Limit\`, \`X-Quota-Remaining\` (\`unlimited\` on the api plan).

## Compression, caching, CORS
- Answers of 1 KB and more in JSON, CSV, XML or other text are gzip- or br-encoded when \`Accept-Encoding\` asks for it
  (streamed, without Content-Length); PDFs and workbooks are sent as they are. Without \`Accept-Encoding\`: never encoded.
- Profiles, catalogues and documents carry a weak \`ETag\` and \`Cache-Control\` (\`private\`; profiles 5 minutes,
  catalogues an hour, documents a year, immutable). Sending the ETag back in \`If-None-Match\` answers **304** without a body
  when nothing changed. A 304 is billed like any other answer (every endpoint call costs one request); reusing a copy
  within its max-age makes no call and costs nothing.
- Browser apps on the origins the operator allows (CORS) get the CORS headers; their preflights (\`OPTIONS\`) are answered
  without a key and not billed. Requests still carry \`x-api-key\`; cookies are not accepted across origins.

## Errors
400, 404, 413, 415 and 500 are \`application/problem+json\` ProblemDetails (\`title\`, \`status\`, \`detail\`,
\`instance\`, \`traceId\`); validation failures add \`errors\` keyed by parameter or body field; bodies from the
exception handler add \`correlationId\`. A 500 never shows internals. \`X-Correlation-ID\` is on every response: your
\`x-correlation-id\` echoed (up to 128 printable characters), or a new one.
- **503** ProblemDetails with \`Retry-After\` (seconds): the database or the request counter cannot be reached for a
  moment, or (exports only) as many exports as the server runs at once are running and more are waiting. Retry
  after the seconds given; a 503 written before the quota step is not billed. (Document and trade-extract
  downloads answer their own 503 as text/plain, as described there.)
- Requests HTTP itself refuses are answered as ProblemDetails with \`X-Correlation-ID\` and close the connection:
  **431** for a request line and headers over 16 KB, **400** for malformed HTTP, **408** for a request that does
  not arrive within 60 s (headers within 20 s). A **413** closes the connection too.
- Parameter and field values must not contain NUL characters, bodies must not nest deeper than 32 levels, and
  \`__proto__\` is not accepted as a body field name: each is a 400 naming the field.

## Content types
Request bodies: \`application/json\`, \`text/json\` or \`application/*+json\`; anything else is a 415. Bodies are
limited to 1 MB (413). Successful JSON answers are \`application/json\`, or \`text/json\` / \`text/plain\` (the same
JSON) when \`Accept\` prefers them; an \`Accept\` naming none of these still gets \`application/json\`.

## Examples and generated clients
Every operation has an \`operationId\` (camelCase, stable: \`searchCompanies\`, \`getCompanyProfile\`, ...) for client
generators, and a curl example (\`x-codeSamples\`, shown by the docs page, Redoc and Scalar) that reads the base URL from
\`$API_URL\` (this server's origin plus \`/api/v1\`) and the key from \`$API_KEY\`. Answers carry named examples.

## Key figures and their signs
Figures are stored as filed: **expenses are negative**. \`guv.Personalaufwand_gte=1000000\` finds nothing;
\`guv.Personalaufwand_lte=-1000000\` finds a personnel expense of at least 1,000,000 EUR, and ascending order puts the
largest expense first. \`GET /keyfigures\` lists all 47 figures with meaning, unit and sign.

## Free pages
This document (\`/api/v1/openapi.json\`), its rendering (\`/api/v1/docs\`) and the registers' freshness (\`/api/v1/status\`) need
no key and are not billed.
`.trim();

/** Every route module's docs, in the order of their tags (TAGS), so operations list in that order too. */
const ROUTE_DOCS: Array<(registry: OpenAPIRegistry) => void> = [
  registerBusinessesDocs, registerCompanyProfileDocs, registerPeopleDocs, registerGraphDocs, registerTradeDocs, registerDocumentDocs,
  registerChangeFeedDocs, registerCatalogueDocs, registerQueryDocs, registerListDocs, registerExportDocs, registerStatusDocs,
];

export function buildOpenApiDocument() {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'x-api-key' });
  registry.registerComponent('securitySchemes', 'Session', {
    type: 'apiKey', in: 'cookie', name: 'session',
    description: 'Dashboard session; lets a key without an account reach saved queries, lists and exports of the session\'s account.',
  });
  for (const register of ROUTE_DOCS) register(registry);
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Austrian company data API', version: API_VERSION, description: DESCRIPTION },
    servers: [{ url: '/api/v1' }],
    security: [{ ApiKey: [] }],
    tags: Object.values(TAGS).map((t) => ({ ...t })),
  });
  addAuthenticatedHeaders(document as { paths?: Record<string, Record<string, unknown>> });
  addConditionalGets(document as { paths?: Record<string, Record<string, unknown>> });
  return document;
}

type Operation = { security?: unknown[]; responses?: Record<string, { headers?: Record<string, unknown> }> };

/** Every answer of an authenticated endpoint carries the rate-limit and quota headers, except 401. */
function addAuthenticatedHeaders(document: { paths?: Record<string, Record<string, unknown>> }): void {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item) as Operation[]) {
      if (operation.security?.length === 0) continue; // a free page: no key, so no limits to report
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (status === '401') continue;
        response.headers = { ...AUTHENTICATED_RESPONSE_HEADERS, ...response.headers };
      }
    }
  }
}
