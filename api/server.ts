// The API process: createApp() plus a listener and a graceful close (stop accepting, let in-flight
// requests finish).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_PREFIX, createApp, type AppDeps } from './app.js';

export interface RunningApi {
  baseUrl: string;
  server: Server;
  close: () => Promise<void>;
}

export async function startApi(deps: AppDeps & { port: number; host?: string }): Promise<RunningApi> {
  const app = createApp(deps);
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
