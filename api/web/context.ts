// The request state of a dashboard page and the middlewares that set it up, in order: language and
// session (pageState), the POST guard (cross-site headers, form, CSRF token), and error pages.
import type { Context, Middleware } from 'koa';
import type { Logger } from '../../runtime/logger.js';
import type { Sql } from '../../runtime/db.js';
import type { Clock } from '../clock.js';
import { field, readForm, UnsupportedForm, type Form } from './forms.js';
import { html } from './html.js';
import { chooseLang, LABELS } from './i18n.js';
import { alert, page, type PageOptions, type View } from './layout.js';
import { crossSiteReason, csrfToken, csrfTokenMatches } from './security.js';
import { browserSecret, presentedBrowserSecret, readSession, type CookieSecurity, type SignedIn } from './session.js';

export interface PageDeps {
  sql: Sql;
  clock: Clock;
  log: Logger;
  cookieSecurity: CookieSecurity;
  /** The origin forms must come from: the public base URL's, else the request's own. */
  origin: (ctx: Context) => string;
}

interface PageState {
  view: View;
  signedIn?: SignedIn;
  form: Form;
}

/** A page that answers with a status and a short explanation instead of what was asked. */
export class WebError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly text: string,
  ) {
    super(title);
  }
}

export function stateOf(ctx: Context): PageState {
  const state = (ctx.state as { page?: PageState }).page;
  if (!state) throw new Error('dashboard route outside the page chain');
  return state;
}

export const viewOf = (ctx: Context): View => stateOf(ctx).view;
export const formOf = (ctx: Context): Form => stateOf(ctx).form;

/** The path and query of this request without `lang`, for the language switch and `next`. */
function pathWithoutLang(ctx: Context): string {
  const params = new URLSearchParams(ctx.querystring);
  params.delete('lang');
  const query = params.toString();
  return query ? `${ctx.path}?${query}` : ctx.path;
}

/** Language, session and CSRF token of the request. */
export function pageState(deps: PageDeps): Middleware {
  return async (ctx, next) => {
    const lang = chooseLang(ctx);
    const signedIn = await readSession(ctx, deps.sql, new Date(deps.clock()));
    const secret = signedIn?.token ?? browserSecret(ctx, deps.cookieSecurity);
    const view: View = { lang, t: LABELS[lang], path: pathWithoutLang(ctx), csrf: csrfToken(secret), account: signedIn?.account };
    (ctx.state as { page?: PageState }).page = { view, signedIn, form: Object.create(null) as Form };
    await next();
  };
}

/** Every POST: from this site, with a form, carrying a CSRF token of this browser. 403 otherwise. */
export function postGuard(deps: PageDeps): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'POST') return next();
    const state = stateOf(ctx);
    const t = state.view.t;
    const reason = crossSiteReason(ctx, deps.origin(ctx));
    if (reason) {
      deps.log.info({ reason, path: ctx.path }, 'dashboard POST refused: cross-site');
      throw new WebError(403, t.forbiddenTitle, t.forbiddenText);
    }
    try {
      state.form = await readForm(ctx);
    } catch (err) {
      if (err instanceof UnsupportedForm) throw new WebError(415, t.forbiddenTitle, t.forbiddenText);
      throw err;
    }

    if (!csrfTokenMatches(field(state.form, '_csrf'), [state.signedIn?.token, presentedBrowserSecret(ctx)])) {
      throw new WebError(403, t.forbiddenTitle, t.forbiddenText);
    }
    await next();
  };
}

export function render(ctx: Context, options: PageOptions, status = 200): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page(viewOf(ctx), options);
}

/** WebErrors and unknown dashboard paths as pages in the page's language. */
export function errorPages(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) {
        const t = viewOf(ctx).t;
        render(ctx, { title: t.notFoundTitle, width: 'medium', body: html`<h1>${t.notFoundTitle}</h1><p>${t.notFoundText}</p><p><a href="/app">${t.navOverview}</a></p>` }, 404);
      }
    } catch (err) {
      if (!(err instanceof WebError)) throw err;
      render(ctx, { title: err.title, width: 'medium', body: html`<h1>${err.title}</h1>${alert('error', err.text)}<p><a href="/app">${viewOf(ctx).t.navOverview}</a></p>` }, err.status);
    }
  };
}

/** After a POST: see the result with a GET (303), so reloading does not post again. */
export function seeOther(ctx: Context, location: string): void {
  ctx.status = 303;
  ctx.redirect(location);
}

/** A `next` target after sign-in: only this site's dashboard and consent pages. */
export function safeNext(next: string | undefined): string {
  if (!next || !/^\/(app(\/|$|\?)|oauth\/authorize\?)/.test(next) || /[\\\r\n]/.test(next)) return '/app';
  return next;
}

/** The signed-in account, or a redirect to sign-in that comes back here. */
export function requireAccount(ctx: Context): SignedIn | undefined {
  const signedIn = stateOf(ctx).signedIn;
  if (signedIn) return signedIn;
  const back = ctx.method === 'GET' ? `?next=${encodeURIComponent(viewOf(ctx).path)}` : '';
  ctx.redirect(`/app/login${back}`);
  return undefined;
}
