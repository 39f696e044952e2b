// A browser stand-in for the dashboard tests: fetch with a cookie jar, no automatic redirects (tests
// look at each Location), the headers a browser sends on same-origin form posts, and the CSRF token
// read from the page's form.
import { createApp } from '../../api/app.js';
import type { WebOptions } from '../../api/web/webDeps.js';
import { memoryMailer, type MemoryMailer } from '../../api/web/mailer.js';
import type { Clock } from '../../api/clock.js';
import { createLogger } from '../../runtime/logger.js';
import { createTestAccess, type TestAccess } from './apiAccess.js';
import { serve, type TestHttp } from './httpClient.js';
import { createTestDatabase, type TestDatabase } from './testDatabase.js';

export class CookieJar {
  readonly cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now()));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export class WebClient {
  readonly jar = new CookieJar();
  constructor(readonly baseUrl: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.cookies.size > 0 && !headers.has('cookie')) headers.set('cookie', this.jar.header());
    const res = await fetch(path.startsWith('http') ? path : this.baseUrl + path, { ...init, headers, redirect: 'manual' });
    this.jar.store(res);
    return res;
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path, { headers });
  }

  /** A form post as a browser sends it from one of the site's own pages. */
  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.baseUrl, 'sec-fetch-site': 'same-origin', ...headers },
    });
  }

  /** GETs the page and returns its CSRF token and HTML. */
  async form(path: string): Promise<{ csrf: string; html: string; status: number }> {
    const res = await this.get(path);
    const html = await res.text();
    return { csrf: csrfOf(html), html, status: res.status };
  }

  /** GETs `formPath`, then posts `fields` with its CSRF token to `action` (default: the same path). */
  async submit(formPath: string, fields: Record<string, string>, action = formPath.split('?')[0]!): Promise<Response> {
    const { csrf } = await this.form(formPath);
    return this.post(action, { _csrf: csrf, ...fields });
  }
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF token on the page');
  return match[1]!;
}

export interface WebTestApp {
  db: TestDatabase;
  access: TestAccess;
  http: TestHttp;
  mailer: MemoryMailer;
  baseUrl: string;
  mcpUrl: string;
  client(): WebClient;
  close(): Promise<void>;
}

/** The whole app (API and web app) with cheap password hashing, a mail outbox, and limits out of the way unless given. */
export async function startWebTestApp(options: { clock?: Clock; web?: WebOptions } = {}): Promise<WebTestApp> {
  const db = await createTestDatabase();
  const access = await createTestAccess();
  const mailer = memoryMailer();
  const mcpUrl = 'http://127.0.0.1:1/mcp';
  const many = { max: 10_000, windowSeconds: 60 };
  const web: WebOptions = {
    passwordCost: { memoryKiB: 64, timeCost: 1 },
    mailer,
    mcpUrl,
    limits: { signIn: many, signUp: many, register: many, token: many },
    ...options.web,
  };
  const http = await serve(createApp({ sql: db.sql, log: createLogger('silent'), access: access.access, clock: options.clock, web }));
  return {
    db, access, http, mailer, mcpUrl,
    baseUrl: http.baseUrl,
    client: () => new WebClient(http.baseUrl),
    close: async () => {
      await http.close();
      await access.close();
      await db.drop();
    },
  };
}

let counter = 0;

export function uniqueEmail(): string {
  return `person${++counter}.${process.pid}@example.org`;
}

/** Signs a new account up through the form; the client holds its session afterwards. */
export async function signUp(client: WebClient, email = uniqueEmail(), password = 'correct horse battery'): Promise<{ email: string; password: string; res: Response }> {
  const res = await client.submit('/app/signup', { email, password });
  if (res.status !== 303) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  return { email, password, res };
}
