/** Express 5, in its own idiom (see support/express-style-app.ts). */
import express from 'express';
import { buildExpressStyleApp, type ExpressStyleApp, type ExpressStyleModule } from './support/express-style-app';
import { HOST, announceReady, exitOnSignals, now, requestedPort } from './support/server-environment';

function main(): void {
  const startedAt = now();
  const app = express();
  buildExpressStyleApp(app as unknown as ExpressStyleApp, express as unknown as ExpressStyleModule);
  const bootMs = now() - startedAt;
  const server = app.listen(requestedPort(), HOST, () => {
    const address = server.address();
    announceReady({ port: typeof address === 'object' && address ? address.port : 0, bootMs });
  });
  exitOnSignals(() => new Promise<void>((resolve) => server.close(() => resolve())));
}

main();
