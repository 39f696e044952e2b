// Connections: the account's OAuth grants (tool name as the tool declared it, where it returns to,
// the key its calls are billed through, created, last used), each with a button that ends it.
import type Router from '@koa/router';
import { accountConnections, revokeAccountGrant } from '../../oauth/grants.js';
import { render, requireAccount, seeOther, viewOf, WebError } from '../context.js';
import { isUuid } from '../forms.js';
import { html } from '../html.js';
import { formatDate } from '../i18n.js';
import { alert, csrfField } from '../layout.js';
import type { WebDeps } from '../webDeps.js';

export function redirectHost(uri: string): string {
  try {
    const url = new URL(uri);
    return url.host || `${url.protocol}//`;
  } catch {
    return uri;
  }
}

export function connectionRoutes(router: Router, deps: WebDeps): void {
  router.get('/app/connections', async (ctx) => {
    const signedIn = requireAccount(ctx);
    if (!signedIn) return;
    const view = viewOf(ctx);
    const t = view.t;
    const connections = await accountConnections(deps.sql, signedIn.account.id);
    const table = connections.length === 0 ? html`<p class="muted">${t.noConnections}</p>` : html`
      <table>
        <caption class="visually-hidden">${t.connectionsTitle}</caption>
        <thead><tr><th scope="col">${t.client}</th><th scope="col">${t.redirectHost}</th><th scope="col">${t.keyUsed}</th>
          <th scope="col" class="hide-narrow">${t.created}</th><th scope="col" class="hide-narrow">${t.lastUsed}</th><th scope="col">${t.actions}</th></tr></thead>
        <tbody>${connections.map((c) => html`
          <tr>
            <td>${c.clientName ?? c.clientId}<br><span class="small muted">${t.selfDeclared}</span></td>
            <td><span class="host">${redirectHost(c.redirectUri)}</span></td>
            <td>${c.keyLabel ?? t.unnamed} <code>${c.keyPrefix}…</code></td>
            <td class="hide-narrow">${formatDate(view.lang, c.createdAt)}</td>
            <td class="hide-narrow">${c.lastUsedAt ? formatDate(view.lang, c.lastUsedAt, true) : t.never}</td>
            <td><form method="post" action="/app/connections/${c.id}/revoke">${csrfField(view)}<button type="submit" class="danger small">${t.disconnect}</button></form></td>
          </tr>`)}</tbody>
      </table>`;
    render(ctx, {
      title: t.connectionsTitle, section: 'connections',
      body: html`<h1>${t.connectionsTitle}</h1><p class="lead">${t.connectionsLead}</p>
        ${ctx.query.done === 'revoked' ? alert('ok', t.connectionRevoked) : ''}<div class="card">${table}</div>`,
    });
  });

  router.post('/app/connections/:id/revoke', async (ctx) => {
    const signedIn = requireAccount(ctx);
    if (!signedIn) return;
    const t = viewOf(ctx).t;
    const id = ctx.params.id ?? '';
    if (!isUuid(id) || !(await revokeAccountGrant(deps.sql, signedIn.account.id, id))) throw new WebError(404, t.notFoundTitle, t.notFoundText);
    deps.revoked();
    deps.log.info({ accountId: signedIn.account.id, grantId: id }, 'OAuth connection revoked on the dashboard');
    seeOther(ctx, '/app/connections?done=revoked');
  });
}
