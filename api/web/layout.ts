// The page shell every dashboard page shares: top bar with navigation (when signed in), a language
// switch that is a plain link, the main landmark, and the footer.
import { html, type Html } from './html.js';
import type { Labels, Lang } from './i18n.js';

export const ASSET_PATH = '/app/assets/app.css';

/** What a page needs to know about the request it answers. */
export interface View {
  lang: Lang;
  t: Labels;
  /** The path of this page, for the language switch and aria-current. */
  path: string;
  /** This request's CSRF token for every form. */
  csrf: string;
  account?: { id: string; email: string; plan: string };
}

export type Section = 'overview' | 'keys' | 'usage' | 'connections';

export interface PageOptions {
  title: string;
  body: Html;
  section?: Section;
  /** narrow: sign-in forms; medium: consent and confirmations; default: the dashboard. */
  width?: 'narrow' | 'medium';
}

export function csrfField(view: View): Html {
  return html`<input type="hidden" name="_csrf" value="${view.csrf}">`;
}

function navigation(view: View, section: Section | undefined): Html {
  if (!view.account) return html``;
  const t = view.t;
  const link = (href: string, name: Section, label: string) =>
    html`<li><a href="${href}"${section === name ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`
    <nav aria-label="${t.brand}"><ul class="nav">
      ${link('/app', 'overview', t.navOverview)}${link('/app/keys', 'keys', t.navKeys)}${link('/app/usage', 'usage', t.navUsage)}${link('/app/connections', 'connections', t.navConnections)}
    </ul></nav>`;
}

function session(view: View): Html {
  if (!view.account) return html``;
  const t = view.t;
  return html`
    <span class="who hide-narrow" title="${view.account.email}"><span class="visually-hidden">${t.signedInAs} </span>${view.account.email}</span>
    <form method="post" action="/app/logout">${csrfField(view)}<button type="submit" class="link">${t.signOut}</button></form>`;
}

function switchLangHref(view: View): string {
  const other = view.lang === 'de' ? 'en' : 'de';
  return `${view.path}${view.path.includes('?') ? '&' : '?'}lang=${other}`;
}

export function page(view: View, options: PageOptions): string {
  const t = view.t;
  return html`<!doctype html>
<html lang="${view.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${options.title} · ${t.brand}</title>
<link rel="stylesheet" href="${ASSET_PATH}">
</head>
<body>
<a class="skip" href="#main">${t.skip}</a>
<header class="topbar"><div class="topbar-inner">
  <a class="brand" href="/app"><span class="brand-mark" aria-hidden="true"></span>${t.brand}${view.account ? '' : html` <small>${t.tagline}</small>`}</a>
  ${navigation(view, options.section)}
  <div class="session">${session(view)}<a class="lang" href="${switchLangHref(view)}" lang="${view.lang === 'de' ? 'en' : 'de'}">${t.switchLang}</a></div>
</div></header>
<main id="main" tabindex="-1"${options.width ? html` class="${options.width}"` : ''}>
${options.body}
</main>
<footer><p>${t.footer}</p></footer>
</body>
</html>
`.text;
}

/** An alert box; errors are announced to screen readers as they appear. */
export function alert(kind: 'error' | 'ok' | 'warn', content: Html | string): Html {
  return html`<div class="alert alert-${kind}"${kind === 'error' ? html` role="alert"` : html` role="status"`}>${typeof content === 'string' ? html`<p>${content}</p>` : content}</div>`;
}
