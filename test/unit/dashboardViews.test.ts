// The dashboard's pure parts: escaping in templates, language choice, CSRF tokens and cross-site
// checks, the sign-in `next` target, and the chart's axis.
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { dailyChart, niceMax } from '../../api/web/chart.js';
import { safeNext } from '../../api/web/context.js';
import { parseForm } from '../../api/web/forms.js';
import { escapeHtml, html, trusted } from '../../api/web/html.js';
import { fromAcceptLanguage, LABELS } from '../../api/web/i18n.js';
import { crossSiteReason, csrfToken, csrfTokenMatches } from '../../api/web/security.js';

describe('html templates', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const name = `<script>alert("x")</script>' onmouseover='y`;
    const out = html`<p title="${name}">${name}</p>`.text;
    expect(out).not.toContain('<script>');
    expect(out).not.toContain(`' onmouseover='`);
    expect(out).toBe(`<p title="${escapeHtml(name)}">${escapeHtml(name)}</p>`);
    expect(escapeHtml(`&<>"'\``)).toBe('&amp;&lt;&gt;&quot;&#39;&#96;');
  });

  it('keeps nested fragments and trusted markup as they are, and drops null, undefined and booleans', () => {
    const inner = html`<b>${'a&b'}</b>`;
    expect(html`<div>${inner}${[inner, 'c<']}${null}${undefined}${false}${trusted('<br>')}</div>`.text).toBe('<div><b>a&amp;b</b><b>a&amp;b</b>c&lt;<br></div>');
  });
});

describe('languages', () => {
  it('picks the first of German and English by q-value, else none', () => {
    expect(fromAcceptLanguage('de-AT,de;q=0.9,en;q=0.8')).toBe('de');
    expect(fromAcceptLanguage('fr-FR,fr;q=0.9,en-US;q=0.7,de;q=0.5')).toBe('en');
    expect(fromAcceptLanguage('en;q=0.2, de;q=0.8')).toBe('de');
    expect(fromAcceptLanguage('fr, it')).toBeUndefined();
    expect(fromAcceptLanguage('')).toBeUndefined();
  });

  it('has every label in both languages', () => {
    expect(Object.keys(LABELS.de).sort()).toEqual(Object.keys(LABELS.en).sort());
    expect(LABELS.de.navKeys).not.toBe(LABELS.en.navKeys);
  });
});

describe('CSRF', () => {
  it('accepts the token of one of the browser’s secrets only', () => {
    const token = csrfToken('session-secret');
    expect(csrfTokenMatches(token, [undefined, 'session-secret'])).toBe(true);
    expect(csrfTokenMatches(token, ['other-secret'])).toBe(false);
    expect(csrfTokenMatches(undefined, ['session-secret'])).toBe(false);
    expect(csrfTokenMatches(token.slice(1), ['session-secret'])).toBe(false);
  });

  it('refuses cross-site and same-site fetch metadata and a foreign Origin', () => {
    const ctx = (headers: Record<string, string>) => ({ get: (name: string) => headers[name] ?? '' }) as unknown as Context;
    const origin = 'https://api.example.at';
    expect(crossSiteReason(ctx({ 'sec-fetch-site': 'same-origin', origin }), origin)).toBeUndefined();
    expect(crossSiteReason(ctx({}), origin)).toBeUndefined();
    expect(crossSiteReason(ctx({ 'sec-fetch-site': 'cross-site' }), origin)).toMatch(/cross-site/);
    expect(crossSiteReason(ctx({ 'sec-fetch-site': 'same-site' }), origin)).toMatch(/same-site/);
    expect(crossSiteReason(ctx({ origin: 'https://evil.example' }), origin)).toMatch(/evil/);
    expect(crossSiteReason(ctx({ origin: 'null' }), origin)).toMatch(/null/);
  });
});

describe('sign-in targets and forms', () => {
  it('returns to dashboard and consent pages only', () => {
    expect(safeNext('/app/keys')).toBe('/app/keys');
    expect(safeNext('/app')).toBe('/app');
    expect(safeNext('/oauth/authorize?client_id=x')).toBe('/oauth/authorize?client_id=x');
    for (const bad of ['//evil.example/app', 'https://evil.example/app', '/\\evil.example', '/apple', '/api/v1/queries', undefined, '/app\r\nX: y']) {
      expect(safeNext(bad)).toBe('/app');
    }
  });

  it('reads the first value of each field', () => {
    const form = parseForm('email=a%40b.at&password=p+q&email=second');
    expect(form.email).toBe('a@b.at');
    expect(form.password).toBe('p q');
    expect(Object.getPrototypeOf(form)).toBeNull();
  });
});

describe('usage chart', () => {
  it('rounds the axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 10, 11, 180, 4999].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 200, 5000]);
  });

  it('draws one bar per channel and day with requests, with a title and description', () => {
    const svg = dailyChart(
      [{ day: '2025-03-01', rest: 4, mcp: 0 }, { day: '2025-03-02', rest: 0, mcp: 0 }, { day: '2025-03-03', rest: 2, mcp: 2 }],
      { title: 'Per day', description: 'desc <x>', format: String },
    ).text;
    expect(svg.match(/class="bar-rest"/g)).toHaveLength(2);
    expect(svg.match(/class="bar-mcp"/g)).toHaveLength(1);
    expect(svg).toContain('<title id="chart-title">Per day</title>');
    expect(svg).toContain('desc &lt;x&gt;');
    expect(svg).not.toContain('style=');
  });
});
