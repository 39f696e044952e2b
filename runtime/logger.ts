// Structured JSON logs (pino). Keys and credentials never reach a log line.
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, name = 'at-company-data'): Logger {
  return pino({
    name,
    level,
    redact: { paths: ['req.headers["x-api-key"]', 'req.headers.cookie', 'headers["x-api-key"]', 'apiKey', 'password'], censor: '[redacted]' },
  });
}
