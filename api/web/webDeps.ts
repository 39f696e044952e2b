// The web app's configuration as given (WebOptions, from runtime/config.ts through the entry points)
// and as its pages use it (WebDeps, defaults filled in).
import type { Redis } from 'ioredis';
import type { Context } from 'koa';
import type { Config } from '../../runtime/config.js';
import type { Logger } from '../../runtime/logger.js';
import type { Sql } from '../../runtime/db.js';
import type { Clock } from '../clock.js';
import type { TokenLifetimes } from '../oauth/tokens.js';
import { logMailer, type Mailer } from './mailer.js';
import { decoyHash, DEFAULT_PASSWORD_COST, type PasswordCost } from './passwords.js';
import { createAttemptLimiter, type AttemptLimiter, type Limit } from './rateLimit.js';
import type { CookieSecurity } from './session.js';

export interface WebLimits {
  /** Sign-in attempts per client address, and failed ones per e-mail address. */
  signIn: Limit;
  /** Sign-ups (and reset requests) per client address. */
  signUp: Limit;
  /** Dynamic client registrations per client address. */
  register: Limit;
  /** Token requests per client address. */
  token: Limit;
}

export const DEFAULT_WEB_LIMITS: WebLimits = {
  signIn: { max: 10, windowSeconds: 900 },
  signUp: { max: 5, windowSeconds: 3600 },
  register: { max: 20, windowSeconds: 3600 },
  token: { max: 120, windowSeconds: 60 },
};

export const DEFAULT_MCP_URL = 'http://localhost:8081/mcp';

export interface WebOptions {
  /** Origin (and issuer) of the web app, e.g. https://api.example.at; unset: each request's own origin. */
  publicBaseUrl?: string;
  /** The MCP server's URL: the one resource grants are issued for (RFC 8707). */
  mcpUrl?: string;
  cookieSecurity?: CookieSecurity;
  sessionHours?: number;
  passwordCost?: PasswordCost;
  limits?: Partial<WebLimits>;
  /** How long a rotated key's old secret keeps working. */
  keyRotationGraceMinutes?: number;
  tokenLifetimes?: Partial<TokenLifetimes>;
  mailer?: Mailer;
  /** Called after a key or grant is revoked here (the MCP server's bearer cache in this process). */
  onRevocation?: () => void;
}

export interface WebDeps {
  sql: Sql;
  redis: Redis;
  log: Logger;
  clock: Clock;
  cookieSecurity: CookieSecurity;
  sessionHours: number;
  passwordCost: PasswordCost;
  /** A hash to verify against when there is no account, so failures take equally long. */
  decoyHash: () => Promise<string>;
  limiter: AttemptLimiter;
  limits: WebLimits;
  mailer: Mailer;
  /** This site's origin, which is also the OAuth issuer (no path). */
  origin: (ctx: Context) => string;
  mcpUrl: string;
  keyGraceMs: number;
  tokenLifetimes: TokenLifetimes;
  /** Lifetime of an authorization code. */
  codeSeconds: number;
  revoked: () => void;
}

export interface WebRuntime {
  sql: Sql;
  redis: Redis;
  redisPrefix: string;
  log: Logger;
  clock: Clock;
}

export function webDeps(runtime: WebRuntime, options: WebOptions = {}): WebDeps {
  const passwordCost = options.passwordCost ?? DEFAULT_PASSWORD_COST;
  let decoy: Promise<string> | undefined;
  const fixedOrigin = options.publicBaseUrl ? new URL(options.publicBaseUrl).origin : undefined;
  return {
    sql: runtime.sql,
    redis: runtime.redis,
    log: runtime.log,
    clock: runtime.clock,
    cookieSecurity: options.cookieSecurity ?? 'auto',
    sessionHours: options.sessionHours ?? 12,
    passwordCost,
    decoyHash: () => (decoy ??= decoyHash(passwordCost)),
    limiter: createAttemptLimiter(runtime.redis, runtime.redisPrefix),
    limits: { ...DEFAULT_WEB_LIMITS, ...options.limits },
    mailer: options.mailer ?? logMailer(runtime.log),
    // Not ctx.origin: since Koa 3 that is the request's Origin header.
    origin: (ctx) => fixedOrigin ?? `${ctx.protocol}://${ctx.host}`,
    mcpUrl: options.mcpUrl ?? DEFAULT_MCP_URL,
    keyGraceMs: (options.keyRotationGraceMinutes ?? 60) * 60_000,
    tokenLifetimes: { accessSeconds: 3600, refreshSeconds: 30 * 24 * 3600, ...options.tokenLifetimes },
    codeSeconds: 300,
    revoked: options.onRevocation ?? (() => undefined),
  };
}

/** The web app's options from the service configuration (entry points). */
export function webOptionsFromConfig(config: Config): WebOptions {
  return {
    publicBaseUrl: config.PUBLIC_BASE_URL,
    mcpUrl: config.MCP_URL,
    cookieSecurity: config.WEB_COOKIE_SECURE,
    sessionHours: config.WEB_SESSION_HOURS,
    passwordCost: { memoryKiB: config.PASSWORD_MEMORY_KIB, timeCost: config.PASSWORD_TIME_COST },
    limits: {
      signIn: { max: config.WEB_SIGNIN_ATTEMPTS, windowSeconds: 900 },
      signUp: { max: config.WEB_SIGNUP_ATTEMPTS, windowSeconds: 3600 },
    },
    keyRotationGraceMinutes: config.KEY_ROTATION_GRACE_MINUTES,
  };
}
