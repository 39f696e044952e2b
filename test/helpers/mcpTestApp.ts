// The whole service as `npm start` runs its api role, for MCP tests: startApi() with the MCP listener
// beside it (its own port), a database and Redis prefix of the test's own, cheap password hashing,
// and an MCP client of the SDK that signs in through the real OAuth forms (register, sign-in,
// consent, token), as a person connecting Claude Desktop would.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Clock } from '../../api/clock.js';
import { startApi, type RunningApi } from '../../api/server.js';
import type { WebOptions } from '../../api/web/webDeps.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import type { Sql } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';
import { createTestAccess, type TestAccess } from './apiAccess.js';
import { REDIRECT_URI } from './oauthFlow.js';
import { createTestDatabase, type TestDatabase } from './testDatabase.js';
import { WebClient } from './webClient.js';

export interface McpTestApp {
  db: TestDatabase;
  access: TestAccess;
  api: RunningApi;
  /** The web app and API origin (http://127.0.0.1:<port>). */
  origin: string;
  mcpUrl: string;
  close(): Promise<void>;
}

export async function startMcpTestApp(options: {
  clock?: Clock; web?: WebOptions; tokenCacheMs?: number; burstLimit?: number;
  /** Runs on the new database first (seed data, build the read model). */
  prepare?: (db: TestDatabase) => Promise<void>;
  /** The search backend, made once the database is prepared (default: plain Postgres). */
  search?: (sql: Sql) => Promise<SearchBackend>;
} = {}): Promise<McpTestApp> {
  const db = await createTestDatabase();
  const access = await createTestAccess(options.burstLimit ? { burstLimit: options.burstLimit } : {});
  await options.prepare?.(db);
  const search = await options.search?.(db.sql);
  const many = { max: 10_000, windowSeconds: 60 };
  const api = await startApi({
    sql: db.sql, log: createLogger('silent'), port: 0, host: '127.0.0.1', access: access.access, clock: options.clock, search,
    usageFlushIntervalMs: 60_000,
    web: { passwordCost: { memoryKiB: 64, timeCost: 1 }, limits: { signIn: many, signUp: many, register: many, token: many }, ...options.web },
    mcp: { port: 0, host: '127.0.0.1', tokenCacheMs: options.tokenCacheMs },
  });
  const origin = new URL(api.baseUrl).origin.replace('localhost', '127.0.0.1');
  return {
    db, access, api, origin,
    mcpUrl: api.mcpLocalUrl!,
    close: async () => {
      await api.close();
      await search?.close?.();
      await access.close();
      await db.drop();
    },
  };
}

/** An in-memory OAuth client as the SDK drives it; the authorization URL is kept instead of opening a browser. */
export class MemoryOAuthClient implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;

  get redirectUrl(): string {
    return REDIRECT_URI;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Test MCP client', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }

  clientInformation() {
    return this.info;
  }

  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }
}

export function mcpClient(url: string, provider?: OAuthClientProvider, headers?: Record<string, string>): { client: Client; transport: StreamableHTTPClientTransport } {
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider, requestInit: headers ? { headers } : undefined });
  return { client: new Client({ name: 'test-client', version: '1.0.0' }), transport };
}

/**
 * The whole dance: connect (401), let the SDK discover the metadata, register and build the
 * authorization URL; follow it in a browser stand-in that signs in with `email`/`password` and
 * approves the consent with the account's first key; hand the code to the SDK, which exchanges it;
 * connect again. Returns the connected client and its provider (holding the tokens).
 */
export async function connectThroughOAuth(app: McpTestApp, email: string, password: string, key?: string): Promise<{ client: Client; provider: MemoryOAuthClient }> {
  const provider = new MemoryOAuthClient();
  const first = mcpClient(app.mcpUrl, provider);
  const refused = await first.client.connect(first.transport).then(() => undefined, (err: unknown) => err);
  if (!(refused instanceof UnauthorizedError)) throw new Error(`the first connect should need authorization, got ${String(refused)}`);
  const authorize = provider.authorizationUrl;
  if (!authorize) throw new Error('the SDK built no authorization URL');
  const browser = new WebClient(app.origin);
  const toLogin = await browser.get(authorize.toString());
  if (toLogin.status !== 302) throw new Error(`authorize without a session answered ${toLogin.status}`);
  const loginPath = toLogin.headers.get('location')!;
  const next = new URL(loginPath, app.origin).searchParams.get('next')!;
  const signedIn = await browser.submit(loginPath, { email, password, next }, '/app/login');
  if (signedIn.status !== 303) throw new Error(`sign-in answered ${signedIn.status}`);
  const consentPage = await browser.form(signedIn.headers.get('location')!);
  if (consentPage.status !== 200) throw new Error(`the consent page answered ${consentPage.status}`);
  const fields: Record<string, string> = {};
  for (const m of consentPage.html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = m[2]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
  const keys = [...consentPage.html.matchAll(/<input type="radio" name="key" value="([^"]+)"/g)].map((m) => m[1]!);
  const approved = await browser.post('/oauth/authorize', { ...fields, key: key ?? keys[0]!, decision: 'approve' });
  if (approved.status !== 303) throw new Error(`the consent answered ${approved.status}: ${await approved.text()}`);
  const code = new URL(approved.headers.get('location')!).searchParams.get('code');
  if (!code) throw new Error(`no code in ${approved.headers.get('location')}`);
  await first.transport.finishAuth(code);
  await first.transport.close();
  const second = mcpClient(app.mcpUrl, provider);
  await second.client.connect(second.transport);
  return { client: second.client, provider };
}
