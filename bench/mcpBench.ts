// The MCP phase of bench:api (apiBench.ts): access tokens for the bench keys, minted through the
// authorization server's own steps (client registration, grant with code, code exchange) without the
// browser forms, and the JSON-RPC tools/call bodies equivalent to the REST requests measured.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { registerClient, findClient } from '../api/oauth/clients.js';
import { createGrantWithCode } from '../api/oauth/grants.js';
import { s256Challenge } from '../api/oauth/pkce.js';
import { exchangeCode } from '../api/oauth/tokens.js';
import type { Sql } from '../runtime/db.js';

const REDIRECT_URI = 'http://127.0.0.1:4567/callback';
/** Long enough for any bench run (the authorization server's own default is an hour). */
const LIFETIMES = { accessSeconds: 6 * 3600, refreshSeconds: 6 * 3600 };

/** One access token per key, each through a client of its own (a client holds one grant per account). */
export async function mintAccessTokens(sql: Sql, accountId: string, keyIds: string[], resource: string): Promise<string[]> {
  const tokens: string[] = [];
  for (const keyId of keyIds) {
    const registered = await registerClient(sql, { client_name: 'bench', redirect_uris: [REDIRECT_URI] }, Date.now());
    const client = (await findClient(sql, registered.client_id))!;
    const verifier = randomBytes(32).toString('base64url');
    const grant = await createGrantWithCode(sql, {
      accountId, clientId: client.clientId, keyId, scopes: ['mcp'], resource, redirectUri: REDIRECT_URI,
      codeChallenge: s256Challenge(verifier), codeExpiresAt: new Date(Date.now() + 60_000),
    });
    if (!grant) throw new Error(`key ${keyId} is not an active key of the bench account`);
    const issued = await exchangeCode(sql, client, { code: grant.code, redirectUri: REDIRECT_URI, codeVerifier: verifier, resource }, LIFETIMES, new Date());
    tokens.push(issued.access_token);
  }
  return tokens;
}

export const MCP_REQUEST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

/** A tools/call request body. */
export function toolCallBody(name: string, args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
}

/** The REST screener query (SCREENER_PATH's parameters) as the search_companies tool's arguments. */
export function screenerArguments(path: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, value] of new URL(path, 'http://x').searchParams) args[name] = value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value;
  return args;
}

/** One tools/call answered without a tool error: its size and structured content; throws otherwise (a bench must not measure refusals). */
export async function checkToolCall(url: string, token: string, body: string): Promise<{ bytes: number; structured: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { ...MCP_REQUEST_HEADERS, authorization: `Bearer ${token}` }, body });
  const text = await res.text();
  const answer = res.status === 200 ? (JSON.parse(text) as { result?: { isError?: boolean; structuredContent?: Record<string, unknown> } }) : undefined;
  if (!answer?.result?.structuredContent || answer.result.isError) throw new Error(`tools/call ${body.slice(0, 120)}: ${res.status} ${text.slice(0, 300)}`);
  return { bytes: Buffer.byteLength(text), structured: answer.result.structuredContent };
}

/** The REST requests the MCP phase compares, and how each channel is reached. */
export const MCP_ENDPOINTS = ['profile', 'screener'] as const;
export type McpEndpoint = (typeof MCP_ENDPOINTS)[number];
export type Channel = 'rest' | 'mcp';

/** A process's CPU time so far (user + system, /proc/<pid>/stat, in clock ticks of 10 ms). */
export async function processCpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // after the command name, field 3 on
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
