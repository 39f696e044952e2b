// GET /documents/download/{documentKey}: the document in its own type (application/pdf or
// application/xml). The stored copy when the pipeline holds one; otherwise fetched live from the
// register (and kept, when the document is known). When the register cannot be reached the answer is
// 503 text/plain with exactly the contract's sentence.
import Router from '@koa/router';
import type { Sql } from '../../runtime/db.js';
import type { DocumentSource, FetchedDocument } from '../../runtime/documentSource.js';
import type { Logger } from '../../runtime/logger.js';
import { notFound } from '../errors.js';
import { conditionalGet } from '../middleware/conditionalGet.js';
import { noQuery, parseQuery, pathText } from '../validation.js';

export const REGISTER_UNAVAILABLE = 'Firmenbuch API aktuell nicht verfügbar';

/** application/pdf or application/xml from the register's metadata, else from the KEY's suffix. */
export function documentContentType(key: string, stored: string | null): string {
  if (stored === 'application/pdf' || stored === 'application/xml') return stored;
  return /_PDF$/i.test(key) ? 'application/pdf' : 'application/xml';
}

export function documentsRouter(deps: { sql: Sql; documents: DocumentSource; log: Logger }): Router {
  const router = new Router();
  router.get('/documents/download/:documentKey', conditionalGet('document'), async (ctx) => {
    parseQuery(noQuery, ctx.query);
    const key = pathText(ctx.params, 'documentKey');
    const [stored] = await deps.sql<{ content: Buffer | null; contentType: string | null; fileExtension: string | null }[]>`
      SELECT content, content_type, file_extension FROM document WHERE document_key = ${key}`;
    let content = stored?.content ?? null;
    let contentType = documentContentType(key, stored?.contentType ?? null);
    if (!content) {
      let live: FetchedDocument | null;
      try {
        live = await deps.documents.fetch(key);
      } catch {
        // Unreachable, throttled, timed out or answering nonsense: the contract's 503, not a 500.
        ctx.status = 503;
        ctx.type = 'text/plain; charset=utf-8';
        ctx.set('Retry-After', '60');
        ctx.body = REGISTER_UNAVAILABLE;
        return;
      }
      if (!live) throw notFound(`No document has the key ${key}.`);
      if (!live.content) throw notFound(`The register holds no content for document ${key}.`);
      content = live.content;
      contentType = documentContentType(key, live.contentType ?? stored?.contentType ?? null);
      // Keeping the copy only saves the next request a fetch: the register answered, so a failure here
      // is ours, not the register's, and the client still gets its document.
      if (stored) {
        await deps.documents.keep(key, content).catch((err: Error) =>
          deps.log.warn({ err, documentKey: key }, 'fetched document not kept; the next request fetches it again'));
      }
    }
    ctx.status = 200;
    ctx.type = contentType;
    ctx.set('Content-Disposition', `attachment; filename="${key}.${contentType === 'application/pdf' ? 'pdf' : 'xml'}"`);
    ctx.body = content;
  });
  return router;
}
