/**
 * The typed client of the voice API (test/generated/api-client.ts), generated from the app's own OpenAPI and
 * AsyncAPI documents by rest.uws's generator. `npm run api-client -w voice-stream` (after a build) writes it;
 * generated-client.test.ts fails when the committed file differs from what the documents generate now.
 */
import fs from 'node:fs';
import path from 'node:path';
import { generateClient } from 'rest.uws';
import { ASYNCAPI_PATH, OPENAPI_PATH } from '../../src/app';
import { startVoiceServer } from '../../src/server';

/** The committed client, in the sources (this file runs from dist/test/support). */
export const GENERATED_CLIENT_FILE = path.resolve(__dirname, '../../../test/generated/api-client.ts');

/** The client's source as the app's documents generate it now: a server in memory serves them. */
export async function generatedClientSource(): Promise<string> {
  const server = await startVoiceServer();
  try {
    const read = async (documentPath: string) => {
      const response = await fetch(`${server.url}${documentPath}`);
      if (!response.ok) throw new Error(`${documentPath} answered ${response.status}`);
      return (await response.json()) as Record<string, unknown>;
    };
    return generateClient({ openapi: await read(OPENAPI_PATH), asyncapi: await read(ASYNCAPI_PATH) });
  } finally {
    await server.close();
  }
}

if (require.main === module) {
  generatedClientSource().then(
    (source) => {
      fs.writeFileSync(GENERATED_CLIENT_FILE, source);
      console.log(`wrote ${path.relative(process.cwd(), GENERATED_CLIENT_FILE)}`);
    },
    (error: Error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
