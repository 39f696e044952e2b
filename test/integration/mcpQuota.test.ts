// Tool calls are metered as REST calls are: one monthly counter per account, whichever channel a call
// came by; a call refused for the quota is not billed and says when the quota resets; the usage
// breakdown records the channel.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, findAccountByEmail } from '../../api/accounts/accountStore.js';
import { connectThroughOAuth, startMcpTestApp, type McpTestApp } from '../helpers/mcpTestApp.js';
import { signUp, WebClient } from '../helpers/webClient.js';

// A fixed moment: 14 March 2025, so the quota resets on 1 April.
const NOW = Date.UTC(2025, 2, 14, 12, 0, 0);
let app: McpTestApp;
let client: Client;
let key: { id: string; key: string };

const courts = () => fetch(`${app.origin}/api/v1/courts`, { headers: { 'x-api-key': key.key } });
const call = () => client.callTool({ name: 'list_catalogue', arguments: { catalogue: 'courts', pageSize: 1 } });

beforeAll(async () => {
  app = await startMcpTestApp({ clock: () => NOW });
  const browser = new WebClient(app.origin);
  const { email, password } = await signUp(browser); // a new account is on the free plan: 100 requests a month
  const account = (await findAccountByEmail(app.db.sql, email))!;
  key = await createApiKey(app.db.sql, { accountId: account.id, label: 'quota' });
  ({ client } = await connectThroughOAuth(app, email, password, key.id));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await app?.close();
});

describe('the monthly quota, shared by REST and MCP', () => {
  it('counts a tool call against the counter REST calls count against', async () => {
    expect((await call()).isError).toBeFalsy();
    const res = await courts();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-quota-limit')).toBe('100');
    expect(res.headers.get('x-quota-remaining')).toBe('98');
  });

  it('says, once the quota is used up, that it is and when it resets, and bills nothing for it', async () => {
    for (let i = 0; i < 97; i++) expect((await courts()).status).toBe(200);
    const last = await call();
    expect(last.isError).toBeFalsy();
    const refused = await call();
    expect(refused.isError).toBe(true);
    const text = (refused.content as Array<{ text: string }>)[0]!.text;
    expect(text).toMatch(/^Monthly quota exceeded: your plan allows 100 requests per month/);
    expect(text).toContain('2025-04-01');
    expect(refused.structuredContent).toMatchObject({ error: 'quota_exceeded', limit: 100, used: 100, resetsAt: '2025-04-01T00:00:00.000Z' });
    expect((refused.structuredContent as { usage: string }).usage).toBe(`${app.origin}/app/usage`);
    const rest = await courts();
    expect(rest.status).toBe(429);
    expect(rest.headers.get('x-quota-remaining')).toBe('0');
  });

  it('records the channel of each billed call in the usage breakdown', async () => {
    await app.api.flushUsage();
    const rows = await app.db.sql<{ channel: string; calls: number }[]>`
      SELECT channel, sum(requests)::int AS calls FROM usage_daily WHERE key_id = ${key.id} AND day = '2025-03-14' GROUP BY channel ORDER BY channel`;
    expect(rows).toEqual([{ channel: 'mcp', calls: 2 }, { channel: 'rest', calls: 98 }]);
    const [counter] = await app.db.sql<{ requests: number }[]>`
      SELECT c.requests::int FROM usage_counter c JOIN api_key k ON c.subject = 'account:' || k.account_id WHERE k.id = ${key.id} AND c.month = '2025-03-01'`;
    expect(counter?.requests).toBe(100);
  });
});
