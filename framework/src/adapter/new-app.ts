import type { TemplatedApp } from 'uWebSockets.js';
import type { UwsModule } from './load-uws';

/**
 * Seconds an HTTP connection may stay silent (no complete request, or idle between keep-alive requests)
 * before uWebSockets.js closes it: v20.30's fixed value, which v20.57 raised to 30 and made settable.
 * Keeping 10 on both builds keeps half-sent or garbage requests from holding sockets three times longer.
 */
const HTTP_IDLE_TIMEOUT_SECONDS = 10;

/** A new uWebSockets.js app that behaves the same on every supported build. */
export function newUwsApp(uws: UwsModule): TemplatedApp {
  const app = uws.App();
  // Only v20.57 and later have it (absent from v20.30's typings and binary).
  (app as TemplatedApp & { setIdleTimeout?: (seconds: number) => void }).setIdleTimeout?.(HTTP_IDLE_TIMEOUT_SECONDS);
  return app;
}
