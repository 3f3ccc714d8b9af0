/**
 * The data layer every implementation shares, so that a comparison measures the framework and not the SQL: one
 * driver and one pool size per run, from the environment the runner gives each server (TFB_DATABASE_URL, TFB_DRIVER,
 * TFB_POOL). Each row is read by its own query (the rules forbid `IN (...)`); the updates of one request go in one
 * statement (the rules allow batching the updates only), ids sorted so concurrent requests lock rows in one order.
 */
import pg from 'pg';
import postgres from 'postgres';
import type { Fortune, World } from '../contract';

export const DRIVERS = ['pg', 'postgres'] as const;
export type Driver = (typeof DRIVERS)[number];

export interface StoreSettings {
  url: string;
  driver: Driver;
  /** Connections in the pool. */
  pool: number;
}

export interface WorldStore {
  find(id: number): Promise<World>;
  fortunes(): Promise<Fortune[]>;
  /** Writes each world's randomNumber. */
  update(worlds: readonly World[]): Promise<void>;
  close(): Promise<void>;
}

const SELECT_WORLD = 'SELECT id, randomnumber AS "randomNumber" FROM world WHERE id = $1';
const SELECT_FORTUNES = 'SELECT id, message FROM fortune';
// One statement for any number of rows: the ids and numbers as two int arrays, joined by position.
const UPDATE_WORLDS =
  'UPDATE world SET randomnumber = v.r FROM unnest($1::int[], $2::int[]) AS v(id, r) WHERE world.id = v.id';

/** The two arrays of an update, in PostgreSQL's array text form, ids ascending. */
function updateArrays(worlds: readonly World[]): [string, string] {
  const sorted = [...worlds].sort((a, b) => a.id - b.id);
  return [`{${sorted.map((world) => world.id).join(',')}}`, `{${sorted.map((world) => world.randomNumber).join(',')}}`];
}

function notFound(id: number): Error {
  return new Error(`world ${id} not found`);
}

/** node-postgres: a pool of connections, one query at a time on each; named statements are prepared once per connection. */
function pgStore(settings: StoreSettings): WorldStore {
  const pool = new pg.Pool({ connectionString: settings.url, max: settings.pool });
  pool.on('error', (error) => console.error(`pg pool: ${error.message}`));
  return {
    async find(id) {
      const result = await pool.query<World>({ name: 'world', text: SELECT_WORLD, values: [id] });
      const row = result.rows[0];
      if (!row) throw notFound(id);
      return row;
    },
    async fortunes() {
      return (await pool.query<Fortune>({ name: 'fortunes', text: SELECT_FORTUNES })).rows;
    },
    async update(worlds) {
      await pool.query({ name: 'update', text: UPDATE_WORLDS, values: updateArrays(worlds) });
    },
    close: () => pool.end(),
  };
}

/** Postgres.js: queries pipelined on each connection (each with its own Sync), prepared statements by default. */
function postgresStore(settings: StoreSettings): WorldStore {
  const sql = postgres(settings.url, { max: settings.pool, fetch_types: false, onnotice: () => undefined });
  return {
    async find(id) {
      const rows = await sql.unsafe<World[]>(SELECT_WORLD, [id], { prepare: true });
      const row = rows[0];
      if (!row) throw notFound(id);
      return row;
    },
    async fortunes() {
      return [...(await sql.unsafe<Fortune[]>(SELECT_FORTUNES, [], { prepare: true }))];
    },
    async update(worlds) {
      await sql.unsafe(UPDATE_WORLDS, updateArrays(worlds), { prepare: true });
    },
    close: () => sql.end({ timeout: 1 }),
  };
}

export function openWorldStore(settings: StoreSettings): WorldStore {
  return settings.driver === 'pg' ? pgStore(settings) : postgresStore(settings);
}

/** The store the runner asked this server process for. */
export function storeFromEnvironment(env: NodeJS.ProcessEnv = process.env): WorldStore {
  const url = env.TFB_DATABASE_URL;
  if (!url) throw new Error('TFB_DATABASE_URL is not set: start TechEmpower servers through the runner');
  const driver = (env.TFB_DRIVER ?? 'postgres') as Driver;
  if (!DRIVERS.includes(driver)) throw new Error(`TFB_DRIVER must be one of ${DRIVERS.join(', ')}, got ${driver}`);
  const pool = Number(env.TFB_POOL ?? '4');
  if (!Number.isInteger(pool) || pool < 1) throw new Error(`TFB_POOL must be a whole number >= 1, got ${env.TFB_POOL}`);
  return openWorldStore({ url, driver, pool });
}
