// The authorization server's pure parts: PKCE against RFC 7636's own example, the redirect-URI rules,
// resource comparison, the WWW-Authenticate challenge read back by a parser, and token hashing.
import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../api/accounts/accountStore.js';
import { responseLocation } from '../../api/oauth/authorizeRequest.js';
import { isCodeVerifier, isS256Challenge, s256Challenge, verifyS256 } from '../../api/oauth/pkce.js';
import { redirectUriMatches, redirectUriProblem } from '../../api/oauth/redirectUris.js';
import { canonicalResource, sameResource } from '../../api/oauth/resource.js';
import { parseBearerChallenge, protectedResourceMetadata, protectedResourceMetadataUrl, wwwAuthenticate } from '../../api/oauth/resourceServer.js';

describe('PKCE S256', () => {
  // RFC 7636 Appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('turns the RFC 7636 Appendix B verifier into its challenge', () => {
    expect(s256Challenge(verifier)).toBe(challenge);
    expect(verifyS256(verifier, challenge)).toBe(true);
    expect(isS256Challenge(challenge)).toBe(true);
  });

  it('refuses another verifier, a malformed one, and a plain challenge', () => {
    expect(verifyS256(verifier.replace('d', 'e'), challenge)).toBe(false);
    expect(verifyS256('short', s256Challenge('short'))).toBe(false);
    expect(isCodeVerifier('a'.repeat(42))).toBe(false);
    expect(isCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isCodeVerifier('a'.repeat(43))).toBe(true);
    // A plain challenge equals its verifier: 43 characters that are no SHA-256 of it.
    expect(verifyS256(verifier, verifier)).toBe(false);
    expect(isS256Challenge(challenge + '=')).toBe(false);
  });
});

describe('redirect URIs', () => {
  it('registers https, loopback http and private-use schemes', () => {
    for (const uri of ['https://app.example.com/callback', 'http://127.0.0.1:33418/callback', 'http://localhost/cb', 'http://[::1]:8080/cb', 'cursor://anysphere.cursor-retrieval/oauth/callback', 'com.example.app:/oauth2redirect']) {
      expect(redirectUriProblem(uri), uri).toBeUndefined();
    }
  });

  it('refuses script and data schemes, plain http to other hosts, fragments and relative URIs', () => {
    expect(redirectUriProblem('javascript:alert(1)')).toMatch(/javascript/);
    expect(redirectUriProblem('data:text/html,hi')).toMatch(/data/);
    expect(redirectUriProblem('vbscript:msgbox')).toMatch(/vbscript/);
    expect(redirectUriProblem('file:///etc/passwd')).toMatch(/file/);
    expect(redirectUriProblem('http://evil.example.com/cb')).toMatch(/https/);
    expect(redirectUriProblem('https://app.example.com/cb#frag')).toMatch(/fragment/);
    expect(redirectUriProblem('/callback')).toMatch(/absolute/);
  });

  it('matches exactly, except for the port of a loopback URI', () => {
    const registered = ['https://app.example.com/callback', 'http://127.0.0.1:3000/callback', 'http://localhost/cb?x=1', 'cursor://cb'];
    expect(redirectUriMatches(registered, 'https://app.example.com/callback')).toBe(true);
    expect(redirectUriMatches(registered, 'http://127.0.0.1:54321/callback')).toBe(true);
    expect(redirectUriMatches(registered, 'http://127.0.0.1/callback')).toBe(true);
    expect(redirectUriMatches(registered, 'http://localhost:9999/cb?x=1')).toBe(true);
    expect(redirectUriMatches(registered, 'cursor://cb')).toBe(true);
    // Not the same URI: path, query, host, scheme, port of a non-loopback host, a prefix.
    expect(redirectUriMatches(registered, 'http://127.0.0.1:54321/callback/more')).toBe(false);
    expect(redirectUriMatches(registered, 'http://localhost:9999/cb?x=2')).toBe(false);
    expect(redirectUriMatches(registered, 'http://localhost:3000/callback')).toBe(false);
    expect(redirectUriMatches(registered, 'http://app.example.com/callback')).toBe(false);
    expect(redirectUriMatches(registered, 'https://app.example.com:8443/callback')).toBe(false);
    expect(redirectUriMatches(registered, 'https://app.example.com/callback2')).toBe(false);
    expect(redirectUriMatches(registered, 'https://app.example.com/callback#x')).toBe(false);
    expect(redirectUriMatches(registered, 'cursor://cb/other')).toBe(false);
    expect(redirectUriMatches(registered, 'not a uri')).toBe(false);
  });

  it('adds the response parameters to the redirect URI, keeping its own query', () => {
    const location = new URL(responseLocation('http://127.0.0.1:5000/cb?session=a', { code: 'c1', state: 'x y', iss: 'https://as.example', error: undefined }));
    expect(Object.fromEntries(location.searchParams)).toEqual({ session: 'a', code: 'c1', state: 'x y', iss: 'https://as.example' });
  });
});

describe('resource indicators', () => {
  it('compares resources in canonical form', () => {
    expect(canonicalResource('HTTPS://MCP.Example.at:443/mcp/')).toBe('https://mcp.example.at/mcp');
    expect(sameResource('https://mcp.example.at/mcp', 'https://mcp.example.at:443/mcp/')).toBe(true);
    expect(sameResource('https://mcp.example.at/mcp', 'https://mcp.example.at/mcp-other')).toBe(false);
    expect(sameResource('https://mcp.example.at/mcp', 'http://mcp.example.at/mcp')).toBe(false);
    expect(sameResource('https://mcp.example.at/mcp', 'https://mcp.example.at:8443/mcp')).toBe(false);
    expect(canonicalResource('https://mcp.example.at/mcp#frag')).toBeUndefined();
    expect(canonicalResource('urn:example')).toBeUndefined();
  });
});

describe('protected-resource metadata and the 401 challenge', () => {
  it('names the metadata URL path-aware and the issuer as authorization server', () => {
    expect(protectedResourceMetadataUrl('https://mcp.example.at/mcp')).toBe('https://mcp.example.at/.well-known/oauth-protected-resource/mcp');
    expect(protectedResourceMetadataUrl('http://127.0.0.1:8081/')).toBe('http://127.0.0.1:8081/.well-known/oauth-protected-resource');
    const metadata = protectedResourceMetadata({ resource: 'https://mcp.example.at/mcp', issuer: 'https://api.example.at' });
    expect(metadata).toMatchObject({ resource: 'https://mcp.example.at/mcp', authorization_servers: ['https://api.example.at'], bearer_methods_supported: ['header'] });
  });

  it('builds a challenge that parses back to its parameters, quotes and backslashes included', () => {
    const header = wwwAuthenticate({
      error: 'invalid_token', description: 'The token "abc" expired \\ renew it', resourceMetadataUrl: 'https://mcp.example.at/.well-known/oauth-protected-resource/mcp',
    });
    expect(header.startsWith('Bearer ')).toBe(true);
    expect(parseBearerChallenge(header)).toEqual({
      error: 'invalid_token',
      error_description: 'The token "abc" expired \\ renew it',
      scope: 'mcp',
      resource_metadata: 'https://mcp.example.at/.well-known/oauth-protected-resource/mcp',
    });
    const bare = parseBearerChallenge(wwwAuthenticate({ resourceMetadataUrl: 'https://x/.well-known/oauth-protected-resource' }));
    expect(bare).toEqual({ scope: 'mcp', resource_metadata: 'https://x/.well-known/oauth-protected-resource' });
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
  });
});

describe('token hashing', () => {
  it('stores a secret as its 32-byte SHA-256, the same for the same secret and different for another', () => {
    const token = 'mcp_at_' + 'A'.repeat(43);
    expect(hashSecret(token)).toHaveLength(32);
    expect(hashSecret(token).equals(hashSecret(token))).toBe(true);
    expect(hashSecret(token).equals(hashSecret(token + 'B'))).toBe(false);
    expect(hashSecret('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
