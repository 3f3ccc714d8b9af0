/** ultimate-express 2 (the Express API on the root's uWebSockets.js build), same idiom as Express (support/express-style-app.ts). */
import { buildExpressStyleApp, type ExpressStyleApp, type ExpressStyleModule } from './support/express-style-app';
import { requirePeer } from './support/peer-require';
import { HOST, announceReady, exitOnSignals, now, requestedPort } from './support/server-environment';

interface UltimateExpressApp extends ExpressStyleApp {
  listen(port: number, host: string, callback: () => void): unknown;
  address(): { port: number };
  close?(): void;
}
type UltimateExpressModule = ExpressStyleModule & (() => UltimateExpressApp);

function main(): void {
  const express = requirePeer<UltimateExpressModule>('ultimate-express');
  const startedAt = now();
  const app = express();
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
