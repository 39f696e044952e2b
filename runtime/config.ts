// One typed configuration, read once at process start from the environment. Every variable is listed in
// README.md and .env.example. A bad value stops the process with every problem listed at once.
import { existsSync } from 'node:fs';
import { z } from 'zod';

// An empty variable counts as unset (docker-compose and .env files often write `NAME=`).
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalUrl = z.preprocess(blankToUndefined, z.url().optional());
const urlWithDefault = (url: string) => z.preprocess(blankToUndefined, z.url().default(url));
const optionalString = z.preprocess(blankToUndefined, z.string().optional());

const port = z.coerce.number().int().min(0).max(65535);

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: port.default(8080),
  /** Postgres. When unset: 127.0.0.1:5432 (started if installed and down), else an embedded server under .data/. */
  DATABASE_URL: optionalUrl,
  /** Connections per process; few, since on few cores more connections only add tail latency (docs/configuration.md). */
  // At least 2: ensureReadModel() holds one connection for its lock while the build uses others.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(5),
  /** Redis. When unset: 127.0.0.1:6379 (started from PATH under .data/ when down). */
  REDIS_URL: optionalUrl,
  /** Elasticsearch. When unset, search runs on Postgres with identical answers. */
  ELASTICSEARCH_URL: optionalUrl,
  /**
   * Postgres search only: the API keeps the screener's filter, sort and result fields in memory (size in
   * docs/memory.md) for exact totals and figure-sorted pages; `false` answers every screener from SQL.
   */
  SCREENER_COLUMNS: z.enum(['true', 'false'], { error: 'must be true or false' }).default('true').transform((v) => v === 'true'),
  FIRMENBUCH_URL: urlWithDefault('https://justizonline.gv.at/jop/api/at.gv.justiz.fbw/ws'),
  FIRMENBUCH_API_KEY: optionalString,
  GISA_URL: urlWithDefault('https://www.gisa.gv.at/gisa-svc-public/GisaPublicV2.svc'),
  GISA_API_KEY: optionalString,
  /** GISA quotas per key (200 data calls, 10 extract starts a minute), the window they count in, and the extract polls. */
  // The window carries a second of margin over GISA's minute: calls reach GISA a little after they are counted here.
  GISA_DATA_CALLS_PER_MINUTE: z.coerce.number().int().min(1).default(200),
  GISA_EXTRACTS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  GISA_QUOTA_WINDOW_MS: z.coerce.number().int().min(100).default(61_000),
  GISA_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Largest GISA answer accepted, in MiB: data calls, and extracts (GetAuszug, a signed PDF). */
  GISA_MAX_BODY_MB: z.coerce.number().min(0.01).max(400).default(16),
  GISA_MAX_EXTRACT_MB: z.coerce.number().min(0.01).max(400).default(32),
  GISA_EXTRACT_FIRST_POLL_MS: z.coerce.number().int().min(0).default(2000),
  GISA_EXTRACT_POLL_MS: z.coerce.number().int().min(10).default(10_000),
  EDIKTE_URL: urlWithDefault('https://iwg.justiz.gv.at/edikte/id/idiwg8.nsf/api/data'),
  EDIKTE_USER: optionalString,
  EDIKTE_PASSWORD: optionalString,
  /** Ediktsdatei: the change recipe's period (the first run pages through everything), requests per second, timeout, re-linking period. */
  EDIKTE_POLL_HOURS: z.coerce.number().min(0.1).default(4),
  EDIKTE_RATE_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(5),
  EDIKTE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Largest Ediktsdatei answer accepted (a view page or an edict), in MiB. */
  EDIKTE_MAX_BODY_MB: z.coerce.number().min(0.01).max(400).default(16),
  EDIKTE_RELINK_MINUTES: z.coerce.number().min(1).default(15),
  BMF_LSU_URL: urlWithDefault('https://service.bmf.gv.at/service/allg/lsu/__Gen_Csv.asp'),
  /** How often the BMF list of bogus companies is downloaded (hours; it changes a few times a week), and the download's timeout. */
  BMF_LSU_POLL_HOURS: z.coerce.number().min(0.1).default(24),
  BMF_LSU_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Largest BMF list accepted, in MiB (the list is about 250 KB). */
  BMF_LSU_MAX_BODY_MB: z.coerce.number().min(0.01).max(400).default(16),
  /**
   * Which parts `npm start` runs in this process: any of api, pipeline, indexer (comma-separated).
   * One process runs all three by default; docker-compose runs one part per container. The api role
   * also serves the dashboard and, on MCP_PORT, the MCP server.
   */
  SERVICE_ROLES: z
    .string()
    .default('api,pipeline,indexer')
    .transform((v) => v.split(',').map((r) => r.trim()).filter(Boolean))
    .pipe(z.array(z.enum(['api', 'pipeline', 'indexer'])).min(1, 'name at least one of api, pipeline, indexer')),
  /** Pipeline: jobs a worker runs at once, and the Firmenbuch request budget (requests per second). */
  // 32: concurrent jobs share store transactions (group commit), so more jobs in flight mean larger
  // batches and less CPU per company (bench:ingest); the upstream rate limit still bounds requests.
  PIPELINE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(32),
  /** Waiting jobs in a register's queue from which a change window parks its fan-out until they drain (pipeline/jobs/fanOut.ts). */
  PIPELINE_MAX_WAITING_JOBS: z.coerce.number().int().min(100).default(10_000),
  /** Finished jobs each queue keeps as history for the operator's board: how many, and for how long. */
  JOB_HISTORY_COUNT: z.coerce.number().int().min(0).default(1000),
  JOB_HISTORY_HOURS: z.coerce.number().min(0).default(24),
  FIRMENBUCH_RATE_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(10),
  FIRMENBUCH_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),
  /** Largest Firmenbuch answer accepted (MiB): records (extract, searches, change feeds), and documents. */
  // At most 400: a body decodes to one string, and V8 refuses strings past about 512 M characters.
  FIRMENBUCH_MAX_BODY_MB: z.coerce.number().min(0.01).max(400).default(32),
  FIRMENBUCH_MAX_DOCUMENT_MB: z.coerce.number().min(0.01).max(400).default(64),
  /** Open connections the API accepts at most; more are closed as they arrive. */
  API_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(1000),
  /** XLSX/CSV exports one API process runs at once; more wait briefly, then get 503 with Retry-After. */
  EXPORT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Browser origins allowed to call /api/v1 (CORS), comma-separated (`https://app.example.org`), or `*` for any; empty: none. */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((o) => o.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(\*|https?:\/\/[^/\s?#]+)$/, 'each must be an origin such as https://app.example.org (scheme, host, port; no path), or *'))),
  /** How often the change feeds are polled: companies hourly, documents every 15 minutes. */
  FIRMENBUCH_COMPANY_POLL_MINUTES: z.coerce.number().min(1).default(60),
  FIRMENBUCH_DOCUMENT_POLL_MINUTES: z.coerce.number().min(1).default(15),
  /** How often the API writes its Redis usage counters to Postgres; a Redis crash loses at most this much counting. */
  USAGE_FLUSH_INTERVAL_SECONDS: z.coerce.number().min(0.1).max(60).default(5),
  /**
   * Dashboard and OAuth authorization server (docs/dashboard-oauth.md). PUBLIC_BASE_URL: the origin users
   * and OAuth clients reach the web app at (the issuer; unset: each request's own origin). MCP_URL: the
   * MCP server's URL, the one resource OAuth grants are issued for.
   */
  PUBLIC_BASE_URL: optionalUrl,
  MCP_URL: urlWithDefault('http://localhost:8081/mcp'),
  /**
   * The MCP server's own listener, run by the api role beside the API (docs/mcp.md); MCP_URL is what
   * clients are told, so change both. Browser origins allowed to call /mcp (comma-separated, or `*`;
   * none by default: native clients send no Origin), and Host names accepted besides MCP_URL's.
   */
  MCP_PORT: port.default(8081),
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((o) => o.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(\*|https?:\/\/[^/\s?#]+)$/, 'each must be an origin such as http://localhost:6274 (scheme, host, port; no path), or *'))),
  MCP_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((h) => h.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9a-fA-F:]+\](:\d+)?$/, 'each must be a host name with an optional port, such as mcp.internal:8081'))),
  /** Secure + __Host- session cookies: auto when the request came over HTTPS (X-Forwarded-Proto), or always / never. */
  WEB_COOKIE_SECURE: z.enum(['auto', 'always', 'never']).default('auto'),
  WEB_SESSION_HOURS: z.coerce.number().min(0.1).max(24 * 90).default(12),
  /** argon2id cost of dashboard passwords: memory per hash (KiB) and passes (OWASP's 19 MiB and 2 by default). */
  PASSWORD_MEMORY_KIB: z.coerce.number().int().min(8).max(4_194_304).default(19_456),
  PASSWORD_TIME_COST: z.coerce.number().int().min(1).max(100).default(2),
  /** Sign-in attempts per client address (and failed ones per e-mail) in 15 minutes; sign-ups per address in an hour. */
  WEB_SIGNIN_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  WEB_SIGNUP_ATTEMPTS: z.coerce.number().int().min(1).default(5),
  /** How long a rotated API key's previous secret keeps working. */
  KEY_ROTATION_GRACE_MINUTES: z.coerce.number().min(0).max(7 * 24 * 60).default(60),
  /** Token for the operator pages (/admin/queues, /admin/login, /metrics), in a header or by the sign-in form. Unset: the board is off. */
  ADMIN_TOKEN: optionalString,
  /** Bearer token that opens /metrics only (Prometheus's scrape); unset: /metrics needs ADMIN_TOKEN. */
  METRICS_TOKEN: optionalString,
  /** Directory for embedded Postgres / Redis data when no server is given or found. */
  DATA_DIR: z.string().default('.data'),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

let dotEnvRead = false;

/** The environment with `.env` of the working directory read in once (variables already set win), as .env.example promises. */
export function readEnvironment(): NodeJS.ProcessEnv {
  if (!dotEnvRead) {
    dotEnvRead = true;
    if (existsSync('.env')) process.loadEnvFile('.env');
  }
  return process.env;
}

/** Parses the environment (by default the process's, with `.env`); throws ConfigError listing every invalid variable. */
export function loadConfig(env: NodeJS.ProcessEnv = readEnvironment()): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  return result.data;
}

/** Names of every variable the service reads, for README/.env.example consistency checks. */
export const CONFIG_VARIABLES = Object.keys(configSchema.shape);
