// Checking an authorization request (RFC 6749 §4.1.1 with OAuth 2.1's PKCE rules and RFC 8707), in
// the order that decides where an error may go (notes §7.2): until the client and its redirect URI
// are known to belong together, errors are shown on our own page and never redirected (an open
// redirector otherwise); after that they go back to the client with `state` and `iss` (RFC 9207).
import type { Sql } from '../../runtime/db.js';
import { findClient, type OAuthClient } from './clients.js';
import { isS256Challenge } from './pkce.js';
import { redirectUriMatches } from './redirectUris.js';
import { canonicalResource } from './resource.js';
import { MCP_SCOPE } from './resourceServer.js';

/** Parameters as they came (query or form); an array means the parameter was repeated. */
export type RawParams = Record<string, string | string[] | undefined>;

export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string | undefined;
  scopes: string[];
  resource: string;
}

export type AuthorizeCheck =
  | { kind: 'page'; message: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'ok'; client: OAuthClient; request: AuthorizeRequest };

/** Scopes a client may ask for; offline_access is accepted and ignored (refresh tokens come with the grant type). */
const KNOWN_SCOPES = new Set([MCP_SCOPE, 'offline_access']);

/** `redirectUri` with the response parameters added to its query (existing query parameters kept). */
export function responseLocation(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, value);
  return url.toString();
}

function single(params: RawParams, name: string): string | undefined | null {
  const value = params[name];
  if (Array.isArray(value)) return null;
  return value === undefined || value === '' ? undefined : value;
}

export async function checkAuthorizeRequest(sql: Sql, params: RawParams, options: { issuer: string; mcpUrl: string }): Promise<AuthorizeCheck> {
  const clientId = single(params, 'client_id');
  if (clientId === null) return { kind: 'page', message: 'client_id is repeated.' };
  if (clientId === undefined) return { kind: 'page', message: 'client_id is missing.' };
  const client = await findClient(sql, clientId);
  if (!client) return { kind: 'page', message: 'This client is not registered (unknown client_id). The tool has to register again.' };
  const asked = single(params, 'redirect_uri');
  if (asked === null) return { kind: 'page', message: 'redirect_uri is repeated.' };
  // OAuth 2.1 lets a client with one registered redirect URI leave it out.
  const redirectUri = asked ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (redirectUri === undefined) return { kind: 'page', message: 'redirect_uri is missing, and the client registered more than one.' };
  if (!redirectUriMatches(client.redirectUris, redirectUri)) return { kind: 'page', message: `redirect_uri ${redirectUri} is not one this client registered.` };

  const state = single(params, 'state');
  const back = (error: string, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    location: responseLocation(redirectUri, { error, error_description: description, state: state ?? undefined, iss: options.issuer }),
  });
  if (state === null) return back('invalid_request', 'state is repeated.');
  const repeated = ['response_type', 'code_challenge', 'code_challenge_method', 'scope'].find((name) => single(params, name) === null);
  if (repeated) return back('invalid_request', `${repeated} is repeated.`);
  const responseType = single(params, 'response_type');
  if (responseType !== 'code') return back('unsupported_response_type', 'Only response_type=code is supported.');
  const challenge = single(params, 'code_challenge');
  if (!challenge) return back('invalid_request', 'code_challenge is required (PKCE).');
  if (single(params, 'code_challenge_method') !== 'S256') return back('invalid_request', 'code_challenge_method must be S256.');
  if (!isS256Challenge(challenge)) return back('invalid_request', 'code_challenge is not a base64url SHA-256 (43 characters).');
  const scopes = (single(params, 'scope') ?? MCP_SCOPE).split(' ').filter(Boolean);
  const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
  if (unknown.length > 0) return back('invalid_scope', `Unknown scope: ${unknown.join(' ')}. Supported: ${MCP_SCOPE}.`);
  const resources = params.resource === undefined ? [] : [params.resource].flat();
  if (resources.length > 1) return back('invalid_target', 'Name one resource.');
  const resource = resources[0] ?? options.mcpUrl;
  if (canonicalResource(resource) === undefined || canonicalResource(resource) !== canonicalResource(options.mcpUrl)) {
    return back('invalid_target', `This server issues tokens for ${options.mcpUrl} only.`);
  }
  return { kind: 'ok', client, request: { clientId, redirectUri, codeChallenge: challenge, state, scopes: [MCP_SCOPE], resource: options.mcpUrl } };
}
