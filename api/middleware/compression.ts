// Response compression (koa-compress): gzip or br as the client's Accept-Encoding asks, for text-like
// answers of at least COMPRESS_MIN_BYTES. Without Accept-Encoding nothing is compressed. Files that
// are compressed already (PDF documents and trade extracts, XLSX workbooks, which are zip archives)
// are sent as they are: the filter names what is compressed, not what is not. A compressed answer
// is streamed (chunked, no Content-Length); streamed answers (CSV exports) are compressed on the way.
// JSON objects are serialised once here, so the size check and the compressor share the bytes
// (Koa's own length check would serialise them a second time).
import zlib from 'node:zlib';
import compress from 'koa-compress';
import type { Middleware } from 'koa';

/** Below this, the encoding saves less than it costs (a response of one TCP segment stays one). */
export const COMPRESS_MIN_BYTES = 1024;

const COMPRESSIBLE = /^(?:text\/|application\/(?:json|xml|javascript|[\w.-]+\+(?:json|xml))\b|image\/svg\+xml)/i;

/** Whether a Content-Type is worth compressing: JSON, XML, text (CSV, HTML, metrics), SVG. */
export const isCompressible = (type: string): boolean => COMPRESSIBLE.test(type);

export function compression(): Middleware {
  // gzip 4 and br 4: ~11 ms of CPU each for a 1.6 MB screener page (to 19 % / 15 % of it); gzip 6 took 16 ms
  // for 10 % less, br 5 and up cost twice as much (docs/http.md).
  const compressor = compress({
    threshold: COMPRESS_MIN_BYTES,
    filter: isCompressible,
    gzip: { level: 4 },
    br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  return (ctx, next) => compressor(ctx, async () => {
    await next();
    const body: unknown = ctx.body;
    // A plain object or array is what Koa itself would send as JSON; its content type is set already.
    const isJson = Array.isArray(body) || (body !== null && typeof body === 'object' && Object.getPrototypeOf(body) === Object.prototype);
    if (isJson && ctx.get('accept-encoding') !== '') ctx.body = Buffer.from(JSON.stringify(body), 'utf8');
  });
}
