/**
 * The soak's Lua side against a real server with known answers (the benchmark's rest.uws server): every request
 * kind of a mix is counted when sent, and each answer as ok, as an expected refusal, or as unexpected with a
 * sample, so that an interval cannot pass with wrong answers in it.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareFixtures } from '../src/runner/fixtures';
import { startServer } from '../src/runner/server-process';
import { findServer } from '../src/servers/registry';
import { writeMixFile, type MixRequest } from '../src/soak/mix-file';
import { runSoakWrk } from '../src/soak/soak-wrk';

test('mix.lua counts every kind sent, and its answers as ok, refused as expected, or unexpected with a sample', async (t) => {
  t.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-lua-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const fixtures = prepareFixtures(dir);
  const server = await startServer(findServer('rest-uws'), {
    cpu: undefined,
    env: { BENCH_STATIC_DIR: fixtures.staticDir },
    timeoutMs: 45_000,
  });
  t.teardown(() => server.stop());

  const mix: MixRequest[] = [
    { kind: 'hello', weight: 1, method: 'GET', path: '/hello', headers: {}, status: 200, mustContain: 'Hello, World!' },
    {
      kind: 'bad-id',
      weight: 1,
      method: 'GET',
      path: '/users/abc',
      headers: { Accept: 'application/json' },
      status: 400,
    },
    { kind: 'missing', weight: 1, method: 'GET', path: '/no-such-route', headers: {}, status: 200 },
    { kind: 'wrong-text', weight: 1, method: 'GET', path: '/hello', headers: {}, status: 200, mustNotContain: 'World' },
  ];
  const mixFile = path.join(dir, 'mix.tsv');
  writeMixFile(mixFile, mix);
  const connections = 2;
  const counts = await runSoakWrk(
    {
      script: 'mix.lua',
      url: server.baseUrl,
      threads: connections,
      connections,
      pipeline: 1,
      requestsPerSecLimit: undefined,
      scriptArgs: [`mix=${mixFile}`],
      stateFile: undefined,
    },
    1,
    undefined,
  );

  t.deepEqual(counts.scriptErrors, []);
  t.is(counts.socketErrors, 0);
  for (const request of mix)
    t.true((counts.sent[request.kind] ?? 0) > 10, `${request.kind} sent ${counts.sent[request.kind]} times`);
  // Each connection may have one request in flight when wrk stops; nothing else goes uncounted.
  const near = (answered: number, sent: number) => sent - answered >= 0 && sent - answered <= connections;
  t.true(near(counts.ok.hello, counts.sent.hello), `hello: ${counts.ok.hello} ok of ${counts.sent.hello}`);
  t.true(
    near(counts.refused['bad-id'], counts.sent['bad-id']),
    `bad-id: ${counts.refused['bad-id']} refused of ${counts.sent['bad-id']}`,
  );
  t.true(near(counts.failed['missing 404'], counts.sent.missing), `missing: ${JSON.stringify(counts.failed)}`);
  t.true(
    near(counts.failed['wrong-text 200'], counts.sent['wrong-text']),
    `wrong-text: ${JSON.stringify(counts.failed)}`,
  );
  t.deepEqual(Object.keys(counts.ok), ['hello']);
  t.deepEqual(Object.keys(counts.refused), ['bad-id']);
  const answered =
    counts.ok.hello + counts.refused['bad-id'] + counts.failed['missing 404'] + counts.failed['wrong-text 200'];
  t.is(answered, counts.requests, 'wrk counted the same answers');
  t.true(
    counts.samples.some((sample) => sample.startsWith('missing -> 404 expected 200: ')),
    counts.samples.join('\n'),
  );
  t.true(
    counts.samples.some((sample) => sample.startsWith('wrong-text -> 200 has World: {"message":"Hello, World!"}')),
    counts.samples.join('\n'),
  );
  t.true(counts.samples.length <= 5 * connections);
});
