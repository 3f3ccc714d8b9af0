import { startServer } from 'rest.uws';
import { buildApp } from './app.js';

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  const server = await startServer(buildApp(), { port, host });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void server.shutdown().then(() => process.exit(0)));
  }
  console.log(`listening on http://${server.host}:${server.port}/todos`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
