/**
 * The TechEmpower implementations (one file each in servers/), and the variants a run measures: every implementation
 * with every driver and pool size asked for, so that rest.uws and its peers are compared with the same driver and
 * pool, and drivers and pool sizes against each other.
 */
import * as path from 'node:path';
import type { ServerDefinition } from '../servers/registry';
import type { PeerName } from '../setup/peers';
import type { Driver } from './support/world-store';

export interface Implementation {
  id: string;
  label: string;
  /** Compiled entry file in dist/src/techempower/servers/. */
  file: string;
  peer?: PeerName;
}

export const RAW_IMPLEMENTATION = 'raw-uws';
export const REST_UWS_IMPLEMENTATION = 'rest-uws';
export const FASTIFY_IMPLEMENTATION = 'fastify';

export const IMPLEMENTATIONS: Implementation[] = [
  { id: RAW_IMPLEMENTATION, label: 'uWebSockets.js (raw)', file: 'raw-uws.js' },
  { id: REST_UWS_IMPLEMENTATION, label: 'rest.uws', file: 'rest-uws.js' },
  { id: FASTIFY_IMPLEMENTATION, label: 'Fastify 5', file: 'fastify.js' },
  { id: 'nest-fastify', label: 'NestJS 11 (Fastify)', file: 'nest-fastify.js' },
  { id: 'hyper-express', label: 'hyper-express', file: 'hyper-express.js', peer: 'hyper-express' },
  { id: 'ultimate-express', label: 'ultimate-express', file: 'ultimate-express.js', peer: 'ultimate-express' },
  { id: 'elysia', label: 'Elysia 1.4 (Node)', file: 'elysia.js' },
];

/** Deliberately wrong implementations: the verifier test shows each fails (never measured). */
export const BROKEN_FILE = 'broken.js';

export interface Variant {
  implementation: Implementation;
  driver: Driver;
  pool: number;
}

export function findImplementation(id: string): Implementation {
  const found = IMPLEMENTATIONS.find((candidate) => candidate.id === id);
  if (!found)
    throw new Error(`unknown implementation "${id}"; known: ${IMPLEMENTATIONS.map((known) => known.id).join(', ')}`);
  return found;
}

export function implementationPath(file: string): string {
  return path.resolve(__dirname, 'servers', file);
}

/** `rest-uws:postgres:4`: the implementation, driver and pool of a variant, as the run's server id. */
export function variantId(variant: Variant): string {
  return `${variant.implementation.id}:${variant.driver}:${variant.pool}`;
}

export function parseVariantId(id: string): { implementation: string; driver: string; pool: number } {
  const [implementation, driver, pool] = id.split(':');
  return { implementation: implementation!, driver: driver!, pool: Number(pool) };
}

export function variantLabel(id: string): string {
  const { implementation, driver, pool } = parseVariantId(id);
  const label = IMPLEMENTATIONS.find((candidate) => candidate.id === implementation)?.label ?? implementation;
  return `${label}, ${driver} ×${pool}`;
}

/** A variant as the harness's runner starts it: an absolute entry file and the database settings in its environment. */
export function variantServer(variant: Variant, databaseUrl: string): ServerDefinition {
  return {
    id: variantId(variant),
    label: variantLabel(variantId(variant)),
    file: implementationPath(variant.implementation.file),
    peer: variant.implementation.peer,
    env: { TFB_DATABASE_URL: databaseUrl, TFB_DRIVER: variant.driver, TFB_POOL: String(variant.pool) },
  };
}
