// The OpenAPI side of conditional GETs (api/middleware/conditionalGet.ts): the operations that answer
// with an ETag get the If-None-Match parameter, ETag and Cache-Control on their 200, and a 304. The
// list is the routes' own (test/integration/httpNiceties.test.ts checks every path answers so).
import { CACHE_CONTROL, type CachePolicy } from '../middleware/conditionalGet.js';

/** OpenAPI path -> the cache policy its route applies. */
export const CONDITIONAL_GETS: Readonly<Record<string, CachePolicy>> = {
  '/businesses/{fnr}': 'profile',
  '/people/{personId}': 'profile',
  '/documents/download/{documentKey}': 'document',
  '/oenace': 'catalogue',
  '/legalforms': 'catalogue',
  '/courts': 'catalogue',
  '/assignmentfunctions': 'catalogue',
  '/keyfigures': 'catalogue',
  '/addresses/cities': 'catalogue',
  '/addresses/zipcodes': 'catalogue',
  '/addresses/locations': 'catalogue',
};

const IF_NONE_MATCH = {
  name: 'If-None-Match', in: 'header', required: false,
  description: 'An ETag of an earlier answer (or several, comma-separated): when the answer is still the same, a 304 without a body. ' +
    'A 304 is billed like any other answer.',
  schema: { type: 'string' }, example: 'W/"3q2-7wWmH7c1mz6pm3ZsbwU2zvM"',
};

type Operation = { parameters?: unknown[]; responses?: Record<string, { description?: string; headers?: Record<string, unknown> }> };

/** Adds If-None-Match, the ETag and Cache-Control headers and the 304 to the operations of CONDITIONAL_GETS that `document` has. */
export function addConditionalGets(document: { paths?: Record<string, Record<string, unknown>> }): void {
  for (const [path, policy] of Object.entries(CONDITIONAL_GETS)) {
    const operation = document.paths?.[path]?.get as Operation | undefined;
    if (!operation?.responses?.['200']) continue;
    operation.parameters = [...(operation.parameters ?? []), IF_NONE_MATCH];
    const ok = operation.responses['200'];
    ok.headers = {
      ...ok.headers,
      ETag: { description: 'Weak entity tag of this answer (the same whatever its Content-Encoding); send it back in If-None-Match.', schema: { type: 'string' } },
      'Cache-Control': { description: `\`${CACHE_CONTROL[policy]}\`: how long your client may reuse the answer without asking again (and being billed).`, schema: { type: 'string' } },
    };
    operation.responses['304'] = {
      description: 'Not modified: the If-None-Match ETag still names the answer. No body; ETag and Cache-Control as on the 200. ' +
        'Billed like any answer (every endpoint call costs one request); a fresh copy within Cache-Control max-age costs nothing, because no call is made.',
      headers: { ETag: ok.headers.ETag, 'Cache-Control': ok.headers['Cache-Control'] },
    };
  }
}
