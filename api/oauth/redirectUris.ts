// Redirect URIs of OAuth clients: what dynamic registration accepts, and the exact matching
// /authorize does against the registered ones. Loopback http URIs match on any port (RFC 8252 §7.3:
// native apps such as Claude Code listen on an ephemeral port); everything else matches only as the
// exact string registered.

/** Schemes that would run or embed content instead of handing a code to an app. */
const BLOCKED_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'about:', 'blob:', 'filesystem:']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/** Why a redirect URI cannot be registered, or undefined when it can. */
export function redirectUriProblem(uri: string): string | undefined {
  const url = parse(uri);
  if (!url) return 'is not an absolute URI';
  if (url.hash !== '' || uri.includes('#')) return 'must not contain a fragment';
  if (BLOCKED_SCHEMES.has(url.protocol)) return `uses the scheme ${url.protocol}, which is not allowed`;
  if (url.protocol === 'http:' && !isLoopback(url)) return 'must use https, or http on a loopback address (127.0.0.1, [::1], localhost)';
  if ((url.protocol === 'https:' || url.protocol === 'http:') && (url.username !== '' || url.password !== '')) return 'must not contain credentials';
  return undefined;
}

/** Whether `requested` names one of `registered` exactly, or the same loopback URI on another port. */
export function redirectUriMatches(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const wanted = parse(requested);
  if (!wanted || !isLoopback(wanted)) return false;
  return registered.some((uri) => {
    const candidate = parse(uri);
    return (
      candidate !== undefined &&
      isLoopback(candidate) &&
      candidate.hostname === wanted.hostname &&
      candidate.pathname === wanted.pathname &&
      candidate.search === wanted.search &&
      candidate.username === wanted.username &&
      candidate.password === wanted.password &&
      !requested.includes('#')
    );
  });
}
