// The read bench's load generator: one keep-alive HTTP/1.1 connection per concurrent request stream,
// with just enough HTTP to drive our own API (status line, Content-Length or chunked bodies).
//
// Why not node:http: the load generator shares the box's two cores with the API, Postgres and Redis,
// so whatever it spends per request is taken from what it measures. node:http (parser, agent,
// IncomingMessage streams) cost several times this client's CPU per request, and that difference was
// counted as API latency (docs/benchmarks.md).
// (fetch/undici had already been replaced by node:http for the same reason.)
import net from 'node:net';

export interface Answer {
  status: number;
  body: Buffer;
}

interface Pending {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** Where a complete response ends in `data`, with its status and body; null while bytes are missing. */
export function parseResponse(data: Buffer): { status: number; body: Buffer; end: number; close: boolean } | null {
  const headerEnd = data.indexOf(HEADER_END);
  if (headerEnd < 0) return null;
  const head = data.toString('latin1', 0, headerEnd);
  const status = Number(head.slice(9, 12));
  const close = /\r\nconnection: *close/i.test(head);
  const start = headerEnd + 4;
  // No body, whatever the headers say (RFC 9112 6.3).
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) return { status, body: data.subarray(start, start), end: start, close };
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (length) {
    const end = start + Number(length[1]);
    return data.length < end ? null : { status, body: data.subarray(start, end), end, close };
  }
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
    const parts: Buffer[] = [];
    let at = start;
    for (;;) {
      const lineEnd = data.indexOf(CRLF, at);
      if (lineEnd < 0) return null;
      const size = parseInt(data.toString('latin1', at, lineEnd), 16);
      if (!Number.isFinite(size)) throw new Error(`malformed chunk size at byte ${at}`);
      if (size === 0) {
        // The last chunk, then optional trailer lines, then an empty line.
        const end = data.subarray(lineEnd, lineEnd + 4).equals(HEADER_END) ? lineEnd + 4 : data.indexOf(HEADER_END, lineEnd) + 4;
        return end < 4 ? null : { status, body: Buffer.concat(parts), end, close };
      }
      const chunkEnd = lineEnd + 2 + size;
      if (data.length < chunkEnd + 2) return null;
      parts.push(data.subarray(lineEnd + 2, chunkEnd));
      at = chunkEnd + 2;
    }
  }
  // No length and not chunked: the body ends with the connection (not something our API sends).
  return { status, body: data.subarray(start), end: data.length, close: true };
}

/** One connection; requests on it go one after another (as a keep-alive browser or SDK sends them). */
export class KeepAliveConnection {
  private socket: net.Socket | null = null;
  private chunks: Buffer[] = [];
  private received = 0;
  /** Bytes the response needs in all (head + body) once its Content-Length is known, else -1. */
  private expected = -1;
  private pending: Pending | null = null;

  constructor(private readonly host: string, private readonly port: number) {}

  private connect(): net.Socket {
    const socket = net.connect(this.port, this.host);
    socket.setNoDelay(true);
    // A socket this connection has let go of (the server closed it after a response) may still report
    // its end: it concerns no request of the socket that replaced it.
    socket.on('data', (chunk: Buffer) => {
      if (this.socket === socket) this.onData(chunk);
    });
    socket.on('error', (error) => {
      if (this.socket === socket) this.fail(error);
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.fail(new Error('connection closed before the response ended'));
    });
    return socket;
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }

  /**
   * Collects a response's chunks and parses them once it is complete: a large page arrives in many
   * chunks, and joining them at every chunk would copy it over and over on the cores under test.
   */
  private onData(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.received += chunk.length;
    if (this.expected < 0) {
      const head = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.received);
      this.chunks = [head];
      const headerEnd = head.indexOf(HEADER_END);
      if (headerEnd < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(head.toString('latin1', 0, headerEnd));
      // Chunked (or unknown) bodies are parsed as they come; our API sends lengths for all it answers here.
      this.expected = length ? headerEnd + 4 + Number(length[1]) : 0;
    }
    if (this.expected > 0 && this.received < this.expected) return;
    const data = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.received);
    let response: ReturnType<typeof parseResponse>;
    try {
      response = parseResponse(data);
    } catch (error) {
      this.socket?.destroy();
      this.socket = null;
      this.fail(error as Error);
      return;
    }
    if (!response) {
      this.chunks = [data];
      return;
    }
    this.chunks = [];
    this.received = 0;
    this.expected = -1;
    if (response.close) {
      const closing = this.socket;
      this.socket = null; // before destroy(), so its close event is not taken for the next request's
      closing?.destroy();
    }
    const pending = this.pending;
    this.pending = null;
    pending?.resolve({ status: response.status, body: response.body });
  }

  /** `headers`: header lines, each ending in CRLF. */
  request(method: string, path: string, headers: string, body?: string): Promise<Answer> {
    if (this.pending) return Promise.reject(new Error('one request at a time on a connection'));
    this.socket ??= this.connect();
    const bytes = body === undefined ? '' : body;
    const length = body === undefined ? '' : `content-length: ${Buffer.byteLength(bytes)}\r\n`;
    return new Promise<Answer>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket!.write(`${method} ${path} HTTP/1.1\r\nhost: ${this.host}\r\n${headers}${length}\r\n${bytes}`);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }
}
