/**
 * Every TechEmpower implementation passes the verifier of the six test types against a PostgreSQL of its own (so a
 * framework or driver update cannot turn the comparison into one of wrong answers), and implementations wrong in one
 * way each fail it on the type concerned. hyper-express and ultimate-express are checked when `--setup` installed them
 * (`npm test` does), and in CI always.
 */
import test from 'ava';
import * as path from 'node:path';
import { startServer, type RunningServer } from '../src/runner/server-process';
import { unavailableReason, type ServerDefinition } from '../src/servers/registry';
import { startBenchCluster, type BenchCluster } from '../src/techempower/database/bench-cluster';
import { IMPLEMENTATIONS, variantServer } from '../src/techempower/registry';
import { createTestTypes, type TestTypeKey } from '../src/techempower/test-types';
import { VerifierDatabase } from '../src/techempower/verify/verifier-database';
import type { Fault } from './support/broken-techempower-server';

let cluster: BenchCluster | undefined;
let databases = 0;
const clusterStarted = startBenchCluster().then((started) => (cluster = started));
test.after.always(async () => {
  await clusterStarted.catch(() => undefined);
  await cluster?.stop();
});

/** A database of its own per server: pg_stat_statements counts per database, so counts stay the server's own. */
async function serve(
  definition: (url: string) => ServerDefinition,
): Promise<{ server: RunningServer; database: VerifierDatabase }> {
  const started = await clusterStarted;
  const url = await started.createDatabase(`tfb_verify_${++databases}`);
  const server = await startServer(definition(url), { cpu: undefined, env: {}, timeoutMs: 60_000 });
  return { server, database: new VerifierDatabase(url) };
}

for (const implementation of IMPLEMENTATIONS) {
  for (const driver of ['pg', 'postgres'] as const) {
    if (driver === 'pg' && implementation.id !== 'raw-uws' && implementation.id !== 'rest-uws') continue;
    const reason = unavailableReason(variantServer({ implementation, driver, pool: 2 }, ''));
    // Installed apart, on demand (setup/peers.ts); the README's test command installs them, and in CI a missing one fails.
    if (implementation.peer && reason && process.env.CI !== 'true') continue;
    test.serial(`${implementation.label} on ${driver} passes the six test types' verification`, async (t) => {
      t.timeout(120_000);
      t.is(reason, undefined, `${implementation.id} cannot run: ${reason}`);
      const { server, database } = await serve((url) => variantServer({ implementation, driver, pool: 2 }, url));
      t.teardown(async () => {
        await server.stop();
        await database.close();
      });
      for (const type of createTestTypes(database))
        await t.notThrowsAsync(type.check(server.baseUrl), `type ${type.id} ${type.key}`);
      t.true(server.alive(), 'the server is still running after the checks');
    });
  }
}

const BROKEN: ReadonlyArray<[Fault, TestTypeKey, RegExp]> = [
  ['unsorted-fortunes', 'fortunes', /line 5 of the page .*<tr><td>11<\/td>.* got .*<tr><td>1<\/td><td>fortune:/],
  ['unescaped-fortunes', 'fortunes', /<tr><td>11<\/td><td><\/td><\/tr>/],
  ['no-extra-fortune', 'fortunes', /line 10 of the page .*<tr><td>0<\/td><td>Additional fortune/],
  ['clamping', 'queries', /GET \/queries\?queries=0 array length: expected 1, got 0/],
  ['no-server-header', 'json', /Server header/],
  ['fake-updates', 'updates', /read back/],
  ['one-query-for-all', 'queries', /SELECTs of world for 5 requests of 20: expected 100, got 5/],
  ['cached-fortunes', 'fortunes', /SELECTs of fortune for 5 requests: expected 5, got 0/],
];

for (const [fault, key, message] of BROKEN) {
  test.serial(`an implementation with ${fault} fails the ${key} verification`, async (t) => {
    t.timeout(60_000);
    const { server, database } = await serve((url) => ({
      id: `broken-${fault}`,
      label: `broken (${fault})`,
      file: path.resolve(__dirname, 'support', 'broken-techempower-server.js'),
      env: { TFB_DATABASE_URL: url, TFB_DRIVER: 'postgres', TFB_POOL: '2', TFB_BROKEN: fault },
    }));
    t.teardown(async () => {
      await server.stop();
      await database.close();
    });
    const type = createTestTypes(database).find((candidate) => candidate.key === key)!;
    const error = await t.throwsAsync(type.check(server.baseUrl));
    t.regex(error?.message ?? '', message);
  });
}
