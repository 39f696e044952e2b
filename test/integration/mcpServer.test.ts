// The MCP server end to end, as a person connecting an AI tool meets it: the SDK client knows only
// the MCP URL, is refused with a challenge, discovers the protected-resource and authorization-server
// metadata, registers, is sent through the real sign-in and consent forms, exchanges the code and
// calls tools. Then what must refuse: missing, foreign-resource and revoked tokens (401 on the next
// call, for a revoked connection and a revoked key), foreign origins and hosts, GET, oversized
// bodies; and 10 tool calls at once.
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, findAccountByEmail, hashSecret } from '../../api/accounts/accountStore.js';
import { parseBearerChallenge } from '../../api/oauth/resourceServer.js';
import { TOOLS } from '../../api/mcp/tools.js';
import { connectThroughOAuth, startMcpTestApp, type McpTestApp, type MemoryOAuthClient } from '../helpers/mcpTestApp.js';
import { signUp, WebClient } from '../helpers/webClient.js';

let app: McpTestApp;
let email: string;
let password: string;
let client: Client;
let provider: MemoryOAuthClient;
let browser: WebClient;

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(app.mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

const bearer = () => ({ authorization: `Bearer ${provider.saved!.access_token}` });

beforeAll(async () => {
  // Revocations reach the token cache through the web app's hook, so a cache is on as in production.
  app = await startMcpTestApp({ tokenCacheMs: 60_000 });
  browser = new WebClient(app.origin);
  ({ email, password } = await signUp(browser));
  ({ client, provider } = await connectThroughOAuth(app, email, password));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await app?.close();
});

describe('discovery from the MCP URL alone', () => {
  it('answers a request without a token 401 with a challenge naming the resource metadata', async () => {
    const res = await post(INITIALIZE);
    expect(res.status).toBe(401);
    const challenge = parseBearerChallenge(res.headers.get('www-authenticate') ?? '');
    expect(challenge?.error).toBeUndefined();
    expect(challenge?.resource_metadata).toBe(`${new URL(app.mcpUrl).origin}/.well-known/oauth-protected-resource/mcp`);
    const metadata = (await (await fetch(challenge!.resource_metadata!)).json()) as Record<string, unknown>;
    expect(metadata.resource).toBe(app.mcpUrl);
    expect(metadata.authorization_servers).toEqual([app.origin]);
    expect(metadata.scopes_supported).toEqual(['mcp']);
    const root = await fetch(`${new URL(app.mcpUrl).origin}/.well-known/oauth-protected-resource`);
    expect(await root.json()).toEqual(metadata);
    expect(root.headers.get('access-control-allow-origin')).toBe('*');
    const as = (await (await fetch(`${app.origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as.issuer).toBe(app.origin);
    expect(as.code_challenge_methods_supported).toContain('S256');
  });

  it('let the SDK client register, sign in through the forms, consent and get tokens bound to the MCP URL', async () => {
    expect(provider.info?.client_id).toBeTruthy();
    expect(provider.saved?.access_token).toMatch(/^mcp_at_/);
    expect(provider.saved?.refresh_token).toMatch(/^mcp_rt_/);
    const [token] = await app.db.sql<{ resource: string }[]>`
      SELECT g.resource FROM oauth_token t JOIN oauth_grant g ON g.id = t.grant_id WHERE t.token_hash = ${hashSecret(provider.saved!.access_token)}`;
    expect(token?.resource).toBe(app.mcpUrl);
  });

  it('lists every tool once, in a fixed order, with annotations and object input schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-z][a-z_]{2,39}$/);
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(typeof tool.annotations?.readOnlyHint).toBe('boolean');
    }
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    expect(readOnly).toContain('search_companies');
    expect(readOnly).not.toContain('save_query');
    expect(tools.find((t) => t.name === 'delete_company_list')?.annotations?.destructiveHint).toBe(true);
    const screener = tools.find((t) => t.name === 'search_companies')!.inputSchema.properties as Record<string, { type?: string; description?: string }>;
    expect(screener['guv.Personalaufwand_lte']?.type).toBe('number');
    expect(screener['guv.Personalaufwand_lte']?.description).toMatch(/negative/i);
    expect(screener.active?.type).toBe('boolean');
  });
});

describe('tool calls', () => {
  it('answers structured content and a short text', async () => {
    const result = await client.callTool({ name: 'list_key_figures', arguments: { group: 'employees' } });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as { data: Array<{ parameter: string }>; totalRecords: number };
    expect(data.data.map((f) => f.parameter)).toEqual(['employees']);
    const [summary, json] = result.content as Array<{ type: string; text: string }>;
    expect(summary!.text).toBe('1 figures; page 1 of 1 (1 here).');
    expect(JSON.parse(json!.text)).toEqual(data);
  });

  it('answers a bad parameter with the route\'s 400 as a tool error naming it', async () => {
    const result = await client.callTool({ name: 'search_companies', arguments: { pageSize: 5000, colour: 'red' } });
    expect(result.isError).toBe(true);
    const problem = result.structuredContent as { status: number; errors: Record<string, string[]> };
    expect(problem.status).toBe(400);
    expect(Object.keys(problem.errors).sort()).toEqual(['colour', 'pageSize']);
    expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/pageSize: must be at most 1000/);
  });

  it('answers an unknown tool with a JSON-RPC error', async () => {
    await expect(client.callTool({ name: 'drop_tables', arguments: {} })).rejects.toThrow(/No tool is called drop_tables/);
  });

  it('answers a tools/call without the SDK exactly as the SDK does (a batch of one still goes through it)', async () => {
    const headers = { ...bearer(), 'mcp-protocol-version': '2025-06-18' };
    // search_companies, whose JSON comes from the search backend: test/integration/mcpParity.test.ts.
    const calls: Array<[string, Record<string, unknown>, boolean]> = [
      ['list_catalogue', { catalogue: 'courts', pageSize: 3 }, false],
      ['list_catalogue', { catalogue: 'courts', pageSize: 0 }, true], // a tool error
    ];
    for (const [name, args, isError] of calls) {
      const call = { jsonrpc: '2.0', id: 'c-1', method: 'tools/call', params: { name, arguments: args } };
      const direct = await post(call, headers);
      const viaSdk = await post([call], headers);
      expect([direct.status, viaSdk.status]).toEqual([200, 200]);
      expect(direct.headers.get('content-type')).toBe(viaSdk.headers.get('content-type'));
      const answer = await direct.json() as { id: string; result: { isError?: boolean; content: Array<{ text: string }>; structuredContent: unknown } };
      expect(answer).toEqual(await viaSdk.json());
      expect(answer.id).toBe('c-1');
      expect(answer.result.isError).toBe(isError || undefined);
      if (!isError) expect(JSON.parse(answer.result.content[1]!.text)).toEqual(answer.result.structuredContent);
    }
  });

  it('serves 10 tool calls at once', async () => {
    const calls = Array.from({ length: 10 }, (_, i) => client.callTool({ name: 'list_catalogue', arguments: { catalogue: 'courts', pageSize: i + 1 } }));
    const results = await Promise.all(calls);
    results.forEach((result, i) => {
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { pageSize: number }).pageSize).toBe(i + 1);
    });
  });
});

describe('transport', () => {
  it('answers GET and DELETE 405: the server is stateless', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(app.mcpUrl, { method, headers: bearer() });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    }
  });

  it('refuses a foreign Origin and a foreign Host with 403, before the token is looked at', async () => {
    expect((await post(INITIALIZE, { ...bearer(), origin: 'https://evil.example' })).status).toBe(403);
    const url = new URL(app.mcpUrl);
    const foreign = await new Promise<number>((resolve, reject) => {
      // fetch will not send another Host; a raw request does, as a rebound DNS name would.
      import('node:http').then(({ request }) => {
        const req = request({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { ...MCP_HEADERS, ...bearer(), host: 'attacker.example' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end(JSON.stringify(INITIALIZE));
      }, reject);
    });
    expect(foreign).toBe(403);
  });

  it('refuses a body over the limit with 413 and a body that is no JSON with 400', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'resolve_company_names', arguments: { names: ['x'.repeat(1_100_000)] } } });
    expect((await post(big, bearer())).status).toBe(413);
    expect((await post('{not json', bearer())).status).toBe(400);
  });

  it('leaves a missing Accept to the SDK (406)', async () => {
    const res = await fetch(app.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer() }, body: JSON.stringify(INITIALIZE) });
    expect(res.status).toBe(406);
  });
});

describe('tokens that must not work', () => {
  it('refuses a token issued for another resource, and an unknown one, with invalid_token', async () => {
    const account = (await findAccountByEmail(app.db.sql, email))!;
    const key = await createApiKey(app.db.sql, { accountId: account.id });
    const foreign = `mcp_at_${randomBytes(32).toString('base64url')}`;
    const [grant] = await app.db.sql<{ id: string }[]>`
      INSERT INTO oauth_grant (account_id, client_id, key_id, scopes, resource, redirect_uri)
      VALUES (${account.id}, ${provider.info!.client_id}, ${key.id}, ${['mcp']}, 'https://other.example/mcp', 'http://127.0.0.1:4567/callback') RETURNING id`;
    await app.db.sql`INSERT INTO oauth_token (token_hash, grant_id, kind, scopes, expires_at)
      VALUES (${hashSecret(foreign)}, ${grant!.id}, 'access', ${['mcp']}, now() + interval '1 hour')`;
    for (const token of [foreign, `mcp_at_${randomBytes(32).toString('base64url')}`]) {
      const res = await post(INITIALIZE, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(parseBearerChallenge(res.headers.get('www-authenticate')!)?.error).toBe('invalid_token');
    }
  });

  it('refuses the next call after the connection is revoked on the dashboard, and the SDK must sign in again', async () => {
    const other = await connectThroughOAuth(app, email, password);
    expect((await other.client.callTool({ name: 'list_key_figures', arguments: { pageSize: 1 } })).isError).toBeFalsy();
    const [grant] = await app.db.sql<{ id: string }[]>`
      SELECT grant_id AS id FROM oauth_token WHERE token_hash = ${hashSecret(other.provider.saved!.access_token)}`;
    const page = await browser.form('/app/connections');
    expect(page.status).toBe(200);
    expect((await browser.post(`/app/connections/${grant!.id}/revoke`, { _csrf: page.csrf })).status).toBe(303);
    const res = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { authorization: `Bearer ${other.provider.saved!.access_token}`, 'mcp-protocol-version': '2025-06-18' });
    expect(res.status).toBe(401);
    await expect(other.client.callTool({ name: 'list_key_figures', arguments: {} })).rejects.toThrow();
    await other.client.close();
  });

  it('refuses the next call after the grant\'s key is revoked on the dashboard', async () => {
    const account = (await findAccountByEmail(app.db.sql, email))!;
    const key = await createApiKey(app.db.sql, { accountId: account.id, label: 'to revoke' });
    const other = await connectThroughOAuth(app, email, password, key.id);
    expect((await other.client.callTool({ name: 'list_key_figures', arguments: { pageSize: 1 } })).isError).toBeFalsy();
    const confirm = await browser.form(`/app/keys/${key.id}/revoke`);
    expect((await browser.post(`/app/keys/${key.id}/revoke`, { _csrf: confirm.csrf })).status).toBe(303);
    // A tools/call, the path answered without the SDK: the token check comes first all the same.
    const res = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_key_figures', arguments: { pageSize: 1 } } }, { authorization: `Bearer ${other.provider.saved!.access_token}`, 'mcp-protocol-version': '2025-06-18' });
    expect(res.status).toBe(401);
    await other.client.close();
  });
});
