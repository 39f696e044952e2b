// OAuth clients: dynamic registration (RFC 7591) and client authentication at the token and
// revocation endpoints. Registration accepts only what this server implements: the code flow with
// PKCE, refresh tokens, and the auth methods none, client_secret_post and client_secret_basic.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Sql } from '../../runtime/db.js';
import { hashSecret } from '../accounts/accountStore.js';
import { OAuthError } from './oauthErrors.js';
import { redirectUriProblem } from './redirectUris.js';

export const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

export interface OAuthClient {
  clientId: string;
  clientSecretHash: Buffer | null;
  tokenEndpointAuthMethod: AuthMethod;
  clientName: string | null;
  redirectUris: string[];
  grantTypes: string[];
}

const text = (max: number) => z.string().max(max);
const registrationSchema = z.looseObject({
  redirect_uris: z.array(z.string().max(2000)).min(1).max(20),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  client_name: text(200).optional(),
  client_uri: text(2000).optional(),
  logo_uri: text(2000).optional(),
  scope: text(500).optional(),
  software_id: text(200).optional(),
  software_version: text(100).optional(),
  application_type: z.enum(['web', 'native']).optional(),
});

/** The registration response (RFC 7591 §3.2.1); client_secret only in the one answer that creates it. */
export type RegisteredClient = Record<string, unknown> & { client_id: string; client_secret?: string };

function metadataError(issues: z.core.$ZodIssue[]): OAuthError {
  const first = issues[0]!;
  const where = first.path.join('.') || 'body';
  const code = first.path[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata';
  return new OAuthError(code, `${where}: ${first.message}`);
}

/** Validates a registration request and stores the client; throws OAuthError with the RFC 7591 code. */
export async function registerClient(sql: Sql, body: unknown, nowMs: number): Promise<RegisteredClient> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object of client metadata.');
  }
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) throw metadataError(parsed.error.issues);
  const meta = parsed.data;
  for (const uri of meta.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', `redirect_uris: ${uri} ${problem}.`);
  }
  const method = (meta.token_endpoint_auth_method ?? 'none') as AuthMethod;
  if (!AUTH_METHODS.includes(method)) {
    throw new OAuthError('invalid_client_metadata', `token_endpoint_auth_method ${method} is not supported; use one of ${AUTH_METHODS.join(', ')}.`);
  }
  // Refresh tokens by default: clients that omit grant_types would otherwise lose access after an hour.
  const grantTypes = meta.grant_types ?? [...GRANT_TYPES];
  const unsupported = grantTypes.filter((g) => !(GRANT_TYPES as readonly string[]).includes(g));
  if (unsupported.length > 0 || !grantTypes.includes('authorization_code')) {
    throw new OAuthError('invalid_client_metadata', `grant_types must include authorization_code and may add refresh_token; not supported: ${unsupported.join(', ') || '(authorization_code missing)'}.`);
  }
  const responseTypes = meta.response_types ?? ['code'];
  if (responseTypes.length !== 1 || responseTypes[0] !== 'code') {
    throw new OAuthError('invalid_client_metadata', 'response_types must be ["code"].');
  }
  const clientId = 'mcpc_' + randomBytes(16).toString('base64url');
  const secret = method === 'none' ? undefined : 'mcpcs_' + randomBytes(32).toString('base64url');
  const issuedAt = Math.floor(nowMs / 1000);
  const response: RegisteredClient = {
    client_id: clientId,
    client_id_issued_at: issuedAt,
    redirect_uris: meta.redirect_uris,
    token_endpoint_auth_method: method,
    grant_types: grantTypes,
    response_types: responseTypes,
    ...(meta.client_name !== undefined ? { client_name: meta.client_name } : {}),
    ...(meta.client_uri !== undefined ? { client_uri: meta.client_uri } : {}),
    ...(meta.logo_uri !== undefined ? { logo_uri: meta.logo_uri } : {}),
    ...(meta.software_id !== undefined ? { software_id: meta.software_id } : {}),
    ...(meta.software_version !== undefined ? { software_version: meta.software_version } : {}),
    ...(meta.application_type !== undefined ? { application_type: meta.application_type } : {}),
    scope: 'mcp',
  };
  await sql`
    INSERT INTO oauth_client (client_id, client_secret_hash, token_endpoint_auth_method, client_name, redirect_uris, grant_types, metadata)
    VALUES (${clientId}, ${secret ? hashSecret(secret) : null}, ${method}, ${meta.client_name ?? null},
            ${meta.redirect_uris}, ${grantTypes}, ${sql.json(response as never)})`;
  return secret ? { ...response, client_secret: secret, client_secret_expires_at: 0 } : response;
}

export async function findClient(sql: Sql, clientId: string): Promise<OAuthClient | undefined> {
  if (clientId === '' || clientId.length > 100) return undefined;
  const [row] = await sql<OAuthClient[]>`
    SELECT client_id, client_secret_hash, token_endpoint_auth_method, client_name, redirect_uris, grant_types
      FROM oauth_client WHERE client_id = ${clientId}`;
  return row;
}

function basicCredentials(ctx: Context): { id: string; secret: string } | undefined {
  const header = ctx.get('authorization');
  if (!/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'The Basic credentials are malformed.');
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before they are joined.
    return { id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')), secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')) };
  } catch {
    throw new OAuthError('invalid_client', 'The Basic credentials are malformed.');
  }
}

function secretMatches(stored: Buffer, given: string): boolean {
  const digest = hashSecret(given);
  return stored.length === digest.length && timingSafeEqual(stored, digest);
}

/**
 * The client a token or revocation request authenticates as: HTTP Basic, or client_id (and
 * client_secret for confidential clients) in the form. Unknown clients and wrong secrets are 401
 * invalid_client, so a client whose registration was dropped registers again.
 */
export async function authenticateClient(ctx: Context, sql: Sql, form: Record<string, string>): Promise<OAuthClient> {
  const basic = basicCredentials(ctx);
  const clientId = basic?.id ?? form.client_id ?? '';
  if (clientId === '') throw new OAuthError('invalid_client', 'client_id is missing.');
  if (basic && form.client_id !== undefined && form.client_id !== basic.id) throw new OAuthError('invalid_client', 'client_id differs from the Basic credentials.');
  const client = await findClient(sql, clientId);
  if (!client) throw new OAuthError('invalid_client', 'Unknown client_id: register the client again.');
  if (client.clientSecretHash) {
    const secret = basic?.secret ?? form.client_secret;
    if (secret === undefined || secret === '') throw new OAuthError('invalid_client', 'This client is confidential: send its client_secret.');
    if (!secretMatches(client.clientSecretHash, secret)) throw new OAuthError('invalid_client', 'The client_secret is wrong.');
  }
  return client;
}
