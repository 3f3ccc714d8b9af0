import fs from 'node:fs';
import test from 'ava';
import { GENERATED_CLIENT_FILE, generatedClientSource } from './support/generated-client';

test('the committed typed client is what the OpenAPI and AsyncAPI documents generate now (else: npm run api-client -w voice-stream)', async (t) => {
  t.is(fs.readFileSync(GENERATED_CLIENT_FILE, 'utf8'), await generatedClientSource());
});
