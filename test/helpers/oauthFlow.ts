// The OAuth dance as a client runs it against the test app: register, authorize through the real
// sign-in and consent forms with a cookie jar, exchange the code. Tests use the steps one by one to
// break each in turn.
import { randomBytes } from 'node:crypto';
import { s256Challenge } from '../../api/oauth/pkce.js';
import type { WebClient, WebTestApp } from './webClient.js';

export interface Registered {
  client_id: string;
  client_secret?: string;
  [name: string]: unknown;
}

export const REDIRECT_URI = 'http://127.0.0.1:4567/callback';

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier) };
}

export async function register(app: WebTestApp, metadata: Record<string, unknown> = {}): Promise<Registered> {
  const res = await fetch(`${app.baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test Agent', redirect_uris: [REDIRECT_URI], ...metadata }),
  });
  if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Registered;
}

export function authorizeUrl(app: WebTestApp, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, v);
  return `/oauth/authorize?${query}`;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#96;': '`' };

export function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#96);/g, (e) => ENTITIES[e]!);
}

/** The hidden fields of the page's form (CSRF token included) and the key choices offered. */
export function consentForm(html: string): { fields: Record<string, string>; keys: string[] } {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = unescapeHtml(m[2]!);
  const keys = [...html.matchAll(/<input type="radio" name="key" value="([^"]+)"/g)].map((m) => m[1]!);
  return { fields, keys };
}

/** Approves (or denies) the consent page at `url` for the signed-in client; returns the redirect. */
export async function decide(client: WebClient, url: string, decision: 'approve' | 'deny', key?: string): Promise<URL> {
  const page = await client.get(url);
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${page.headers.get('location') ?? (await page.text())}`);
  const { fields, keys } = consentForm(await page.text());
  const res = await client.post('/oauth/authorize', { ...fields, key: key ?? keys[0]!, decision });
  if (res.status !== 303) throw new Error(`consent answered ${res.status}: ${await res.text()}`);
  return new URL(res.headers.get('location')!);
}

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

export async function tokenRequest(app: WebTestApp, form: Record<string, string | undefined>, headers: Record<string, string> = {}): Promise<TokenAnswer> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body.set(k, v);
  const res = await fetch(`${app.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

/** Register, authorize (the client is signed in already), approve with the first key, return the code. */
export async function authorizedCode(app: WebTestApp, client: WebClient, registered?: Registered): Promise<{ registered: Registered; code: string; verifier: string }> {
  const reg = registered ?? (await register(app));
  const { verifier, challenge } = pkcePair();
  const location = await decide(client, authorizeUrl(app, {
    response_type: 'code', client_id: reg.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', state: 's1', resource: app.mcpUrl,
  }), 'approve');
  return { registered: reg, code: location.searchParams.get('code')!, verifier };
}

export async function exchange(app: WebTestApp, flow: { registered: Registered; code: string; verifier: string }): Promise<TokenAnswer> {
  return tokenRequest(app, { grant_type: 'authorization_code', code: flow.code, code_verifier: flow.verifier, redirect_uri: REDIRECT_URI, client_id: flow.registered.client_id, resource: app.mcpUrl });
}
