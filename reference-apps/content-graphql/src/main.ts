import { describeServerConfig } from 'app-support';
import { readContentConfig } from './config';
import { startContentServer } from './server';

/** `npm start -w content-graphql`: reads the configuration (config.ts), builds the app and listens until SIGINT or SIGTERM. */
async function main(): Promise<void> {
  const { server: config, options } = readContentConfig(process.argv.slice(2), process.env);
  const server = await startContentServer(options);
  const stop = () => { void server.close().then(() => process.exit(0)); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Printed once the signals are handled: whoever waits for this line may stop the server at once.
  console.log(describeServerConfig('content-graphql', config, server.port));
}

main().catch((error: unknown) => {
  console.error(`content-graphql: ${(error as Error).message}`);
  process.exit(1);
});
