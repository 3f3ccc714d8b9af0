/**
 * The typed client of the partner API that the tests call it through (test/generated/api-client.ts), generated
 * from the app's own OpenAPI document by rest.uws's generator. `npm run client -w booking-api` (after a build)
 * writes it; generated-client.test.ts fails when the committed file differs from what the document generates now.
 */
import fs from 'node:fs';
import path from 'node:path';
import { generateClient } from 'rest.uws';
import { OPENAPI_PATH } from '../../src/app';
import { startBookingServer } from '../../src/server';

/** The committed client, in the sources (this file runs from dist/test/helpers). */
export const GENERATED_CLIENT_FILE = path.resolve(__dirname, '../../../test/generated/api-client.ts');

/** The client's source as the app's OpenAPI document generates it now: a server in memory serves the document. */
export async function generatedClientSource(): Promise<string> {
  const server = await startBookingServer({ background: false, seedDemoCatalogue: false });
  try {
    const response = await fetch(`${server.url}${OPENAPI_PATH}`);
    if (!response.ok) throw new Error(`${OPENAPI_PATH} answered ${response.status}`);
    return generateClient({ openapi: (await response.json()) as Record<string, unknown> });
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
