// The HTTP listener of the API, with the limits that keep slow or hostile clients from holding it
// (docs/limits-and-safety.md): a time to send the headers and the whole request, a cap on open
// connections, and requests Node's parser refuses (malformed chunks, a head over 16 KB) answered as
// ProblemDetails with a correlation id instead of Node's bare status line.
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import { DEFAULT_BODY_LIMIT_BYTES } from './middleware/requestBody.js';

export const HEADERS_TIMEOUT_MS = 20_000;
/** Receiving the whole request (not sending the answer): bodies are at most 1 MB. */
export const REQUEST_TIMEOUT_MS = 60_000;
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
export const DEFAULT_MAX_CONNECTIONS = 1000;

export interface ApiServerOptions {
  /** Connections beyond this are closed as they arrive. */
  maxConnections?: number;
  /** The largest body any route takes: a larger declared one is not invited by a 100 Continue (default 1 MB). */
  maxBodyBytes?: number;
  /** Tests shorten the timeouts, and how often Node checks them (default 30 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  checkIntervalMs?: number;
}

const PARSER_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_URI_OVERFLOW: 414,
};

/** The request line's path, when the parser got that far (for the problem's `instance`). */
function requestPath(err: { rawPacket?: unknown }): string {
  const packet = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.subarray(0, 300).toString('latin1') : '';
  const path = /^[A-Z]+ (\S+)/.exec(packet)?.[1] ?? '';
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}

/** The answer to a request Node's parser refused; always closes the connection. */
export function clientErrorResponse(err: Error & { code?: string; rawPacket?: unknown }): string {
  const status = PARSER_STATUS[err.code ?? ''] ?? 400;
  const id = randomUUID();
  const detail = status === 431
    ? 'The request line and headers are limited to 16 KB.'
    : status === 408
      ? 'The request did not arrive in time.'
      : `The request is not valid HTTP (${err.code ?? 'parse error'}).`;
  const body = JSON.stringify({ title: STATUS_CODES[status], status, detail, instance: requestPath(err), traceId: id, correlationId: id });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Connection: close',
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Correlation-ID: ${id}`,
    '',
    body,
  ].join('\r\n');
}

export function createApiServer(app: Koa, options: ApiServerOptions = {}): Server {
  const server = createServer({
    headersTimeout: options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
    requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    ...(options.checkIntervalMs ? { connectionsCheckingInterval: options.checkIntervalMs } : {}),
  }, app.callback());
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  // Node answers `Expect: 100-continue` with 100 before any handler runs, inviting a body the route
  // then refuses (413). Invite only a body that may be taken; the app answers the rest unread.
  const maxBody = options.maxBodyBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  server.on('checkContinue', (req, res) => {
    if (!(Number(req.headers['content-length']) > maxBody)) res.writeContinue();
    server.emit('request', req, res);
  });
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
    // As Node's default: answer only while no response has started on the socket.
    if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(err));
  });
  return server;
}
