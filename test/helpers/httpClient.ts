// Runs a Koa app on an ephemeral port and gives tests a small fetch wrapper.
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { createApiServer } from '../../api/httpServer.js';

export interface TestHttp {
  baseUrl: string;
  get: (path: string, headers?: Record<string, string>) => Promise<Response>;
  request: (path: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
}

/** `defaultHeaders` go on every request (an API key, say); headers given per request win. */
export async function serve(app: Koa, defaultHeaders: Record<string, string> = {}): Promise<TestHttp> {
  const server = createApiServer(app);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = (path: string, init?: RequestInit) =>
    fetch(baseUrl + path, { ...init, headers: { ...defaultHeaders, ...(init?.headers as Record<string, string> | undefined) } });
  return {
    baseUrl,
    request,
    get: (path, headers) => request(path, { headers }),
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

// Response bodies in tests are checked field by field with expect(); typing every shape would add
// nothing the assertions do not already say.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonBody = any;

export async function json(res: Response): Promise<JsonBody> {
  return res.json() as Promise<JsonBody>;
}
