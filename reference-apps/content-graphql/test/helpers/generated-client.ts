/**
 * The typed client the admin API's tests call it through (test/generated/api-client.ts), generated from the app's
 * own OpenAPI document by rest.uws's generator. `npm run client -w content-graphql` (after a build) writes it;
 * generated-client.test.ts fails when the committed file differs from what the document generates now.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateClient } from 'rest.uws';
import { OPENAPI_PATH } from '../../src/app';
import { startContentServer } from '../../src/server';

/** The committed client, in the sources (this file runs from dist/test/helpers). */
export const GENERATED_CLIENT_FILE = path.resolve(__dirname, '../../../test/generated/api-client.ts');

/** The client's source as the app's OpenAPI document generates it now: a throwaway server serves the document. */
export async function generatedClientSource(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-client-'));
  try {
    const server = await startContentServer({
      host: '127.0.0.1',
      port: 0,
      databaseUrl: path.join(dir, 'content.db'),
      assetsRoot: path.join(dir, 'assets'),
      adminKey: 'a-key-only-to-serve-the-document',
      settings: { changePollMs: 0 },
    });
    try {
      const response = await fetch(`${server.url}${OPENAPI_PATH}`);
      if (!response.ok) throw new Error(`${OPENAPI_PATH} answered ${response.status}`);
      return generateClient({ openapi: (await response.json()) as Record<string, unknown> });
    } finally {
      await server.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
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
