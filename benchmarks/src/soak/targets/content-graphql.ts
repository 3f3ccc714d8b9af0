/**
 * content-graphql: the GraphQL API as it ships (`node reference-apps/content-graphql/dist/src/main.js`) on a
 * fresh SQLite file and assets folder, with the demo content, result cache on (the default) and its default
 * limits. A private schema and its token are made with the app's access CLI (which also seeds the demo
 * content); the mix is in content-graphql-mix.ts and runs through lua/soak/mix.lua.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPOSITORY_ROOT } from '../../paths';
import { EXAMPLE_QUERY, EXAMPLE_VARIABLES } from '../../apps/content-graphql/example-query';
import { checkMixOnce, writeMixFile } from '../mix-file';
import { listeningPort, startAppProcess } from '../process/app-process';
import { runNodeCli } from '../process/cli-command';
import type { SoakTarget } from '../soak-target';
import { GRAPHQL_PATH, contentGraphqlMix } from './content-graphql-mix';

const APP_DIR = path.join(REPOSITORY_ROOT, 'reference-apps', 'content-graphql');
const MAIN = path.join(APP_DIR, 'dist', 'src', 'main.js');
const ACCESS_CLI = path.join(APP_DIR, 'dist', 'src', 'cli', 'access-cli.js');
const PRIVATE_SCHEMA = 'Soak partner app';
const PRIVATE_SCOPE = 'sections.*,volumes.*,globalsets.*,categorygroups.*,taggroups.*,usergroups.everyone';

export const contentGraphql: SoakTarget = {
  id: 'content-graphql',
  label: 'GraphQL queries on SQLite, result cache on',
  defaultLoad: { threads: 8, connections: 8, pipeline: 1, requestsPerSecLimit: undefined },
  pinServerByDefault: true,
  unavailableReason: () =>
    fs.existsSync(MAIN) && fs.existsSync(ACCESS_CLI)
      ? undefined
      : `${MAIN} is not built: npx tsc -b reference-apps/content-graphql`,

  async prepare(context) {
    const database = `sqlite:${path.join(context.workDir, 'content.db')}`;
    const assets = path.join(context.workDir, 'assets');
    const where = ['--database', database, '--assets', assets];
    await runNodeCli(ACCESS_CLI, ['schemas', 'create', PRIVATE_SCHEMA, '--scope', PRIVATE_SCOPE, ...where]);
    const created = await runNodeCli(ACCESS_CLI, [
      'tokens',
      'create',
      'soak-app',
      '--schema',
      PRIVATE_SCHEMA,
      ...where,
    ]);
    const token = (JSON.parse(created.stdout) as { token?: string }).token;
    if (!token) throw new Error(`tokens create printed no token: ${created.stdout.slice(0, 300)}`);

    const server = await startAppProcess({
      name: 'content-graphql',
      // The rate limit stays on (its memory is part of what a soak watches), far above the load's queries; the access
      // log off (a line per request would measure the pipe).
      args: [MAIN, '--host', '127.0.0.1', '--port', '0', ...where, '--rate-limit', '10000000', '--log-level', 'warn'],
      nodeFlags: context.nodeFlags,
      cwd: context.serverCwd,
      cpu: context.serverCpu,
      portFromLine: listeningPort,
      timeoutMs: 60_000,
    });
    try {
      // The example query generates the transformed image (immediately: true); the mix then fetches that file.
      const answer = await fetch(`${server.baseUrl}${GRAPHQL_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: EXAMPLE_QUERY, variables: EXAMPLE_VARIABLES, operationName: 'NewsFront' }),
      });
      const example = (await answer.json()) as {
        data?: { entries?: Array<{ featuredImage?: Array<{ url?: string }> }> };
      };
      const imageUrl = example.data?.entries?.[0]?.featuredImage?.[0]?.url;
      if (!imageUrl) throw new Error(`the example query gave no image URL: ${JSON.stringify(example).slice(0, 300)}`);
      const mix = contentGraphqlMix(token, new URL(imageUrl, server.baseUrl).pathname);
      await checkMixOnce(server.baseUrl, mix);
      const mixFile = path.join(context.workDir, 'mix.tsv');
      writeMixFile(mixFile, mix);
      const total = mix.reduce((sum, request) => sum + request.weight, 0);
      return {
        server,
        description:
          'GraphQL queries of the demo content, public and with a private token (from the access CLI), cached and with the cache bypassed: ' +
          mix.map((request) => `${request.kind} ${Math.round((request.weight / total) * 100)}%`).join(', '),
        plan: {
          script: 'mix.lua',
          url: server.baseUrl,
          threads: context.load.connections,
          connections: context.load.connections,
          pipeline: 1,
          requestsPerSecLimit: context.load.requestsPerSecLimit,
          scriptArgs: [`mix=${mixFile}`],
          stateFile: undefined,
        },
      };
    } catch (error) {
      await server.stop();
      throw error;
    }
  },
};
