import fs from 'node:fs';
import test from 'ava';
import { GENERATED_CLIENT_FILE, generatedClientSource } from './helpers/generated-client';

test('the committed typed client is what the OpenAPI document generates now (else: npm run client -w content-graphql)', async (t) => {
  t.is(fs.readFileSync(GENERATED_CLIENT_FILE, 'utf8'), await generatedClientSource());
});
