import type { Logger } from '../util/log';

/**
 * Waits (at most `timeoutMs`) for a logger to write what it buffered, before the thread exits:
 * pino writes stdout asynchronously, and lines logged just before `process.exit` in a worker are
 * otherwise lost (the crash report of a dying worker, the shutdown summary).
 */
export function flushLogs(logger: Logger | undefined, timeoutMs = 1000): Promise<void> {
  const flush = (logger as { flush?: (cb?: (err?: Error) => void) => void } | undefined)?.flush;
  if (typeof flush !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    try {
      flush.call(logger, () => {
        clearTimeout(timer);
        resolve();
      });
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}
