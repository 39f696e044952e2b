// The API's own description, outside the access chain (a browser cannot send x-api-key, and reading
// the contract is not a billable call): GET /api/v1/openapi.json (OpenAPI 3.1, version v1) and
// GET /api/v1/docs, a self-contained page rendering it. The document is built once, on first use.
import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import { buildOpenApiDocument } from '../openapi/document.js';
import { docsPageHtml } from '../openapi/docsPage.js';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

export function openApiRouter(): Router {
  const router = new Router();
  let document: string | undefined;

  router.get(OPENAPI_PATH, (ctx) => {
    document ??= JSON.stringify(buildOpenApiDocument());
    ctx.type = 'application/json';
    ctx.body = document;
  });

  router.get(DOCS_PATH, (ctx) => {
    const nonce = randomBytes(16).toString('base64');
    ctx.set('Content-Security-Policy', `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'`);
    ctx.type = 'text/html';
    ctx.body = docsPageHtml(nonce);
  });

  return router;
}
