// The dashboard over HTTP with a cookie jar, as a browser uses it: sign-up, sign-in (a new session
// id each time), sign-out, password reset, the CSRF and cross-site refusals, keys (shown once, only
// the hash stored, rotation with a grace period, revocation ending the grants bound to the key),
// usage by day, key and channel, connections, and the cookies over HTTPS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../api/accounts/accountStore.js';
import { createRedisAdmission } from '../../api/metering/admission.js';
import { createUsageFlusher } from '../../api/metering/usageFlusher.js';
import { createBearerResolver } from '../../api/oauth/bearer.js';
import { createLogger } from '../../runtime/logger.js';
import { authorizedCode, exchange } from '../helpers/oauthFlow.js';
import { csrfOf, signUp, startWebTestApp, uniqueEmail, WebClient, type WebTestApp } from '../helpers/webClient.js';

let now = Date.UTC(2025, 2, 14, 12, 0, 0);
const clock = () => now;
let app: WebTestApp;

beforeAll(async () => {
  app = await startWebTestApp({ clock, web: { keyRotationGraceMinutes: 30 } });
});
afterAll(() => app.close());

const KEY = /atc_[A-Za-z0-9_-]{43}/g;
const sessionRows = async (token: string) => (await app.db.sql`SELECT 1 FROM session WHERE token_hash = ${hashSecret(token)}`).length;
const api = (path: string, key: string) => fetch(`${app.baseUrl}/api/v1${path}`, { headers: { 'x-api-key': key } });

async function createKey(client: WebClient, name: string): Promise<{ key: string; id: string; page: string }> {
  const res = await client.submit('/app/keys', { name });
  expect(res.status).toBe(201);
  const page = await res.text();
  const key = page.match(KEY)![0];
  const [row] = await app.db.sql<{ id: string }[]>`SELECT id FROM api_key WHERE key_hash = ${hashSecret(key)}`;
  return { key, id: row!.id, page };
}

describe('sign-up, sign-in, sign-out', () => {
  it('serves plain forms with labelled email and password fields, behind a CSP that forbids framing', async () => {
    for (const path of ['/app/signup', '/app/login']) {
      const res = await app.client().get(path);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toMatch(/<label for="email">[^<]+<\/label>\s*<input id="email" name="email" type="email"/);
      expect(html).toMatch(/<label for="password">[^<]+<\/label>\s*<input id="password" name="password" type="password"/);
      expect(html).not.toContain('<script');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers in German or English', async () => {
    const de = await (await app.client().get('/app/login', { 'accept-language': 'de-AT,de;q=0.9' })).text();
    expect(de).toContain('<html lang="de">');
    expect(de).toContain('E-Mail-Adresse');
    const client = app.client();
    const en = await (await client.get('/app/login?lang=en', { 'accept-language': 'de' })).text();
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('E-mail address');
    // The choice is remembered.
    expect(await (await client.get('/app/login', { 'accept-language': 'de' })).text()).toContain('<html lang="en">');
  });

  it('signs up with an argon2id hash, signs in with a new session id, and signs out', async () => {
    const client = app.client();
    const { email, password, res } = await signUp(client);
    expect(res.headers.get('location')).toBe('/app/keys');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('session='))!;
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
    expect(cookie).not.toMatch(/secure/i);
    const [account] = await app.db.sql<{ passwordHash: string; plan: string }[]>`SELECT password_hash, plan FROM account WHERE email = ${email}`;
    expect(account!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    expect(account!.passwordHash).not.toContain(password);
    expect(account!.plan).toBe('free');
    const first = client.jar.cookies.get('session')!;
    expect(await (await client.get('/app')).text()).toContain(email);

    // Signing in again from a page of the signed-in session (another tab, say).
    const again = await client.submit('/app', { email: email.toUpperCase(), password }, '/app/login');
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/app');
    const second = client.jar.cookies.get('session')!;
    expect(second).not.toBe(first);
    expect(await sessionRows(first)).toBe(0);
    expect(await sessionRows(second)).toBe(1);

    const out = await client.submit('/app', {}, '/app/logout');
    expect(out.status).toBe(303);
    expect(client.jar.cookies.has('session')).toBe(false);
    expect(await sessionRows(second)).toBe(0);
    const after = await client.get('/app/keys');
    expect(after.status).toBe(302);
    expect(after.headers.get('location')).toBe('/app/login?next=%2Fapp%2Fkeys');
  });

  it('refuses a wrong password and an unknown address with the same answer, and bad sign-ups with reasons', async () => {
    const { email } = await signUp(app.client());
    const wrong = await app.client().submit('/app/login', { email, password: 'not the password' });
    const unknown = await app.client().submit('/app/login', { email: uniqueEmail(), password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const text = (html: string) => /<div class="alert alert-error"[^>]*>(.*?)<\/div>/s.exec(html)![1];
    expect(text(await wrong.text())).toBe(text(await unknown.text()));
    expect((await app.client().submit('/app/signup', { email, password: 'long enough password' })).status).toBe(409);
    expect((await app.client().submit('/app/signup', { email: 'not-an-address', password: 'long enough password' })).status).toBe(400);
    const short = await app.client().submit('/app/signup', { email: uniqueEmail(), password: 'short' });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain('at least 10 characters');
  });

  it('resets a password through the mailed link, once', async () => {
    const { email } = await signUp(app.client());
    const client = app.client();
    const asked = await client.submit('/app/reset', { email });
    expect(asked.status).toBe(200);
    const unknown = await client.submit('/app/reset', { email: uniqueEmail() });
    expect(unknown.status).toBe(200);
    const mails = app.mailer.outbox.filter((m) => m.to === email);
    expect(mails).toHaveLength(1);
    const path = new URL(mails[0]!.link).pathname;
    const set = await client.submit(path, { password: 'a brand new password' });
    expect(set.status).toBe(303);
    expect(set.headers.get('location')).toBe('/app/login?done=reset');
    expect((await client.submit('/app/login', { email, password: 'a brand new password' })).status).toBe(303);
    expect((await app.client().submit('/app/login', { email, password: 'correct horse battery' })).status).toBe(401);
    expect((await client.get(path)).status).toBe(400);
  });
});

describe('CSRF and cross-site posts', () => {
  let client: WebClient;
  let csrf: string;
  const keyCount = async () => (await app.db.sql`SELECT count(*)::int AS n FROM api_key WHERE label = 'csrf probe'`)[0]!.n as number;
  beforeAll(async () => {
    client = app.client();
    await signUp(client);
    csrf = csrfOf(await (await client.get('/app/keys')).text());
  });

  it.each([
    ['without a token', {}, {}],
    ['with a wrong token', { _csrf: 'x'.repeat(43) }, {}],
    ['from a cross-site page', 'valid', { 'sec-fetch-site': 'cross-site' }],
    ['from a sibling site', 'valid', { 'sec-fetch-site': 'same-site' }],
    ['with a foreign Origin', 'valid', { origin: 'https://evil.example' }],
  ] as const)('refuses a post %s with 403 and changes nothing', async (_name, token, headers) => {
    const fields = token === 'valid' ? { _csrf: csrf } : token;
    const res = await client.post('/app/keys', { ...fields, name: 'csrf probe' }, headers);
    expect(res.status).toBe(403);
    expect(await keyCount()).toBe(0);
  });

  it('refuses the token of another browser, and a signed-out form’s token after sign-in', async () => {
    const other = app.client();
    await signUp(other);
    const theirs = csrfOf(await (await other.get('/app/keys')).text());
    expect((await client.post('/app/keys', { _csrf: theirs, name: 'csrf probe' })).status).toBe(403);
    expect((await client.post('/app/keys', { _csrf: csrf, name: 'csrf probe' })).status).toBe(201);
  });

  it('refuses a sign-in post without the browser’s token', async () => {
    const res = await app.client().post('/app/login', { email: 'a@b.at', password: 'whatever it is' });
    expect(res.status).toBe(403);
  });
});

describe('API keys', () => {
  let client: WebClient;
  beforeAll(async () => {
    client = app.client();
    await signUp(client);
  });

  it('shows a new key once and stores only its hash and a prefix', async () => {
    const { key, id, page } = await createKey(client, 'CRM sync');
    expect(page.match(KEY)).toHaveLength(2); // the key itself and the curl line under it
    const [row] = await app.db.sql`SELECT * FROM api_key WHERE id = ${id}`;
    expect(Object.values(row!).map(String).some((v) => v.includes(key))).toBe(false);
    expect(row!.keyPrefix).toBe(key.slice(0, 10));
    const list = await (await client.get('/app/keys')).text();
    expect(list).toContain('CRM sync');
    expect(list).toContain(`${key.slice(0, 10)}…`);
    expect(list).not.toContain(key);
    expect((await api('/legalforms', key)).status).toBe(200);
  });

  it('renames a key', async () => {
    const { id } = await createKey(client, 'old name');
    const res = await client.submit('/app/keys', { name: 'new name' }, `/app/keys/${id}/name`);
    expect(res.status).toBe(303);
    expect((await app.db.sql`SELECT label FROM api_key WHERE id = ${id}`)[0]!.label).toBe('new name');
  });

  it('rotates a key on the same id: the old secret works for the grace period, then not', async () => {
    const { key: old, id } = await createKey(client, 'rotating');
    const res = await client.submit('/app/keys', {}, `/app/keys/${id}/rotate`);
    expect(res.status).toBe(200);
    const fresh = (await res.text()).match(KEY)![0];
    expect(fresh).not.toBe(old);
    const [row] = await app.db.sql`SELECT id, key_hash, prev_key_hash FROM api_key WHERE key_hash = ${hashSecret(fresh)}`;
    expect(row!.id).toBe(id);
    expect((row!.prevKeyHash as Buffer).equals(hashSecret(old))).toBe(true);
    expect((await api('/legalforms', fresh)).status).toBe(200);
    expect((await api('/legalforms', old)).status).toBe(200);
    now += 29 * 60_000;
    expect((await api('/legalforms', old)).status).toBe(200);
    now += 2 * 60_000;
    expect((await api('/legalforms', old)).status).toBe(401);
    expect((await api('/legalforms', fresh)).status).toBe(200);
  });

  it('revokes a key after a confirmation, ending the OAuth grants bound to it', async () => {
    const { key, id } = await createKey(client, 'agent');
    const flow = await authorizedCode(app, client);
    const tokens = (await exchange(app, flow)).body;
    const resolver = createBearerResolver(app.db.sql, { clock, cacheMs: 0 });
    expect((await resolver.resolve(tokens.access_token as string))?.keyId).toBe(id);
    const confirm = await client.get(`/app/keys/${id}/revoke`);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('1 connected tool using it will be disconnected');
    const res = await client.submit(`/app/keys/${id}/revoke`, {});
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/app/keys?done=revoked');
    expect((await api('/legalforms', key)).status).toBe(401);
    expect(await resolver.resolve(tokens.access_token as string)).toBeUndefined();
    const [grant] = await app.db.sql`SELECT revoked_at FROM oauth_grant WHERE key_id = ${id}`;
    expect(grant!.revokedAt).toBeInstanceOf(Date);
    const live = await app.db.sql`SELECT 1 FROM oauth_token t JOIN oauth_grant g ON g.id = t.grant_id WHERE g.key_id = ${id} AND t.revoked_at IS NULL`;
    expect(live).toHaveLength(0);
  });

  it('leaves other accounts’ keys alone', async () => {
    const other = app.client();
    await signUp(other);
    const theirs = await createKey(other, 'theirs');
    expect((await client.submit('/app/keys', {}, `/app/keys/${theirs.id}/revoke`)).status).toBe(404);
    expect((await client.submit('/app/keys', {}, `/app/keys/${theirs.id}/rotate`)).status).toBe(404);
    expect((await client.get(`/app/keys/not-a-uuid/revoke`)).status).toBe(404);
    expect((await api('/legalforms', theirs.key)).status).toBe(200);
  });
});

describe('usage and connections', () => {
  it('shows this month against the quota, by day, key and channel, with the reset date', async () => {
    const client = app.client();
    await signUp(client);
    const { key, id } = await createKey(client, 'metered');
    for (let i = 0; i < 3; i++) expect((await api('/legalforms', key)).status).toBe(200);
    // A tool call through the MCP server is admitted the same way, with its channel.
    const [account] = await app.db.sql<{ accountId: string }[]>`SELECT account_id FROM api_key WHERE id = ${id}`;
    const admission = createRedisAdmission(app.access.redis, { prefix: app.access.prefix });
    await admission.admit({ keyId: id, subject: `account:${account!.accountId}`, monthlyQuota: 100, now, channel: 'mcp' });
    const flusher = createUsageFlusher({ redis: app.access.redis, sql: app.db.sql, prefix: app.access.prefix, clock, log: createLogger('silent') });
    // Before the flush the page reads the live counts; after it, Postgres.
    const before = await (await client.get('/app/usage')).text();
    await flusher.flushNow();
    const rows = await app.db.sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, channel, requests FROM usage_daily WHERE key_id = ${id} ORDER BY channel`;
    const day = new Date(now).toISOString().slice(0, 10);
    expect(rows).toEqual([{ day, channel: 'mcp', requests: 1 }, { day, channel: 'rest', requests: 3 }]);
    const after = await (await client.get('/app/usage')).text();
    for (const html of [before, after]) {
      expect(html).toContain('4 of 100');
      expect(html).toContain('96 left');
      expect(html).toContain('Resets on 1 Apr 2025');
      expect(html).toMatch(/<td>14 Mar 2025<\/td><td class="num">3<\/td><td class="num">1<\/td><td class="num">4<\/td>/);
      expect(html).toMatch(/metered <code>[^<]+<\/code><\/td><td class="num">3<\/td><td class="num">1<\/td>/);
      expect(html.match(/class="bar-rest"/g)).toHaveLength(1);
      expect(html.match(/class="bar-mcp"/g)).toHaveLength(1);
    }
    const overview = await (await client.get('/app')).text();
    expect(overview).toContain('Free');
    expect(overview).toContain('4 of 100');
  });

  it('lists connections with client, redirect host and key, and disconnects them', async () => {
    const client = app.client();
    await signUp(client);
    await createKey(client, 'for agents');
    const flow = await authorizedCode(app, client);
    const tokens = (await exchange(app, flow)).body;
    const page = await (await client.get('/app/connections')).text();
    expect(page).toContain('Test Agent');
    expect(page).toContain('127.0.0.1:4567');
    expect(page).toContain('for agents');
    const grantId = /action="\/app\/connections\/([0-9a-f-]+)\/revoke"/.exec(page)![1]!;
    const res = await client.post(`/app/connections/${grantId}/revoke`, { _csrf: csrfOf(page) });
    expect(res.status).toBe(303);
    expect(await createBearerResolver(app.db.sql, { clock, cacheMs: 0 }).resolve(tokens.access_token as string)).toBeUndefined();
    expect(await (await client.get('/app/connections')).text()).not.toContain('Test Agent');
  });
});

describe('over HTTPS behind a proxy', () => {
  it('sets Secure __Host- cookies, and the API accepts that session for account-bound routes', async () => {
    const client = new WebClient(app.baseUrl);
    const https = { 'x-forwarded-proto': 'https' };
    const form = await client.get('/app/signup', https);
    expect(form.headers.getSetCookie().some((c) => c.startsWith('__Host-csrf=') && /secure/i.test(c) && /path=\//i.test(c))).toBe(true);
    const csrf = csrfOf(await form.text());
    const res = await client.post('/app/signup', { _csrf: csrf, email: uniqueEmail(), password: 'long enough password' }, { ...https, origin: app.baseUrl.replace('http:', 'https:') });
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('__Host-session='))!;
    expect(cookie).toMatch(/secure/i);
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
    expect(cookie).not.toMatch(/domain=/i);
    // A service key (no account) reaches account-bound routes with the session cookie.
    const [service] = await app.db.sql<{ id: string }[]>`INSERT INTO api_key (key_hash, key_prefix, plan) VALUES (${hashSecret('atc_service-key-for-this-test')}, 'atc_servic', 'pro') RETURNING id`;
    expect(service).toBeDefined();
    const queries = await fetch(`${app.baseUrl}/api/v1/queries`, { headers: { 'x-api-key': 'atc_service-key-for-this-test', cookie: `__Host-session=${client.jar.cookies.get('__Host-session')}` } });
    expect(queries.status).toBe(200);
  });
});

describe('rate limits', () => {
  it('limits sign-in attempts per client address with 429 and Retry-After', async () => {
    const limited = await startWebTestApp({ clock, web: { limits: { signIn: { max: 3, windowSeconds: 900 } } } });
    try {
      const { email, password } = await signUp(limited.client());
      const client = limited.client();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await client.submit('/app/login', { email, password: 'wrong password!' })).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      const blocked = await client.submit('/app/login', { email, password });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
    } finally {
      await limited.close();
    }
  });
});
