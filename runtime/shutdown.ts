// Graceful shutdown on SIGTERM/SIGINT: run the close steps in order (listeners and workers first,
// pools last), each on its own so one failure does not skip the rest.
import type { Logger } from './logger.js';

export function onShutdown(log: Logger, steps: Array<() => Promise<void>>): void {
  let closing = false;
  const handler = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    void (async () => {
      for (const step of steps) {
        try {
          await step();
        } catch (err) {
          log.error({ err }, 'shutdown step failed');
        }
      }
      process.exit(0);
    })();
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
