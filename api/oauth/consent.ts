// GET /oauth/authorize checks the request and, for a signed-in account, shows the consent page: the
// client's self-declared name, the host it returns to (with a warning for loopback), what it may do,
// and a picker of the account's active keys (or a new one) whose quota its calls use. POST
// /oauth/authorize (CSRF-checked by the page chain) checks everything again and answers the client
// with a code, or with access_denied, always carrying `state` and `iss`.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { accountKeys, createAccountKey, type DashboardKey } from '../accounts/selfService.js';
import { formOf, render, stateOf, viewOf } from '../web/context.js';
import { isUuid } from '../web/forms.js';
import { html } from '../web/html.js';
import { alert, csrfField, type View } from '../web/layout.js';
import { redirectHost } from '../web/pages/connections.js';
import type { WebDeps } from '../web/webDeps.js';
import { checkAuthorizeRequest, responseLocation, type AuthorizeRequest, type RawParams } from './authorizeRequest.js';
import type { OAuthClient } from './clients.js';
import { createGrantWithCode } from './grants.js';
import { isLoopback } from './redirectUris.js';

export const AUTHORIZE_PATH = '/oauth/authorize';

const CARRIED = ['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method', 'state', 'scope', 'resource'] as const;

function errorPage(ctx: Context, message: string): void {
  const t = viewOf(ctx).t;
  render(ctx, { title: t.oauthErrorTitle, width: 'medium', body: html`<h1>${t.oauthErrorTitle}</h1><p>${t.oauthErrorText}</p>${alert('error', message)}` }, 400);
}

function clientLabel(client: OAuthClient): string {
  return client.clientName?.trim() || client.clientId;
}

function keyOption(view: View, key: DashboardKey, checked: boolean) {
  return html`<label class="choice"><input type="radio" name="key" value="${key.id}"${checked ? html` checked` : ''}> ${key.label ?? view.t.unnamed} <code>${key.keyPrefix}…</code></label>`;
}

function consentPage(ctx: Context, client: OAuthClient, request: AuthorizeRequest, keys: DashboardKey[], params: Record<string, string>): void {
  const view = viewOf(ctx);
  const t = view.t;
  const name = clientLabel(client);
  const target = new URL(request.redirectUri);
  const active = keys.filter((k) => !k.revokedAt);
  render(ctx, {
    title: t.consentTitle(name), width: 'medium',
    body: html`
      <div class="card">
        <div class="consent-client"><div class="consent-avatar" aria-hidden="true">${[...name][0]!.toUpperCase()}</div>
          <div><h1>${t.consentTitle(name)}</h1><p class="small muted">${t.selfDeclared}</p></div></div>
        <p>${t.consentLead}</p>
        <p>${t.consentRedirect} <span class="host">${redirectHost(request.redirectUri)}</span></p>
        ${isLoopback(target) ? alert('warn', t.consentLoopback) : ''}
        <p>${t.consentScope}</p>
        <form method="post" action="${AUTHORIZE_PATH}" class="stack">
          ${csrfField(view)}
          ${Object.entries(params).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
          <fieldset><legend>${t.consentKey}</legend>
            ${active.map((key, i) => keyOption(view, key, i === 0))}
            <label class="choice"><input type="radio" name="key" value="new"${active.length === 0 ? html` checked` : ''}> ${t.consentNewKey(name)}</label>
          </fieldset>
          <p class="small muted">${t.consentQuota}</p>
          <div class="button-row">
            <button type="submit" name="decision" value="deny" class="secondary">${t.deny}</button>
            <button type="submit" name="decision" value="approve">${t.approve}</button>
          </div>
        </form>
      </div>`,
  });
}

function carried(source: RawParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of CARRIED) {
    const value = source[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

export function consentRoutes(router: Router, deps: WebDeps): void {
  const check = (ctx: Context, params: RawParams) => checkAuthorizeRequest(deps.sql, params, { issuer: deps.origin(ctx), mcpUrl: deps.mcpUrl });

  router.get(AUTHORIZE_PATH, async (ctx) => {
    const params = ctx.query as RawParams;
    const result = await check(ctx, params);
    if (result.kind === 'page') return errorPage(ctx, result.message);
    if (result.kind === 'redirect') return ctx.redirect(result.location);
    const signedIn = stateOf(ctx).signedIn;
    if (!signedIn) return ctx.redirect(`/app/login?next=${encodeURIComponent(`${AUTHORIZE_PATH}?${ctx.querystring}`)}`);
    consentPage(ctx, result.client, result.request, await accountKeys(deps.sql, signedIn.account.id), carried(params));
  });

  router.post(AUTHORIZE_PATH, async (ctx) => {
    const form = formOf(ctx);
    const result = await check(ctx, form);
    if (result.kind === 'page') return errorPage(ctx, result.message);
    ctx.status = 303;
    if (result.kind === 'redirect') return ctx.redirect(result.location);
    const signedIn = stateOf(ctx).signedIn;
    if (!signedIn) return ctx.redirect(`/app/login?next=${encodeURIComponent(`${AUTHORIZE_PATH}?${new URLSearchParams(carried(form))}`)}`);
    const { client, request } = result;
    const issuer = deps.origin(ctx);
    if (form.decision !== 'approve') {
      return ctx.redirect(responseLocation(request.redirectUri, { error: 'access_denied', error_description: 'The user denied the request.', state: request.state, iss: issuer }));
    }
    const accountId = signedIn.account.id;
    const keyId = form.key === 'new' ? (await createAccountKey(deps.sql, accountId, `MCP – ${clientLabel(client)}`.slice(0, 60))).id : (form.key ?? '');
    const grant = isUuid(keyId)
      ? await createGrantWithCode(deps.sql, {
          accountId, clientId: client.clientId, keyId, scopes: request.scopes, resource: request.resource,
          redirectUri: request.redirectUri, codeChallenge: request.codeChallenge, codeExpiresAt: new Date(deps.clock() + deps.codeSeconds * 1000),
        })
      : undefined;
    if (!grant) {
      // The chosen key was revoked meanwhile (or is not this account's): ask again.
      ctx.status = 200;
      return consentPage(ctx, client, request, await accountKeys(deps.sql, accountId), carried(form));
    }
    deps.log.info({ accountId, clientId: client.clientId, grantId: grant.grantId, keyId }, 'OAuth grant approved');
    ctx.redirect(responseLocation(request.redirectUri, { code: grant.code, state: request.state, iss: issuer }));
  });
}
