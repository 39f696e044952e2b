// A real browser (Debian's chromium driven by playwright-core) through the dashboard: sign up, create
// a key and see it once, revoke it, and approve an AI tool's consent screen. Screenshots of each page
// go to test/artifacts/ for people to look at. Runs only where chromium is installed (.ci/run
// installs it); the same flows are covered over HTTP in dashboard.test.ts and oauthServer.test.ts.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeUrl, pkcePair, register, REDIRECT_URI, tokenRequest } from '../helpers/oauthFlow.js';
import { startWebTestApp, uniqueEmail, type WebTestApp } from '../helpers/webClient.js';

const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((path) => existsSync(path));
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

describe.skipIf(!CHROMIUM)('the dashboard in a browser', () => {
  let app: WebTestApp;
  let browser: Browser;
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    app = await startWebTestApp();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage({ viewport: { width: 1200, height: 800 }, locale: 'en-GB' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('signs up, creates a key that is shown once, and revokes it', async () => {
    await page.goto(`${app.baseUrl}/app/signup`);
    await shot('01-signup');
    await page.getByLabel('E-mail address').fill(uniqueEmail());
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/app/keys');
    await shot('02-keys-empty');

    await page.getByLabel('Name', { exact: true }).fill('CRM sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^atc_[A-Za-z0-9_-]{43}$/);
    await expect(page.getByText('It is shown only once').isVisible()).resolves.toBe(true);
    await shot('03-key-shown-once');
    expect((await fetch(`${app.baseUrl}/api/v1/legalforms`, { headers: { 'x-api-key': key } })).status).toBe(200);

    await page.getByRole('link', { name: 'Back to API keys' }).click();
    expect(await page.content()).not.toContain(key);
    await expect(page.getByRole('cell', { name: 'CRM sync' }).isVisible()).resolves.toBe(true);
    await shot('04-keys-list');

    await page.getByRole('link', { name: 'Revoke' }).click();
    await shot('05-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL('**/app/keys?done=revoked');
    await expect(page.getByText('The key is revoked.').isVisible()).resolves.toBe(true);
    await shot('06-key-revoked');
    expect((await fetch(`${app.baseUrl}/api/v1/legalforms`, { headers: { 'x-api-key': key } })).status).toBe(401);
  }, 60_000);

  it('approves an AI tool on the consent screen with a chosen key', async () => {
    await page.goto(`${app.baseUrl}/app/keys`);
    await page.getByLabel('Name', { exact: true }).fill('Agents');
    await page.getByRole('button', { name: 'Create key' }).click();
    const client = await register(app, { client_name: 'Claude Desktop' });
    const { verifier, challenge } = pkcePair();
    // The tool's loopback listener: answer the redirect so the browser can land on it.
    await page.route(`${REDIRECT_URI}**`, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'connected' }));
    await page.goto(app.baseUrl + authorizeUrl(app, {
      response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', state: 'browser', resource: app.mcpUrl,
    }));
    await expect(page.getByRole('heading', { name: 'Connect “Claude Desktop” to your account?' }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('127.0.0.1:4567').isVisible()).resolves.toBe(true);
    await page.getByLabel(/Agents/).check();
    await shot('07-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${REDIRECT_URI}**`);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe('browser');
    expect(landed.searchParams.get('iss')).toBe(app.baseUrl);
    const tokens = await tokenRequest(app, {
      grant_type: 'authorization_code', code: landed.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT_URI, client_id: client.client_id, resource: app.mcpUrl,
    });
    expect(tokens.status).toBe(200);

    await page.goto(`${app.baseUrl}/app/connections`);
    await expect(page.getByRole('cell', { name: /Claude Desktop/ }).isVisible()).resolves.toBe(true);
    await shot('08-connections');
    await page.goto(`${app.baseUrl}/app`);
    await shot('09-overview');
    await page.goto(`${app.baseUrl}/app/usage?lang=de`);
    await expect(page.getByRole('heading', { name: 'Nutzung', exact: true }).isVisible()).resolves.toBe(true);
    await shot('10-usage-de');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.baseUrl}/app/keys?lang=en`);
    await shot('11-keys-phone');
  }, 60_000);
});
