// RFC 8707 resource indicators: the audience a grant is bound to. Compared in a canonical form
// (lower-case scheme and host, no default port, no trailing slash, no fragment), so
// `https://MCP.example.at:443/mcp/` and `https://mcp.example.at/mcp` are the same resource.

export function canonicalResource(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.hash !== '' || uri.includes('#')) return undefined;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : '';
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

export function sameResource(a: string, b: string): boolean {
  const left = canonicalResource(a);
  return left !== undefined && left === canonicalResource(b);
}
