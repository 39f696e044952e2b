// Structured JSON logs (pino). Keys and credentials never reach a log line.
import { pino, type Logger } from 'pino';

export type { Logger };

/** Services log to stdout; command-line tools to stderr, so their stdout carries only their answer. */
export function createLogger(level: string, options: { name?: string; stderr?: boolean } = {}): Logger {
  return pino(
    {
      name: options.name ?? 'at-company-data',
      level,
      redact: { paths: ['req.headers["x-api-key"]', 'req.headers.cookie', 'headers["x-api-key"]', 'apiKey', 'password'], censor: '[redacted]' },
    },
    pino.destination({ dest: options.stderr ? 2 : 1, sync: true }),
  );
}
