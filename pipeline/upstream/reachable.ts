// A replay run by hand should fail in a second with the reason when an upstream cannot be reached at
// all, not after a job's eight retries of a refused connection. The service itself keeps retrying.
import { connect } from 'node:net';

export class UpstreamUnreachableError extends Error {
  override readonly name = 'UpstreamUnreachableError';
}

/** Resolves once a TCP connection to the URL's host and port opens; rejects with the reason otherwise. */
export function assertReachable(register: string, baseUrl: string, timeoutMs = 5000): Promise<void> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port, timeout: timeoutMs });
    const fail = (reason: string) => {
      socket.destroy();
      reject(new UpstreamUnreachableError(`${register}: upstream ${url.origin} is unreachable (${reason})`));
    };
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('timeout', () => fail(`no connection within ${timeoutMs} ms`));
    socket.once('error', (err: NodeJS.ErrnoException) => fail(err.code ?? err.message));
  });
}
