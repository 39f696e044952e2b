// What the MCP server (an OAuth resource server) publishes so that a client knowing only its URL
// finds the authorization server: RFC 9728 protected-resource metadata, its well-known URLs, and the
// WWW-Authenticate challenge of a 401 that points at it (MCP authorization spec, notes §1.3/§1.4).

export const MCP_SCOPE = 'mcp';

export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: string[];
  resource_name: string;
  resource_documentation?: string;
}

/** RFC 9728 metadata of the MCP server at `resource` (its URL), whose authorization server is `issuer`. */
export function protectedResourceMetadata(options: { resource: string; issuer: string; documentation?: string }): ProtectedResourceMetadata {
  return {
    resource: options.resource,
    authorization_servers: [options.issuer],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Austrian company data (MCP)',
    ...(options.documentation ? { resource_documentation: options.documentation } : {}),
  };
}

/**
 * The path-aware well-known URL (RFC 9728 §3.1): `https://h/.well-known/oauth-protected-resource/mcp`
 * for `https://h/mcp`. The MCP server serves the same document at the root form too.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

export const PROTECTED_RESOURCE_ROOT_PATH = '/.well-known/oauth-protected-resource';

function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export interface Challenge {
  /** invalid_token (401) or insufficient_scope (403); omitted when no token was sent (RFC 6750 §3.1). */
  error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request';
  description?: string;
  resourceMetadataUrl: string;
  scope?: string;
}

/** `Bearer error="invalid_token", error_description="…", scope="mcp", resource_metadata="…"`. */
export function wwwAuthenticate(challenge: Challenge): string {
  const params: [string, string][] = [];
  if (challenge.error) params.push(['error', challenge.error]);
  if (challenge.description) params.push(['error_description', challenge.description.replace(/[^\x20-\x7e]/g, '?')]);
  params.push(['scope', challenge.scope ?? MCP_SCOPE]);
  params.push(['resource_metadata', challenge.resourceMetadataUrl]);
  return `Bearer ${params.map(([k, v]) => `${k}=${quoted(v)}`).join(', ')}`;
}

/** The parameters of a Bearer challenge (RFC 7235 auth-params, quoted strings unescaped). */
export function parseBearerChallenge(header: string): Record<string, string> | undefined {
  const match = /^Bearer\s+(.*)$/i.exec(header.trim());
  if (!match) return undefined;
  const params: Record<string, string> = {};
  const pattern = /([A-Za-z0-9_!#$%&'*+.^`|~-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))\s*(?:,\s*|$)/gy;
  let m: RegExpExecArray | null;
  while ((m = pattern.exec(match[1]!)) !== null) {
    params[m[1]!.toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]!;
    if (pattern.lastIndex >= match[1]!.length) break;
  }
  return params;
}
