// Sign-up, sign-in, sign-out and password reset. Plain forms that work without JavaScript; errors
// re-render the form with the entered e-mail address and an error summary. Sign-in and sign-up are
// rate-limited per client address (and sign-in failures per e-mail address as well).
import type Router from '@koa/router';
import type { Context } from 'koa';
import { completePasswordReset, createPasswordReset, findPasswordReset, findSignIn, signUpAccount } from '../../accounts/selfService.js';
import { formOf, render, safeNext, seeOther, stateOf, viewOf, WebError } from '../context.js';
import { field, hasControlCharacters } from '../forms.js';
import { html, type Html } from '../html.js';
import { alert, csrfField, type View } from '../layout.js';
import { hashPassword, MAX_PASSWORD_LENGTH, passwordProblem, verifyPassword } from '../passwords.js';
import { endSession, startSession } from '../session.js';
import type { WebDeps } from '../webDeps.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;
const RESET_HOURS = 1;

interface AuthForm {
  title: string;
  lead: string;
  action: string;
  submit: string;
  email?: string;
  errors?: string[];
  notice?: Html;
  /** Passwords: autocomplete hint and whether to show the length hint. */
  password?: 'current-password' | 'new-password';
  footer?: Html;
  next?: string;
}

function authForm(view: View, form: AuthForm): Html {
  const t = view.t;
  const invalid = form.errors && form.errors.length > 0;
  return html`
    <h1>${form.title}</h1>
    <p class="lead">${form.lead}</p>
    ${form.notice ?? ''}
    ${invalid ? alert('error', html`<p>${t.errorSummary}</p><ul>${form.errors!.map((e) => html`<li>${e}</li>`)}</ul>`) : ''}
    <div class="card auth-card">
      <form method="post" action="${form.action}" class="stack" novalidate>
        ${csrfField(view)}
        ${form.next ? html`<input type="hidden" name="next" value="${form.next}">` : ''}
        ${form.email !== undefined ? html`
        <div>
          <label for="email">${t.email}</label>
          <input id="email" name="email" type="email" autocomplete="email" required value="${form.email}"${invalid ? html` aria-invalid="true"` : ''}>
        </div>` : ''}
        ${form.password ? html`
        <div>
          <label for="password">${form.password === 'new-password' && form.email === undefined ? t.newPassword : t.password}</label>
          <input id="password" name="password" type="password" autocomplete="${form.password}" required${form.password === 'new-password' ? html` minlength="10" aria-describedby="password-hint"` : ''}${invalid ? html` aria-invalid="true"` : ''}>
          ${form.password === 'new-password' ? html`<p class="hint" id="password-hint">${t.passwordHint}</p>` : ''}
        </div>` : ''}
        <button type="submit" class="wide">${form.submit}</button>
      </form>
    </div>
    ${form.footer ?? ''}`;
}

function showForm(ctx: Context, form: AuthForm, status = 200): void {
  render(ctx, { title: form.title, width: 'narrow', body: authForm(viewOf(ctx), form) }, status);
}

function signupForm(view: View, email = '', errors?: string[]): AuthForm {
  const t = view.t;
  return {
    title: t.signupTitle, lead: t.signupLead, action: '/app/signup', submit: t.signupSubmit, email, errors, password: 'new-password',
    footer: html`<p class="auth-switch">${t.haveAccount} <a href="/app/login">${t.loginTitle}</a></p>`,
  };
}

function loginForm(view: View, email = '', errors?: string[], next?: string, notice?: Html): AuthForm {
  const t = view.t;
  return {
    title: t.loginTitle, lead: t.loginLead, action: '/app/login', submit: t.loginSubmit, email, errors, password: 'current-password', next, notice,
    footer: html`<p class="auth-switch"><a href="/app/reset">${t.forgot}</a></p><p class="auth-switch">${t.noAccount} <a href="/app/signup">${t.signupTitle}</a></p>`,
  };
}

function emailProblem(view: View, email: string): string | undefined {
  return EMAIL.test(email) && !hasControlCharacters(email) && email.length <= 254 ? undefined : view.t.errEmail;
}

function passwordErrors(view: View, password: string): string[] {
  const problem = passwordProblem(password);
  return problem === 'short' ? [view.t.errPasswordShort] : problem === 'long' ? [view.t.errPasswordLong] : [];
}

function rateLimited(ctx: Context, retryAfter: number): string {
  ctx.set('Retry-After', String(retryAfter));
  return viewOf(ctx).t.errRateLimited(Math.max(1, Math.ceil(retryAfter / 60)));
}

export function authRoutes(router: Router, deps: WebDeps): void {
  const now = () => new Date(deps.clock());
  const signIn = async (ctx: Context, accountId: string, next: string) => {
    await startSession(ctx, deps.sql, deps.cookieSecurity, accountId, deps.sessionHours, now());
    seeOther(ctx, next);
  };

  router.get('/app/signup', (ctx) => {
    if (stateOf(ctx).signedIn) return ctx.redirect('/app');
    showForm(ctx, signupForm(viewOf(ctx)));
  });

  router.post('/app/signup', async (ctx) => {
    const view = viewOf(ctx);
    const form = formOf(ctx);
    const email = field(form, 'email');
    const password = form.password ?? '';
    const limit = await deps.limiter.hit(`signup:${ctx.ip}`, deps.limits.signUp);
    if (!limit.allowed) return showForm(ctx, signupForm(view, email, [rateLimited(ctx, limit.retryAfter)]), 429);
    const errors = [emailProblem(view, email), ...passwordErrors(view, password)].filter((e): e is string => e !== undefined);
    if (errors.length > 0) return showForm(ctx, signupForm(view, email, errors), 400);
    const account = await signUpAccount(deps.sql, email, await hashPassword(password, deps.passwordCost));
    if (!account) return showForm(ctx, signupForm(view, email, [view.t.errEmailTaken]), 409);
    deps.log.info({ accountId: account.id }, 'account signed up');
    await signIn(ctx, account.id, '/app/keys');
  });

  router.get('/app/login', (ctx) => {
    const next = typeof ctx.query.next === 'string' ? safeNext(ctx.query.next) : undefined;
    if (stateOf(ctx).signedIn) return ctx.redirect(next ?? '/app');
    const t = viewOf(ctx).t;
    const notice = ctx.query.done === 'signedout' ? alert('ok', t.signedOut) : ctx.query.done === 'reset' ? alert('ok', t.resetDone) : undefined;
    showForm(ctx, loginForm(viewOf(ctx), '', undefined, next, notice));
  });

  router.post('/app/login', async (ctx) => {
    const view = viewOf(ctx);
    const form = formOf(ctx);
    const email = field(form, 'email');
    const password = form.password ?? '';
    const next = safeNext(field(form, 'next') || undefined);
    const byClient = await deps.limiter.hit(`signin:ip:${ctx.ip}`, deps.limits.signIn);
    const emailBucket = `signin:email:${email.toLowerCase()}`;
    const byEmail = await deps.limiter.check(emailBucket, deps.limits.signIn);
    if (!byClient.allowed || !byEmail.allowed) {
      return showForm(ctx, loginForm(view, email, [rateLimited(ctx, Math.max(byClient.retryAfter, byEmail.allowed ? 0 : byEmail.retryAfter))], next), 429);
    }
    const record = email.length <= 254 && !hasControlCharacters(email) ? await findSignIn(deps.sql, email) : undefined;
    const stored = record && !record.disabledAt && password.length <= MAX_PASSWORD_LENGTH ? record.passwordHash : null;
    // No usable account: verify against the decoy anyway, so the answer takes as long as a wrong password.
    const ok = stored ? await verifyPassword(stored, password) : await verifyPassword(await deps.decoyHash(), password).then(() => false);
    if (!ok || !record) {
      await deps.limiter.hit(emailBucket, deps.limits.signIn);
      return showForm(ctx, loginForm(view, email, [view.t.errCredentials], next), 401);
    }
    await signIn(ctx, record.id, next);
  });

  router.post('/app/logout', async (ctx) => {
    await endSession(ctx, deps.sql, deps.cookieSecurity);
    seeOther(ctx, '/app/login?done=signedout');
  });

  const resetRequestForm = (view: View, email = '', errors?: string[], notice?: Html): AuthForm => ({
    title: view.t.resetTitle, lead: view.t.resetLead, action: '/app/reset', submit: view.t.resetSubmit, email, errors, notice,
    footer: html`<p class="auth-switch"><a href="/app/login">${view.t.loginTitle}</a></p>`,
  });

  router.get('/app/reset', (ctx) => showForm(ctx, resetRequestForm(viewOf(ctx))));

  router.post('/app/reset', async (ctx) => {
    const view = viewOf(ctx);
    const email = field(formOf(ctx), 'email');
    const limit = await deps.limiter.hit(`reset:${ctx.ip}`, deps.limits.signUp);
    if (!limit.allowed) return showForm(ctx, resetRequestForm(view, email, [rateLimited(ctx, limit.retryAfter)]), 429);
    const problem = emailProblem(view, email);
    if (problem) return showForm(ctx, resetRequestForm(view, email, [problem]), 400);
    const record = await findSignIn(deps.sql, email);
    // The same answer whether or not the account exists: the form does not reveal who has one.
    if (record && !record.disabledAt) {
      const token = await createPasswordReset(deps.sql, record.id, new Date(deps.clock() + RESET_HOURS * 3_600_000));
      const link = `${deps.origin(ctx)}/app/reset/${token}`;
      await deps.mailer.send({ to: record.email, subject: view.t.resetTitle, text: `${view.t.resetLead}\n\n${link}\n`, link });
    }
    showForm(ctx, resetRequestForm(view, '', undefined, alert('ok', view.t.resetSent)));
  });

  const newPasswordForm = (view: View, token: string, errors?: string[]): AuthForm => ({
    title: view.t.newPasswordTitle, lead: '', action: `/app/reset/${token}`, submit: view.t.newPasswordSubmit, errors, password: 'new-password',
  });

  router.get('/app/reset/:token', async (ctx) => {
    const view = viewOf(ctx);
    if (!(await findPasswordReset(deps.sql, ctx.params.token!, now()))) throw new WebError(400, view.t.resetTitle, view.t.resetInvalid);
    showForm(ctx, newPasswordForm(view, ctx.params.token!));
  });

  router.post('/app/reset/:token', async (ctx) => {
    const view = viewOf(ctx);
    const password = formOf(ctx).password ?? '';
    const errors = passwordErrors(view, password);
    if (errors.length > 0) return showForm(ctx, newPasswordForm(view, ctx.params.token!, errors), 400);
    const accountId = await completePasswordReset(deps.sql, ctx.params.token!, await hashPassword(password, deps.passwordCost), now());
    if (!accountId) throw new WebError(400, view.t.resetTitle, view.t.resetInvalid);
    seeOther(ctx, '/app/login?done=reset');
  });
}
