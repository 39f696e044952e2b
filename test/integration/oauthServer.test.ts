// The OAuth 2.1 authorization server over HTTP against real Postgres and Redis: metadata, dynamic
// registration, every authorize error path (where it may redirect and where it must not), the token
// endpoint's happy and error paths, code reuse, refresh rotation and replay, revocation, and the
// bearer resolver the MCP server uses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../api/accounts/accountStore.js';
import { createBearerResolver } from '../../api/oauth/bearer.js';
import { purgeExpired } from '../../api/web/housekeeping.js';
import {
  authorizedCode, authorizeUrl, consentForm, decide, exchange, pkcePair, register, REDIRECT_URI, tokenRequest, type Registered,
} from '../helpers/oauthFlow.js';
import { signUp, startWebTestApp, type WebClient, type WebTestApp } from '../helpers/webClient.js';

let now = Date.now();
const clock = () => now;
let app: WebTestApp;
let user: WebClient;
let keyId: string;

async function newKey(client: WebClient, name: string): Promise<string> {
  const res = await client.submit('/app/keys', { name });
  expect(res.status).toBe(201);
  const [row] = await app.db.sql<{ id: string }[]>`SELECT id FROM api_key WHERE label = ${name}`;
  return row!.id;
}

beforeAll(async () => {
  app = await startWebTestApp({ clock });
  user = app.client();
  await signUp(user);
  keyId = await newKey(user, 'agent key');
});
afterAll(() => app.close());

const resolver = () => createBearerResolver(app.db.sql, { clock, cacheMs: 0, resource: app.mcpUrl });

describe('metadata (RFC 8414)', () => {
  it('describes the issuer, its endpoints and what it supports, with open CORS', async () => {
    const res = await fetch(`${app.baseUrl}/.well-known/oauth-authorization-server`, { headers: { origin: 'http://inspector.local' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      issuer: app.baseUrl,
      authorization_endpoint: `${app.baseUrl}/oauth/authorize`,
      token_endpoint: `${app.baseUrl}/oauth/token`,
      registration_endpoint: `${app.baseUrl}/oauth/register`,
      revocation_endpoint: `${app.baseUrl}/oauth/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      scopes_supported: ['mcp'],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('answers CORS preflights of the token endpoint', async () => {
    const res = await fetch(`${app.baseUrl}/oauth/token`, { method: 'OPTIONS', headers: { origin: 'http://inspector.local', 'access-control-request-method': 'POST' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });
});

describe('dynamic client registration (RFC 7591)', () => {
  const post = (body: string, type = 'application/json') =>
    fetch(`${app.baseUrl}/oauth/register`, { method: 'POST', headers: { 'content-type': type }, body });

  it('registers a public client: 201 with its client_id and no secret', async () => {
    const res = await post(JSON.stringify({ client_name: 'Claude', redirect_uris: ['http://127.0.0.1:33418/callback'], grant_types: ['authorization_code', 'refresh_token'] }));
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Registered;
    expect(body).toMatchObject({ client_name: 'Claude', token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1:33418/callback'], response_types: ['code'] });
    expect(body.client_id).toMatch(/^mcpc_/);
    expect(body.client_secret).toBeUndefined();
    const [row] = await app.db.sql`SELECT client_name, client_secret_hash FROM oauth_client WHERE client_id = ${body.client_id}`;
    expect(row).toEqual({ clientName: 'Claude', clientSecretHash: null });
  });

  it('gives a confidential client a secret once and stores only its hash', async () => {
    const body = await register(app, { token_endpoint_auth_method: 'client_secret_basic' });
    expect(body.client_secret).toMatch(/^mcpcs_/);
    expect(body.client_secret_expires_at).toBe(0);
    const [row] = await app.db.sql<{ clientSecretHash: Buffer; metadata: unknown }[]>`SELECT client_secret_hash, metadata FROM oauth_client WHERE client_id = ${body.client_id}`;
    expect(row!.clientSecretHash.equals(hashSecret(body.client_secret!))).toBe(true);
    expect(JSON.stringify(row!.metadata)).not.toContain(body.client_secret!);
  });

  it.each([
    ['a javascript: redirect', { redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
    ['plain http to another host', { redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
    ['no redirect URIs', { redirect_uris: [] }, 'invalid_redirect_uri'],
    ['an unsupported grant', { redirect_uris: [REDIRECT_URI], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
    ['the implicit flow', { redirect_uris: [REDIRECT_URI], response_types: ['token'] }, 'invalid_client_metadata'],
    ['an unsupported auth method', { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
  ])('refuses %s with 400 %s', async (_name, metadata, error) => {
    const res = await post(JSON.stringify(metadata));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(error);
  });

  it('refuses a body that is not JSON metadata', async () => {
    for (const [body, type] of [['{nope', 'application/json'], ['[1]', 'application/json'], ['redirect_uris=x', 'application/x-www-form-urlencoded']]) {
      const res = await post(body!, type);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_client_metadata');
    }
  });
});

describe('authorize', () => {
  let client: Registered;
  const { challenge } = pkcePair();
  const params = (overrides: Record<string, string | undefined> = {}) => ({
    response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge,
    code_challenge_method: 'S256', state: 'st-1', resource: app.mcpUrl, ...overrides,
  });
  beforeAll(async () => {
    client = await register(app);
  });

  it.each([
    ['an unknown client', { client_id: 'mcpc_unknown' }, /not registered/],
    ['no client_id', { client_id: undefined }, /client_id is missing/],
    ['a redirect URI the client did not register', { redirect_uri: 'https://evil.example/cb' }, /not one this client registered/],
    ['a registered loopback URI on another path', { redirect_uri: 'http://127.0.0.1:4567/other' }, /not one this client registered/],
  ])('shows %s on its own page and never redirects', async (_name, overrides, message) => {
    const res = await user.get(authorizeUrl(app, params(overrides)));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toMatch(message);
  });

  it.each([
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['code_challenge_method plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request'],
    ['a challenge that is no SHA-256', { code_challenge: 'short' }, 'invalid_request'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['an unknown scope', { scope: 'admin' }, 'invalid_scope'],
    ['another resource', { resource: 'https://elsewhere.example/mcp' }, 'invalid_target'],
  ])('sends %s back to the client with %s, state and iss', async (_name, overrides, error) => {
    const res = await user.get(authorizeUrl(app, params(overrides)));
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe('st-1');
    expect(location.searchParams.get('iss')).toBe(app.baseUrl);
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('sends a browser without a session to sign in, and back to the consent page after', async () => {
    const visitor = app.client();
    const url = authorizeUrl(app, params());
    const res = await visitor.get(url);
    expect(res.status).toBe(302);
    const login = res.headers.get('location')!;
    expect(login).toBe(`/app/login?next=${encodeURIComponent(url)}`);
    const { email, password } = await signUp(app.client());
    const signIn = await visitor.submit(login, { email, password, next: url }, '/app/login');
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toBe(url);
    const consent = await visitor.get(url);
    expect(consent.status).toBe(200);
    const html = await consent.text();
    expect(html).toContain('Test Agent');
    expect(html).toContain('127.0.0.1:4567');
    expect(consent.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // This account has no key yet: the only choice is a new one.
    expect(consentForm(html).keys).toEqual(['new']);
  });

  it('offers the account’s active keys, and a denial goes back as access_denied with state and iss', async () => {
    const html = await (await user.get(authorizeUrl(app, params()))).text();
    expect(consentForm(html).keys).toEqual([keyId, 'new']);
    const location = await decide(user, authorizeUrl(app, params()), 'deny');
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: 'access_denied', error_description: 'The user denied the request.', state: 'st-1', iss: app.baseUrl });
  });

  it('refuses a consent post for another account’s key and asks again', async () => {
    const other = app.client();
    await signUp(other);
    const foreignKey = await newKey(other, 'foreign key');
    const page = await user.get(authorizeUrl(app, params()));
    const { fields } = consentForm(await page.text());
    const res = await user.post('/oauth/authorize', { ...fields, key: foreignKey, decision: 'approve' });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    const [grants] = await app.db.sql`SELECT count(*)::int AS n FROM oauth_grant WHERE key_id = ${foreignKey}`;
    expect(grants!.n).toBe(0);
  });
});

describe('token endpoint', () => {
  it('exchanges a code for opaque tokens, stored as hashes, bound to the chosen key', async () => {
    const flow = await authorizedCode(app, user);
    const answer = await exchange(app, flow);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'mcp' });
    const access = answer.body.access_token as string;
    const refresh = answer.body.refresh_token as string;
    expect(access).toMatch(/^mcp_at_[A-Za-z0-9_-]{43}$/);
    expect(refresh).toMatch(/^mcp_rt_[A-Za-z0-9_-]{43}$/);
    const rows = await app.db.sql<{ tokenHash: Buffer; kind: string }[]>`
      SELECT t.token_hash, t.kind FROM oauth_token t JOIN oauth_grant g ON g.id = t.grant_id WHERE g.client_id = ${flow.registered.client_id} ORDER BY kind`;
    expect(rows.map((r) => [r.kind, r.tokenHash.toString('hex')])).toEqual([['access', hashSecret(access).toString('hex')], ['refresh', hashSecret(refresh).toString('hex')]]);
    const grant = await resolver().resolve(access);
    const [account] = await app.db.sql<{ accountId: string }[]>`SELECT account_id FROM api_key WHERE id = ${keyId}`;
    expect(grant).toMatchObject({ keyId, accountId: account!.accountId, clientId: flow.registered.client_id, resource: app.mcpUrl, scopes: ['mcp'] });
    expect(grant!.principal).toMatchObject({ keyId, subject: `account:${account!.accountId}`, monthlyQuota: 100 });
    // The refresh token is no access token, and a token for another resource is refused.
    expect(await resolver().resolve(refresh)).toBeUndefined();
    expect(await createBearerResolver(app.db.sql, { clock, cacheMs: 0, resource: 'https://elsewhere.example/mcp' }).resolve(access)).toBeUndefined();
  });

  it.each([
    ['a wrong code_verifier', { code_verifier: pkcePair().verifier }, 400, 'invalid_grant'],
    ['a missing code_verifier', { code_verifier: undefined }, 400, 'invalid_request'],
    ['another redirect_uri', { redirect_uri: 'http://127.0.0.1:9999/callback' }, 400, 'invalid_grant'],
    ['an unknown code', { code: 'not-a-code' }, 400, 'invalid_grant'],
    ['another resource', { resource: 'https://elsewhere.example/mcp' }, 400, 'invalid_target'],
    ['an unknown client', { client_id: 'mcpc_nobody' }, 401, 'invalid_client'],
    ['no client_id', { client_id: undefined }, 401, 'invalid_client'],
    ['an unsupported grant type', { grant_type: 'password' }, 400, 'unsupported_grant_type'],
    ['no grant type', { grant_type: undefined }, 400, 'invalid_request'],
  ])('answers %s with %i %s, and the code still works after', async (_name, overrides, status, error) => {
    const flow = await authorizedCode(app, user);
    const answer = await tokenRequest(app, {
      grant_type: 'authorization_code', code: flow.code, code_verifier: flow.verifier, redirect_uri: REDIRECT_URI, client_id: flow.registered.client_id, ...overrides,
    });
    expect(answer.status).toBe(status);
    expect(answer.body.error).toBe(error);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect((await exchange(app, flow)).status).toBe(200);
  });

  it('refuses a code presented by another client', async () => {
    const flow = await authorizedCode(app, user);
    const other = await register(app);
    const answer = await exchange(app, { ...flow, registered: other });
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses an expired code', async () => {
    const flow = await authorizedCode(app, user);
    now += 301_000;
    try {
      expect(await exchange(app, flow)).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'The authorization code has expired.' } });
    } finally {
      now -= 301_000;
    }
  });

  it('refuses a form that is not urlencoded', async () => {
    const res = await fetch(`${app.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":"authorization_code"}' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('revokes the grant and its tokens when a code is used twice', async () => {
    const flow = await authorizedCode(app, user);
    const first = await exchange(app, flow);
    expect(first.status).toBe(200);
    expect(await resolver().resolve(first.body.access_token as string)).toBeDefined();
    const second = await exchange(app, flow);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await resolver().resolve(first.body.access_token as string)).toBeUndefined();
    expect((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string, client_id: flow.registered.client_id })).body.error).toBe('invalid_grant');
    const [grant] = await app.db.sql`SELECT revoked_at FROM oauth_grant g JOIN oauth_code c ON c.grant_id = g.id WHERE c.code_hash = ${hashSecret(flow.code)}`;
    expect(grant!.revokedAt).toBeInstanceOf(Date);
  });

  it('authenticates a confidential client by HTTP Basic and refuses it without or with a wrong secret', async () => {
    const confidential = await register(app, { token_endpoint_auth_method: 'client_secret_basic' });
    const flow = await authorizedCode(app, user, confidential);
    const form = { grant_type: 'authorization_code', code: flow.code, code_verifier: flow.verifier, redirect_uri: REDIRECT_URI };
    const basic = (secret: string) => ({ authorization: `Basic ${Buffer.from(`${confidential.client_id}:${secret}`).toString('base64')}` });
    expect(await tokenRequest(app, { ...form, client_id: confidential.client_id })).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const wrong = await tokenRequest(app, form, basic('mcpcs_wrong'));
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await tokenRequest(app, form, basic(confidential.client_secret!))).status).toBe(200);
  });
});

describe('refresh tokens', () => {
  const refresh = (client: Registered, token: string) => tokenRequest(app, { grant_type: 'refresh_token', refresh_token: token, client_id: client.client_id });

  it('rotate: the old token works until the new one is first used; a replay after that revokes the grant', async () => {
    const flow = await authorizedCode(app, user);
    const r1 = (await exchange(app, flow)).body.refresh_token as string;
    const second = await refresh(flow.registered, r1);
    expect(second.status).toBe(200);
    const r2 = second.body.refresh_token as string;
    expect(r2).not.toBe(r1);
    // The client lost that answer and retries with r1: still fine, and r2 is void.
    const third = await refresh(flow.registered, r1);
    expect(third.status).toBe(200);
    const r3 = third.body.refresh_token as string;
    expect((await refresh(flow.registered, r2)).body.error).toBe('invalid_grant');
    // r3 in use: r1 is now a replay.
    const fourth = await refresh(flow.registered, r3);
    expect(fourth.status).toBe(200);
    expect(await resolver().resolve(fourth.body.access_token as string)).toBeDefined();
    const replay = await refresh(flow.registered, r1);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(replay.body.error_description).toMatch(/replay/);
    expect(await resolver().resolve(fourth.body.access_token as string)).toBeUndefined();
    expect((await refresh(flow.registered, fourth.body.refresh_token as string)).body.error).toBe('invalid_grant');
  });

  it('may narrow the scope but not widen it, and refuses another client’s token', async () => {
    const flow = await authorizedCode(app, user);
    const r1 = (await exchange(app, flow)).body.refresh_token as string;
    expect((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: r1, client_id: flow.registered.client_id, scope: 'mcp admin' })).body.error).toBe('invalid_scope');
    const other = await register(app);
    expect((await refresh(other, r1)).body.error).toBe('invalid_grant');
    expect((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: r1, client_id: flow.registered.client_id, scope: 'mcp' })).status).toBe(200);
  });

  it('stop working once the key of the grant is revoked', async () => {
    const spare = await newKey(user, 'spare key');
    const reg = await register(app);
    const { verifier, challenge } = pkcePair();
    const location = await decide(user, authorizeUrl(app, {
      response_type: 'code', client_id: reg.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256',
    }), 'approve', spare);
    const tokens = (await exchange(app, { registered: reg, code: location.searchParams.get('code')!, verifier })).body;
    expect((await resolver().resolve(tokens.access_token as string))?.keyId).toBe(spare);
    await app.db.sql`UPDATE api_key SET revoked_at = now() WHERE id = ${spare}`;
    expect(await resolver().resolve(tokens.access_token as string)).toBeUndefined();
    expect((await refresh(reg, tokens.refresh_token as string)).body.error).toBe('invalid_grant');
  });
});

describe('revocation (RFC 7009)', () => {
  const revoke = (client: Registered, token: string) =>
    fetch(`${app.baseUrl}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, client_id: client.client_id }) });

  it('revokes an access token alone, and a refresh token with its whole grant', async () => {
    const flow = await authorizedCode(app, user);
    const tokens = (await exchange(app, flow)).body;
    const res = await revoke(flow.registered, tokens.access_token as string);
    expect(res.status).toBe(200);
    expect(await resolver().resolve(tokens.access_token as string)).toBeUndefined();
    const refreshed = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: flow.registered.client_id });
    expect(refreshed.status).toBe(200);
    expect((await revoke(flow.registered, tokens.refresh_token as string)).status).toBe(200);
    expect(await resolver().resolve(refreshed.body.access_token as string)).toBeUndefined();
    expect((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token as string, client_id: flow.registered.client_id })).body.error).toBe('invalid_grant');
  });

  it('answers 200 for unknown tokens and ignores another client’s', async () => {
    const flow = await authorizedCode(app, user);
    const tokens = (await exchange(app, flow)).body;
    expect((await revoke(flow.registered, 'mcp_at_unknown')).status).toBe(200);
    const other = await register(app);
    expect((await revoke(other, tokens.access_token as string)).status).toBe(200);
    expect(await resolver().resolve(tokens.access_token as string)).toBeDefined();
  });

  it('needs a known client', async () => {
    const res = await revoke({ client_id: 'mcpc_nobody' }, 'x');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_client');
  });
});

describe('housekeeping', () => {
  it('deletes expired codes, tokens and sessions a day late, and clients that never got a grant, keeping the rest', async () => {
    const flow = await authorizedCode(app, user);
    const tokens = (await exchange(app, flow)).body;
    const idle = await register(app);
    const later = new Date(now + 2 * 24 * 3_600_000);
    // Two days on: the code (5 min) and access token (1 h) are a day past expiry; the refresh token (30 d) is not.
    const first = await purgeExpired(app.db.sql, later);
    expect(first.codes).toBeGreaterThan(0);
    expect(first.tokens).toBeGreaterThan(0);
    expect(await app.db.sql`SELECT 1 FROM oauth_code WHERE code_hash = ${hashSecret(flow.code)}`).toHaveLength(0);
    expect(await app.db.sql`SELECT 1 FROM oauth_token WHERE token_hash = ${hashSecret(tokens.access_token as string)}`).toHaveLength(0);
    expect(await app.db.sql`SELECT 1 FROM oauth_token WHERE token_hash = ${hashSecret(tokens.refresh_token as string)}`).toHaveLength(1);
    expect(await app.db.sql`SELECT 1 FROM oauth_client WHERE client_id = ${idle.client_id}`).toHaveLength(1);
    // Eight days on, the idle client goes; the one with a live grant stays.
    await purgeExpired(app.db.sql, new Date(now + 8 * 24 * 3_600_000));
    expect(await app.db.sql`SELECT 1 FROM oauth_client WHERE client_id = ${idle.client_id}`).toHaveLength(0);
    expect(await app.db.sql`SELECT 1 FROM oauth_client WHERE client_id = ${flow.registered.client_id}`).toHaveLength(1);
    const refreshed = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: flow.registered.client_id });
    expect(refreshed.status).toBe(200);
  });
});
