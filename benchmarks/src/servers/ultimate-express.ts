/**
 * ultimate-express 2 (the Express API on the root's uWebSockets.js build), same idiom as Express
 * (support/express-style-app.ts), configured as ultimate-express's own benchmarks configure it: ETags and the
 * X-Powered-By header off (an ETag is a hash of every body sent).
 */
import { buildExpressStyleApp, type ExpressStyleApp, type ExpressStyleModule } from './support/express-style-app';
import { requirePeer } from './support/peer-require';
import { HOST, announceReady, exitOnSignals, now, requestedPort } from './support/server-environment';

interface UltimateExpressApp extends ExpressStyleApp {
  set(name: string, value: unknown): unknown;
  listen(port: number, host: string, callback: () => void): unknown;
  address(): { port: number };
  close?(): void;
}
type UltimateExpressModule = ExpressStyleModule & (() => UltimateExpressApp);

function main(): void {
  const express = requirePeer<UltimateExpressModule>('ultimate-express');
  const startedAt = now();
  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  buildExpressStyleApp(app, express);
  const bootMs = now() - startedAt;
  app.listen(requestedPort(), HOST, () => {
    announceReady({ port: app.address().port, bootMs });
  });
  exitOnSignals(() => app.close?.());
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
