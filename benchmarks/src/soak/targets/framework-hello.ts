/**
 * framework-hello: the benchmark's rest.uws server (servers/rest-uws.ts: the resource class, the 1,000
 * generated routes and the static folder, built through the public API) answering `GET /hello` at full
 * speed, 64 connections writing 10 requests at a time. No database: the framework alone.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HELLO_BODY, HELLO_PATH } from '../../contract/routes';
import { prepareFixtures } from '../../runner/fixtures';
import { READY_PREFIX } from '../../servers/support/server-environment';
import { findServer, serverEntryPath } from '../../servers/registry';
import { startAppProcess } from '../process/app-process';
import type { SoakTarget } from '../soak-target';

const SERVER = findServer('rest-uws');

function readyPort(line: string): number | undefined {
  if (!line.startsWith(READY_PREFIX)) return undefined;
  return (JSON.parse(line.slice(READY_PREFIX.length)) as { port: number }).port;
}

export const frameworkHello: SoakTarget = {
  id: 'framework-hello',
  label: 'rest.uws GET /hello, pipelined',
  defaultLoad: { threads: 1, connections: 64, pipeline: 10, requestsPerSecLimit: undefined },
  pinServerByDefault: true,
  unavailableReason: () =>
    fs.existsSync(serverEntryPath(SERVER))
      ? undefined
      : `${serverEntryPath(SERVER)} is not built: npx tsc -b benchmarks`,

  async prepare(context) {
    const fixtures = prepareFixtures(path.join(context.workDir, 'fixtures'));
    const server = await startAppProcess({
      name: 'framework-hello',
      args: [serverEntryPath(SERVER)],
      nodeFlags: context.nodeFlags,
      cwd: context.serverCwd,
      env: { BENCH_PORT: '0', BENCH_STATIC_DIR: fixtures.staticDir },
      cpu: context.serverCpu,
      portFromLine: readyPort,
      timeoutMs: 60_000,
    });
    const expected = JSON.stringify(HELLO_BODY);
    return {
      server,
      description: `GET ${HELLO_PATH}, ${context.load.connections} connections writing ${context.load.pipeline} requests at a time, as fast as the server answers`,
      plan: {
        script: 'hello-pipelined.lua',
        url: server.baseUrl,
        threads: context.load.threads,
        connections: context.load.connections,
        pipeline: context.load.pipeline,
        requestsPerSecLimit: undefined,
        scriptArgs: [`path=${HELLO_PATH}`, `pipeline=${context.load.pipeline}`],
        stateFile: undefined,
      },
      // wrk does not read the bodies at this speed; the runner does, once per interval.
      async check() {
        const response = await fetch(`${server.baseUrl}${HELLO_PATH}`);
        const body = await response.text();
        if (response.status !== 200 || body !== expected)
          return `GET ${HELLO_PATH} answered ${response.status} ${body.slice(0, 200)}`;
        return undefined;
      },
    };
  },
};
