// API keys: list, create (the key is shown once, in the answer to the POST, never stored in clear),
// rename, rotate (a new secret on the same key id, the old one valid for a grace period) and revoke
// (after a confirmation page that says which connections end with it).
import type Router from '@koa/router';
import type { Context } from 'koa';
import { accountKeys, createAccountKey, MAX_KEY_NAME, renameAccountKey, revokeAccountKey, rotateAccountKey, type DashboardKey } from '../../accounts/selfService.js';
import { grantsOfKey } from '../../oauth/grants.js';
import { formOf, render, requireAccount, seeOther, viewOf, WebError } from '../context.js';
import { field, hasControlCharacters, isUuid } from '../forms.js';
import { html, type Html } from '../html.js';
import { formatDate } from '../i18n.js';
import { alert, csrfField, type View } from '../layout.js';
import type { WebDeps } from '../webDeps.js';

function keyName(view: View, key: Pick<DashboardKey, 'label'>): string {
  return key.label ?? view.t.unnamed;
}

function keyStatus(view: View, key: DashboardKey, now: Date): Html {
  const t = view.t;
  if (key.revokedAt) return html`<span class="badge badge-off">${t.revoked}</span>`;
  const grace = key.prevValidUntil && key.prevValidUntil > now
    ? html`<br><span class="badge badge-warn">${t.oldSecretUntil(formatDate(view.lang, key.prevValidUntil, true))}</span>` : '';
  return html`<span class="badge badge-ok">${t.active}</span>${grace}`;
}

function keyActions(view: View, key: DashboardKey): Html {
  const t = view.t;
  if (key.revokedAt) return html``;
  return html`
    <div class="actions">
      <form method="post" action="/app/keys/${key.id}/rotate">${csrfField(view)}<button type="submit" class="secondary small">${t.rotate}</button></form>
      <a class="button secondary small" href="/app/keys/${key.id}/revoke">${t.revoke}</a>
    </div>
    <details class="rename"><summary>${t.rename}</summary>
      <form method="post" action="/app/keys/${key.id}/name" class="inline-form">${csrfField(view)}
        <div class="field"><label class="visually-hidden" for="name-${key.id}">${t.keyName}</label>
        <input id="name-${key.id}" name="name" type="text" maxlength="${MAX_KEY_NAME}" value="${key.label ?? ''}" required></div>
        <button type="submit" class="small">${t.save}</button>
      </form>
    </details>`;
}

function keyTable(view: View, keys: DashboardKey[], now: Date): Html {
  const t = view.t;
  if (keys.length === 0) return html`<p class="muted">${t.noKeys}</p>`;
  return html`
    <table>
      <caption class="visually-hidden">${t.keysTitle}</caption>
      <thead><tr><th scope="col">${t.keyName}</th><th scope="col">${t.key}</th><th scope="col" class="hide-narrow">${t.created}</th>
        <th scope="col" class="hide-narrow">${t.lastUsed}</th><th scope="col">${t.status}</th><th scope="col">${t.actions}</th></tr></thead>
      <tbody>
      ${keys.map((key) => html`
        <tr${key.revokedAt ? html` class="revoked"` : ''}>
          <td>${keyName(view, key)}</td>
          <td><code>${key.keyPrefix}…</code></td>
          <td class="hide-narrow">${formatDate(view.lang, key.createdAt)}</td>
          <td class="hide-narrow">${key.lastUsedAt ? formatDate(view.lang, key.lastUsedAt, true) : t.never}</td>
          <td>${keyStatus(view, key, now)}</td>
          <td>${keyActions(view, key)}</td>
        </tr>`)}
      </tbody>
    </table>`;
}

function createForm(view: View, error?: string): Html {
  const t = view.t;
  return html`
    <form method="post" action="/app/keys" class="inline-form">${csrfField(view)}
      <div class="field">
        <label for="key-name">${t.keyName}</label>
        <input id="key-name" name="name" type="text" maxlength="${MAX_KEY_NAME}" placeholder="${t.keyNamePlaceholder}"${error ? html` aria-invalid="true" aria-describedby="key-name-error"` : ''}>
        ${error ? html`<p class="hint" id="key-name-error">${error}</p>` : ''}
      </div>
      <button type="submit">${t.createKey}</button>
    </form>`;
}

/** The one page that shows a key in clear: not cached, not redirected to. */
function secretPage(ctx: Context, origin: string, title: string, notice: string, key: string, status = 201): void {
  const view = viewOf(ctx);
  ctx.set('Cache-Control', 'no-store');
  render(ctx, {
    title, section: 'keys', width: 'medium',
    body: html`<h1>${title}</h1>${alert('warn', notice)}
      <div class="card"><label for="new-key">${view.t.key}</label><output id="new-key" class="secret">${key}</output>
      <p class="hint">${view.t.quickStartText}</p><pre><code>curl -H 'x-api-key: ${key}' '${origin}/api/v1/businesses?orderBy=guv.Umsatzerloese&orderByDescending=true'</code></pre></div>
      <p><a class="button" href="/app/keys">${view.t.backToKeys}</a></p>`,
  }, status);
}

function keyNameProblem(name: string): boolean {
  return name.length > MAX_KEY_NAME || hasControlCharacters(name);
}

async function showKeys(ctx: Context, deps: WebDeps, accountId: string, status = 200, error?: string): Promise<void> {
  const view = viewOf(ctx);
  const t = view.t;
  const keys = await accountKeys(deps.sql, accountId);
  const done = ctx.query.done === 'revoked' ? alert('ok', t.keyRevoked) : ctx.query.done === 'renamed' ? alert('ok', t.keyRenamed) : '';
  render(ctx, {
    title: t.keysTitle, section: 'keys',
    body: html`<h1>${t.keysTitle}</h1><p class="lead">${t.keysLead}</p>${done}
      <div class="card"><h2>${t.createKey}</h2>${createForm(view, error)}</div>
      <div class="card">${keyTable(view, keys, new Date(deps.clock()))}</div>`,
  }, status);
}

function keyParam(ctx: Context): string {
  const id = ctx.params.id ?? '';
  if (!isUuid(id)) throw new WebError(404, viewOf(ctx).t.notFoundTitle, viewOf(ctx).t.notFoundText);
  return id;
}

export function keyRoutes(router: Router, deps: WebDeps): void {
  router.get('/app/keys', async (ctx) => {
    const signedIn = requireAccount(ctx);
    if (signedIn) await showKeys(ctx, deps, signedIn.account.id);
  });

  router.post('/app/keys', async (ctx) => {
    const signedIn = requireAccount(ctx);
    if (!signedIn) return;
    const t = viewOf(ctx).t;
    const name = field(formOf(ctx), 'name');
    if (keyNameProblem(name)) return showKeys(ctx, deps, signedIn.account.id, 400, `${t.keyName}: 1–${MAX_KEY_NAME}`);
    const issued = await createAccountKey(deps.sql, signedIn.account.id, name || `${t.key} ${formatDate(viewOf(ctx).lang, new Date(deps.clock()))}`);
    deps.log.info({ accountId: signedIn.account.id, keyId: issued.id }, 'API key created on the dashboard');
    secretPage(ctx, deps.origin(ctx), t.newKeyTitle, t.newKeyOnce, issued.key);
  });

  router.post('/app/keys/:id/name', async (ctx) => {
    const signedIn = requireAccount(ctx);
    if (!signedIn) return;
    const name = field(formOf(ctx), 'name');
    if (name === '' || keyNameProblem(name)) return showKeys(ctx, deps, signedIn.account.id, 400, `${viewOf(ctx).t.keyName}: 1–${MAX_KEY_NAME}`);
    if (!(await renameAccountKey(deps.sql, signedIn.account.id, keyParam(ctx), name))) throw new WebError(404, viewOf(ctx).t.notFoundTitle, viewOf(ctx).t.notFoundText);
    seeOther(ctx, '/app/keys?done=renamed');
  });

  router.post('/app/keys/:id/rotate', async (ctx) => {
    const signedIn = requireAccount(ctx);
    if (!signedIn) return;
    const view = viewOf(ctx);
    const graceUntil = new Date(deps.clock() + deps.keyGraceMs);
    const issued = await rotateAccountKey(deps.sql, signedIn.account.id, keyParam(ctx), graceUntil);
    if (!issued) throw new WebError(404, view.t.notFoundTitle, view.t.notFoundText);
    deps.log.info({ accountId: signedIn.account.id, keyId: issued.id }, 'API key rotated on the dashboard');
    secretPage(ctx, deps.origin(ctx), view.t.rotatedKeyTitle, view.t.rotatedKeyOnce(formatDate(view.lang, graceUntil, true)), issued.key, 200);
  });

  router.get('/app/keys/:id/revoke', async (ctx) => {
    const signedIn = requireAccount(ctx);
    if (!signedIn) return;
    const view = viewOf(ctx);
    const id = keyParam(ctx);
    const key = (await accountKeys(deps.sql, signedIn.account.id)).find((k) => k.id === id && !k.revokedAt);
    if (!key) throw new WebError(404, view.t.notFoundTitle, view.t.notFoundText);
    const connections = await grantsOfKey(deps.sql, signedIn.account.id, id);
    const title = view.t.revokeKeyTitle(keyName(view, key));
    render(ctx, {
      title, section: 'keys', width: 'medium',
      body: html`<h1>${title}</h1><div class="card"><p><code>${key.keyPrefix}…</code></p><p>${view.t.revokeKeyText(connections)}</p>
        <form method="post" action="/app/keys/${id}/revoke" class="button-row">${csrfField(view)}
          <a class="button secondary" href="/app/keys">${view.t.cancel}</a><button type="submit" class="danger">${view.t.revoke}</button>
        </form></div>`,
    });
  });

  router.post('/app/keys/:id/revoke', async (ctx) => {
    const signedIn = requireAccount(ctx);
    if (!signedIn) return;
    const id = keyParam(ctx);
    if (!(await revokeAccountKey(deps.sql, signedIn.account.id, id))) throw new WebError(404, viewOf(ctx).t.notFoundTitle, viewOf(ctx).t.notFoundText);
    deps.revoked();
    deps.log.info({ accountId: signedIn.account.id, keyId: id }, 'API key revoked on the dashboard');
    seeOther(ctx, '/app/keys?done=revoked');
  });
}
