// The API process: createApp() plus a listener and a graceful close (stop accepting, let in-flight
// requests finish).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sql } from '../runtime/db.js';
import type { Logger } from '../runtime/logger.js';
import { API_PREFIX, createApp } from './app.js';

export interface RunningApi {
  baseUrl: string;
  server: Server;
  close: () => Promise<void>;
}

export async function startApi(deps: { sql: Sql; log: Logger; port: number; host?: string }): Promise<RunningApi> {
  const app = createApp({ sql: deps.sql, log: deps.log });
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(deps.port, deps.host ?? '0.0.0.0', () => ready());
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://localhost:${port}${API_PREFIX}`;
  deps.log.info({ baseUrl }, 'API listening');
  return {
    baseUrl,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeIdleConnections();
      }),
  };
}
