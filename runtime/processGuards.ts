// The last line behind every other guard: an error nothing caught (a throw in an event handler, a
// rejected promise nobody awaited) is logged and the service keeps running. With the default roles the
// API and the pipeline share one process, and one bad upstream answer must not take the API down with
// it (issue 22: a 600 MB body once threw ERR_STRING_TOO_LONG from a stream handler and ended both).
// Each occurrence is a bug to fix, so it is logged at error level with its stack.
import type { Logger } from './logger.js';

let installed = false;

/** Installs the handlers once per process; returns how many errors they have caught so far. */
export function installProcessGuards(log: Logger): { caught: () => number } {
  let caught = 0;
  if (!installed) {
    installed = true;
    process.on('uncaughtException', (err, origin) => {
      caught++;
      log.error({ err, origin }, 'uncaught error; the process keeps running');
    });
    process.on('unhandledRejection', (reason) => {
      caught++;
      log.error({ err: reason }, 'unhandled promise rejection; the process keeps running');
    });
  }
  return { caught: () => caught };
}
