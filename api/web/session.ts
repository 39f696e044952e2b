// Dashboard sessions: a random token in an HttpOnly, SameSite=Lax cookie, its SHA-256 in the session
// table (accountStore.createSession). Over HTTPS (directly, or behind a proxy that says so in
// X-Forwarded-Proto) the cookies are Secure and carry the __Host- prefix, which pins them to this
// host and path /. A new token is issued at every sign-in, and the token presented before is deleted,
// so a session id planted before sign-in is worthless after it.
//
// Forms shown before sign-in are protected by a second random cookie (the browser secret); CSRF
// tokens are an HMAC of the session token or of that secret (security.ts).
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Sql } from '../../runtime/db.js';
import { createSession, deleteSession, hashSecret, SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../accounts/accountStore.js';

/** auto: Secure cookies when the request came over HTTPS; always / never: regardless. */
export type CookieSecurity = 'auto' | 'always' | 'never';

const BROWSER_COOKIE = 'csrf';
const SECURE_BROWSER_COOKIE = '__Host-csrf';

export interface SignedIn {
  token: string;
  account: { id: string; email: string; plan: string };
}

export function cookiesSecure(ctx: Context, mode: CookieSecurity): boolean {
  return mode === 'always' || (mode === 'auto' && ctx.secure);
}

function setCookie(ctx: Context, mode: CookieSecurity, name: string, value: string | null, maxAgeMs?: number): void {
  const secure = cookiesSecure(ctx, mode);
  // 'always' behind a proxy that does not forward the scheme: the cookies library would refuse.
  if (secure) (ctx.cookies as { secure?: boolean }).secure = true;
  ctx.cookies.set(secure ? `__Host-${name}` : name, value, {
    httpOnly: true, sameSite: 'lax', secure, path: '/', overwrite: true, ...(maxAgeMs !== undefined ? { maxAge: maxAgeMs } : {}),
  });
}

function sessionToken(ctx: Context): string | undefined {
  return ctx.cookies.get(SECURE_SESSION_COOKIE) ?? ctx.cookies.get(SESSION_COOKIE);
}

/** The signed-in account of this request, if its session is valid. */
export async function readSession(ctx: Context, sql: Sql, now: Date): Promise<SignedIn | undefined> {
  const token = sessionToken(ctx);
  if (!token || token.length > 200) return undefined;
  const [row] = await sql<{ id: string; email: string; plan: string }[]>`
    SELECT a.id, a.email, a.plan
      FROM session s JOIN account a ON a.id = s.account_id
     WHERE s.token_hash = ${hashSecret(token)} AND s.expires_at > ${now} AND a.disabled_at IS NULL`;
  return row ? { token, account: row } : undefined;
}

/** Signs the account in with a fresh session token; the one presented before (if any) is deleted. */
export async function startSession(ctx: Context, sql: Sql, mode: CookieSecurity, accountId: string, hours: number, now: Date): Promise<string> {
  const previous = sessionToken(ctx);
  if (previous) await deleteSession(sql, previous);
  const session = await createSession(sql, accountId, { hours, now });
  setCookie(ctx, mode, SESSION_COOKIE, session.token, hours * 3_600_000);
  // A new browser secret too: nothing issued before sign-in carries over.
  setCookie(ctx, mode, BROWSER_COOKIE, randomBytes(32).toString('base64url'));
  return session.token;
}

export async function endSession(ctx: Context, sql: Sql, mode: CookieSecurity): Promise<void> {
  const token = sessionToken(ctx);
  if (token) await deleteSession(sql, token);
  setCookie(ctx, mode, SESSION_COOKIE, null);
}

/** The random per-browser secret behind the CSRF tokens of signed-out forms; set when missing. */
export function browserSecret(ctx: Context, mode: CookieSecurity): string {
  const existing = ctx.cookies.get(SECURE_BROWSER_COOKIE) ?? ctx.cookies.get(BROWSER_COOKIE);
  if (existing && existing.length >= 32 && existing.length <= 64) return existing;
  const secret = randomBytes(32).toString('base64url');
  setCookie(ctx, mode, BROWSER_COOKIE, secret);
  return secret;
}

/** The browser secret as presented, without setting one (checking a POST). */
export function presentedBrowserSecret(ctx: Context): string | undefined {
  return ctx.cookies.get(SECURE_BROWSER_COOKIE) ?? ctx.cookies.get(BROWSER_COOKIE);
}
