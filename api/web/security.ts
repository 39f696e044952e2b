// Browser-facing protections of the dashboard and the consent page:
// - headers: a Content-Security-Policy that allows only this origin's stylesheet and forbids framing
//   (frame-ancestors 'none' against click-jacking of sign-in and consent), no caching of pages;
// - every POST: Sec-Fetch-Site must not be cross-site or same-site, a present Origin must be this
//   site's, and the form must carry the CSRF token: HMAC-SHA256 of the session token (signed in) or
//   of the browser secret cookie (signed out), both secrets the attacker's page cannot read.
// No form-action directive: the consent form's answer redirects to the client's own redirect URI,
// which Chrome would hold against form-action.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context, Middleware } from 'koa';

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'";

export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('X-Content-Type-Options', 'nosniff');
    // same-origin, not no-referrer: with no-referrer Chrome sends `Origin: null` on the site's own form posts.
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
}

export function csrfToken(secret: string): string {
  return createHmac('sha256', secret).update('dashboard-csrf-v1').digest('base64url');
}

export function csrfTokenMatches(token: string | undefined, secrets: (string | undefined)[]): boolean {
  if (!token) return false;
  const given = Buffer.from(token);
  return secrets.some((secret) => {
    if (!secret) return false;
    const expected = Buffer.from(csrfToken(secret));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/**
 * Why a POST did not come from one of this site's own pages, judged by the headers browsers set and
 * pages cannot forge; undefined when it did (or when the client sends neither header, as non-browser
 * clients do; the CSRF token still has to match).
 */
export function crossSiteReason(ctx: Context, expectedOrigin: string): string | undefined {
  const site = ctx.get('sec-fetch-site');
  if (site !== '' && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site: ${site}`;
  const origin = ctx.get('origin');
  if (origin !== '' && origin !== expectedOrigin) return `Origin: ${origin}`;
  return undefined;
}
