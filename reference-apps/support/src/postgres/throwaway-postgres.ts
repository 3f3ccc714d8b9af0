import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { findPostgresBinaries } from './postgres-binaries';
import { findFreePort } from './free-port';

const execFileAsync = promisify(execFile);

/** The database superuser of a throwaway cluster (trust authentication on 127.0.0.1 only). */
export const THROWAWAY_USER = 'app';

export interface ThrowawayPostgres {
  /** URL of the cluster's default `postgres` database. */
  url: string;
  port: number;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /**
   * Stops the server but keeps its data (fault tests: the database goes away under a running app).
   * Open connections are ended (`pg_ctl stop -m fast`); new ones are refused until resumeServer().
   */
  pauseServer(): Promise<void>;
  /** Starts the paused server again on the same port with the same data. */
  resumeServer(): Promise<void>;
  /** Stops the server and deletes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** Database names are restricted so they need no quoting games. */
export function assertDatabaseName(name: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(
      `Invalid database name "${name}": use lower-case letters, digits and _ (at most 63, not starting with a digit)`,
    );
  }
}

export function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** CREATE DATABASE through the maintenance connection of `adminUrl`. */
export async function createDatabaseAt(adminUrl: string, name: string): Promise<string> {
  assertDatabaseName(name);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return databaseUrl(adminUrl, name);
}

/** DROP DATABASE ... WITH (FORCE): also ends connections a crashed test left open. */
export async function dropDatabaseAt(adminUrl: string, name: string): Promise<void> {
  assertDatabaseName(name);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** initdb refuses root: as root the server runs as Debian's `postgres` user. */
function commandAsServerUser(binary: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
}

async function run(binary: string, args: string[], cpu?: number): Promise<void> {
  const [asUser, userArgs] = commandAsServerUser(binary, args);
  // taskset execs the rest: the server and every backend it forks inherit the core.
  const [command, commandArgs] =
    cpu === undefined ? [asUser, userArgs] : ['taskset', ['-c', String(cpu), asUser, ...userArgs]];
  try {
    await execFileAsync(command, commandArgs, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stderr, stdout, message } = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${path.basename(binary)} failed: ${(stderr || stdout || message).trim()}`, { cause: error });
  }
}

export interface ThrowawayPostgresOptions {
  /** More server settings (`-c name=value`), e.g. `shared_preload_libraries: 'pg_stat_statements'`. */
  settings?: Record<string, string>;
  /** Core the server and its backends are pinned to (taskset), e.g. away from a benchmarked process. */
  cpu?: number;
}

/**
 * Starts a throwaway PostgreSQL cluster: initdb on a temp folder, server on a free 127.0.0.1 port,
 * fsync off (the data is disposable), stopped and deleted by stop() or, at the latest, when the process exits.
 */
export async function startThrowawayPostgres(options: ThrowawayPostgresOptions = {}): Promise<ThrowawayPostgres> {
  const { initdb, pgCtl } = findPostgresBinaries();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'throwaway-pg-'));
  const dataDir = path.join(root, 'data');
  const socketDir = path.join(root, 'socket');
  const logFile = path.join(root, 'server.log');
  fs.mkdirSync(socketDir);
  if (isRoot()) execFileSync('chown', ['-R', 'postgres:postgres', root]);

  const removeFolder = () => fs.rmSync(root, { recursive: true, force: true });
  try {
    await run(initdb, ['-D', dataDir, '-U', THROWAWAY_USER, '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  } catch (error) {
    removeFolder();
    throw error;
  }

  const stopSync = () => {
    const [command, args] = commandAsServerUser(pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    try {
      execFileSync(command, args, { stdio: 'ignore' });
    } catch {
      // already stopped
    }
    removeFolder();
  };

  const serverOptions = (candidate: number) =>
    [
      `-p ${candidate}`,
      `-k ${socketDir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      // Several test files (each with its own pool) share one cluster in CI.
      '-c max_connections=300',
      // Dynamic shared memory in files of the data folder, not /dev/shm: a cluster of its own is then immune to
      // whatever cleans /dev/shm (seen on a shared machine: another process's clean-up removed a running
      // cluster's segments and it shut down mid-suite).
      '-c dynamic_shared_memory_type=mmap',
      ...Object.entries(options.settings ?? {}).map(([name, value]) => `-c ${name}=${value}`),
    ].join(' ');
  const startOn = (candidate: number) =>
    run(pgCtl, ['-D', dataDir, '-o', serverOptions(candidate), '-l', logFile, '-w', '-t', '30', 'start'], options.cpu);

  // A port found free may be taken before the server binds it: try a few.
  let port = 0;
  let lastError: unknown;
  for (let attempt = 0; attempt < 5 && !port; attempt++) {
    const candidate = await findFreePort();
    try {
      await startOn(candidate);
      port = candidate;
    } catch (error) {
      lastError = error;
    }
  }
  if (!port) {
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : '';
    removeFolder();
    throw new Error(`Could not start throwaway PostgreSQL: ${(lastError as Error)?.message}\n${log}`);
  }

  // Never leave a server behind, even when the caller forgets stop(), the process exits early or is signalled
  // (ava ends a timed-out test process with SIGTERM). A signal is re-raised only if nobody else handles it.
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const onSignal = (signal: NodeJS.Signals) => {
    stopSync();
    removeHooks();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const removeHooks = () => {
    process.removeListener('exit', stopSync);
    for (const signal of signals) process.removeListener(signal, onSignal);
  };
  process.once('exit', stopSync);
  for (const signal of signals) process.on(signal, onSignal);
  const url = `postgres://${THROWAWAY_USER}@127.0.0.1:${port}/postgres`;
  let stopped: Promise<void> | undefined;
  return {
    url,
    port,
    createDatabase: (name) => createDatabaseAt(url, name),
    pauseServer: () => run(pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop']),
    resumeServer: () => startOn(port),
    stop: () =>
      (stopped ??= (async () => {
        removeHooks();
        try {
          await run(pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
        } finally {
          removeFolder();
        }
      })()),
  };
}
