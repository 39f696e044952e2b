// The Overview (/app: plan, this month against the quota, reset date, keys and connections at a
// glance) and Usage (/app/usage: per day as a chart and a table, per key, per channel) pages.
import type Router from '@koa/router';
import { accountKeys } from '../../accounts/selfService.js';
import { accountConnections } from '../../oauth/grants.js';
import { render, requireAccount, viewOf } from '../context.js';
import { dailyChart } from '../chart.js';
import { html, type Html } from '../html.js';
import { formatDate, formatNumber } from '../i18n.js';
import type { View } from '../layout.js';
import { monthUsage, type MonthUsage } from '../usageData.js';
import type { WebDeps } from '../webDeps.js';

function monthName(view: View, month: string): string {
  return new Intl.DateTimeFormat(view.lang === 'de' ? 'de-AT' : 'en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
}

function quotaCard(view: View, usage: MonthUsage): Html {
  const t = view.t;
  const n = (v: number) => formatNumber(view.lang, v);
  const quota = usage.monthlyQuota;
  return html`
    <div class="card">
      <p class="stat-label" id="quota-label">${t.thisMonth} · ${monthName(view, usage.month)}</p>
      <p class="stat">${quota === null ? n(usage.used) : t.ofQuota(n(usage.used), n(quota))}</p>
      ${quota === null
        ? html`<p class="muted">${t.plan} ${t.planName(usage.plan)}: ${t.unlimited}</p>`
        : html`<meter min="0" max="${quota}" low="${Math.round(quota * 0.8)}" high="${Math.round(quota * 0.95)}" optimum="0" value="${Math.min(usage.used, quota)}" aria-labelledby="quota-label">${n(usage.used)}</meter>
          <p class="muted">${t.remaining(n(usage.remaining ?? 0))}</p>`}
      <p class="small muted">${t.resetsOn(formatDate(view.lang, usage.resetsAt))}</p>
    </div>`;
}

function chartCard(view: View, usage: MonthUsage): Html {
  const t = view.t;
  const n = (v: number) => formatNumber(view.lang, v);
  const used = usage.days.filter((d) => d.rest + d.mcp > 0);
  return html`
    <div class="card">
      <h2>${t.byDay}</h2>
      <ul class="legend"><li><span class="swatch swatch-rest" aria-hidden="true"></span>${t.channelRest}</li><li><span class="swatch swatch-mcp" aria-hidden="true"></span>${t.channelMcp}</li></ul>
      ${dailyChart(usage.days, { title: `${t.byDay} · ${monthName(view, usage.month)}`, description: t.chartLabel(monthName(view, usage.month)), format: n })}
      ${used.length === 0 ? html`<p class="muted">${t.noUsage}</p>` : html`
      <table>
        <caption class="visually-hidden">${t.byDay}</caption>
        <thead><tr><th scope="col">${t.day}</th><th scope="col" class="num">${t.channelRest}</th><th scope="col" class="num">${t.channelMcp}</th><th scope="col" class="num">${t.total}</th></tr></thead>
        <tbody>${used.map((d) => html`<tr><td>${formatDate(view.lang, new Date(`${d.day}T00:00:00Z`))}</td><td class="num">${n(d.rest)}</td><td class="num">${n(d.mcp)}</td><td class="num">${n(d.rest + d.mcp)}</td></tr>`)}</tbody>
      </table>`}
    </div>`;
}

function breakdownCards(view: View, usage: MonthUsage): Html {
  const t = view.t;
  const n = (v: number) => formatNumber(view.lang, v);
  return html`
    <div class="grid">
      <div class="card">
        <h2>${t.byKey}</h2>
        <table>
          <thead><tr><th scope="col">${t.key}</th><th scope="col" class="num">${t.channelRest}</th><th scope="col" class="num">${t.channelMcp}</th></tr></thead>
          <tbody>${usage.byKey.map((k) => html`<tr${k.revoked ? html` class="revoked"` : ''}><td>${k.label ?? t.unnamed} <code>${k.keyPrefix}…</code></td><td class="num">${n(k.rest)}</td><td class="num">${n(k.mcp)}</td></tr>`)}</tbody>
        </table>
      </div>
      <div class="card">
        <h2>${t.byChannel}</h2>
        <table>
          <thead><tr><th scope="col">${t.channel}</th><th scope="col" class="num">${t.requests}</th></tr></thead>
          <tbody><tr><td>${t.channelRest}</td><td class="num">${n(usage.byChannel.rest)}</td></tr><tr><td>${t.channelMcp}</td><td class="num">${n(usage.byChannel.mcp)}</td></tr></tbody>
        </table>
      </div>
    </div>`;
}

export function usageRoutes(router: Router, deps: WebDeps, redisPrefix: string): void {
  const usageOf = (accountId: string) => monthUsage(deps.sql, deps.redis, redisPrefix, accountId, deps.clock());

  router.get('/app', async (ctx) => {
    const signedIn = requireAccount(ctx);
    if (!signedIn) return;
    const view = viewOf(ctx);
    const t = view.t;
    const [usage, keys, connections] = await Promise.all([
      usageOf(signedIn.account.id), accountKeys(deps.sql, signedIn.account.id), accountConnections(deps.sql, signedIn.account.id),
    ]);
    const active = keys.filter((k) => !k.revokedAt).length;
    render(ctx, {
      title: t.overviewTitle, section: 'overview',
      body: html`<h1>${t.overviewTitle}</h1>
        <div class="grid">
          ${quotaCard(view, usage!)}
          <div class="card"><p class="stat-label">${t.plan}</p><p class="stat">${t.planName(usage!.plan)}</p>
            <p class="stat-label">${t.activeKeys}</p><p class="stat">${active}</p><p><a href="/app/keys">${t.manage}</a></p></div>
          <div class="card"><p class="stat-label">${t.activeConnections}</p><p class="stat">${connections.length}</p><p><a href="/app/connections">${t.manage}</a></p></div>
        </div>
        ${chartCard(view, usage!)}
        <div class="card"><h2>${t.quickStart}</h2><p>${t.quickStartText}</p>
          <pre><code>curl -H 'x-api-key: &lt;API_KEY&gt;' '${deps.origin(ctx)}/api/v1/businesses?orderBy=guv.Umsatzerloese&amp;orderByDescending=true'</code></pre></div>`,
    });
  });

  router.get('/app/usage', async (ctx) => {
    const signedIn = requireAccount(ctx);
    if (!signedIn) return;
    const view = viewOf(ctx);
    const usage = (await usageOf(signedIn.account.id))!;
    render(ctx, {
      title: view.t.usageTitle, section: 'usage',
      body: html`<h1>${view.t.usageTitle}</h1><p class="lead">${view.t.usageLead}</p>
        <div class="grid">${quotaCard(view, usage)}</div>${chartCard(view, usage)}${breakdownCards(view, usage)}`,
    });
  });
}
