// A loop that runs one step after another while steps find work, and waits an interval when one finds
// none; errors are logged and retried. Both indexers follow the change log this way.
import type { Logger } from '../runtime/logger.js';

export function startPolling(step: () => Promise<number>, log: Logger, what: string, intervalMs: number): { close: () => Promise<void> } {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        if ((await step()) > 0) continue; // more may be waiting
      } catch (err) {
        log.error({ err }, `${what} step failed; retrying`);
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();
  return {
    close: async () => {
      stopped = true;
      await loop;
    },
  };
}
