/** The servers the harness can run: one file per framework in this folder, each started in its own process. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isPeerInstalled, type PeerName } from '../setup/peers';

export interface ServerDefinition {
  id: string;
  label: string;
  /** Compiled entry file, relative to dist/src/servers/ (or absolute: a server of another checkout, see baselineServer). */
  file: string;
  /** Installed apart (see setup/peers.ts). */
  peer?: PeerName;
  /** More environment for the server process (TechEmpower's servers: the database, driver and pool). */
  env?: Record<string, string>;
}

export const SERVERS: ServerDefinition[] = [
  { id: 'raw-uws', label: 'uWebSockets.js (raw)', file: 'raw-uws.js' },
  { id: 'rest-uws', label: 'rest.uws', file: 'rest-uws.js' },
  { id: 'rest-uws-idiomatic', label: 'rest.uws (idiomatic)', file: 'rest-uws-idiomatic.js' },
  { id: 'rest-uws-plugins', label: 'rest.uws (every plugin, unused)', file: 'rest-uws-plugins.js' },
  { id: 'fastify', label: 'Fastify 5', file: 'fastify.js' },
  { id: 'express', label: 'Express 5', file: 'express.js' },
  { id: 'nest-express', label: 'NestJS 11 (Express)', file: 'nest-express.js' },
  { id: 'nest-fastify', label: 'NestJS 11 (Fastify)', file: 'nest-fastify.js' },
  { id: 'routing-controllers', label: 'routing-controllers', file: 'routing-controllers.js' },
  { id: 'hono', label: 'Hono 4 (Node)', file: 'hono.js' },
  { id: 'elysia', label: 'Elysia 1.4 (Node)', file: 'elysia.js' },
  { id: 'hyper-express', label: 'hyper-express 6', file: 'hyper-express.js', peer: 'hyper-express' },
  { id: 'ultimate-express', label: 'ultimate-express 2', file: 'ultimate-express.js', peer: 'ultimate-express' },
];

export const RAW_SERVER_ID = 'raw-uws';
export const REST_UWS_SERVER_ID = 'rest-uws';
/** rest.uws written from the getting-started guide, `@Produces` on every route (issue 21). */
export const IDIOMATIC_SERVER_ID = 'rest-uws-idiomatic';
export const FASTIFY_SERVER_ID = 'fastify';
/** The bench app with every production plugin registered and unused by its routes (issue 20). */
export const PLUGINS_SERVER_ID = 'rest-uws-plugins';

export function serverEntryPath(server: ServerDefinition): string {
  return path.resolve(__dirname, server.file);
}

/** Suffix of a server run from the checkout given with `--baseline` (the code before a change). */
export const BASELINE_SUFFIX = '@before';

/**
 * The same server built in another checkout of the repository (its benchmarks/ built with `npx tsc -b`):
 * before/after comparisons of a change run both in one interleaved run. Its rest.uws is that checkout's.
 */
export function baselineServer(server: ServerDefinition, checkout: string): ServerDefinition {
  const compiled = path.relative(path.resolve(__dirname, '..', '..', '..'), path.resolve(__dirname, server.file));
  return {
    ...server,
    id: `${server.id}${BASELINE_SUFFIX}`,
    label: `${server.label} (before)`,
    file: path.resolve(checkout, 'benchmarks', compiled),
  };
}

/** Why a server cannot run here, or undefined when it can. */
export function unavailableReason(server: ServerDefinition): string | undefined {
  if (!fs.existsSync(serverEntryPath(server)))
    return `${server.file} is not built (the server file does not exist yet)`;
  if (server.peer && !isPeerInstalled(server.peer))
    return `${server.peer} is not installed: run \`npm run bench -- --setup\``;
  return undefined;
}

export function findServer(id: string): ServerDefinition {
  const server = SERVERS.find((candidate) => candidate.id === id);
  if (!server) throw new Error(`unknown server "${id}"; known: ${SERVERS.map((candidate) => candidate.id).join(', ')}`);
  return server;
}
