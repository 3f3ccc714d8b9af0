/**
 * Every benchmark server answers every scenario right (statuses, bodies, refused input, the event),
 * so a change in a framework or in a server file cannot quietly turn the benchmark into a comparison
 * of wrong answers. hyper-express and ultimate-express are checked when `--setup` installed them.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareFixtures } from '../src/runner/fixtures';
import { startServer } from '../src/runner/server-process';
import { createScenarios } from '../src/scenarios/scenarios';
import { SERVERS, unavailableReason } from '../src/servers/registry';

const fixturesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-servers-'));
const fixtures = prepareFixtures(fixturesDir);
const scenarios = createScenarios(fixtures);
test.after.always(() => fs.rmSync(fixturesDir, { recursive: true, force: true }));

for (const definition of SERVERS) {
  const reason = unavailableReason(definition);
  if (definition.peer && reason) continue; // installed apart, on demand (see setup/peers.ts)
  test.serial(`${definition.label} answers all six scenarios as the contract says`, async (t) => {
    t.timeout(90_000);
    t.is(reason, undefined, `${definition.id} cannot run: ${reason}`);
    const server = await startServer(definition, {
      cpu: undefined,
      env: { BENCH_STATIC_DIR: fixtures.staticDir },
      timeoutMs: 60_000,
    });
    t.teardown(() => server.stop());
    for (const scenario of scenarios)
      await t.notThrowsAsync(scenario.check(server.baseUrl), `#${scenario.id} ${scenario.key}`);
    t.true(server.alive(), 'the server is still running after the checks');
  });
}
