import { readFlag } from './command-line-flags';
import { redactDatabaseUrl } from '../database/database-url';

export interface ServerConfig {
  host: string;
  port: number;
  databaseUrl: string;
}

export interface ServerConfigDefaults {
  port: number;
  /** Default database: usually a SQLite file under the app's data folder. */
  databaseUrl: string;
  host?: string;
  /** Prefix for app-specific environment variables (BOOKING_PORT...), tried before the generic PORT. */
  envPrefix?: string;
}

function parsePort(value: string, source: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`Invalid port "${value}" from ${source}: expected an integer from 0 to 65535`);
  }
  return port;
}

/**
 * Port, host and database of a server. Order: flags (--port, --host, --database), then
 * <PREFIX>_PORT / <PREFIX>_HOST / <PREFIX>_DATABASE_URL, then PORT / HOST / DATABASE_URL, then the defaults.
 */
export function readServerConfig(
  defaults: ServerConfigDefaults,
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): ServerConfig {
  return serverConfigFrom(
    defaults,
    { port: readFlag(argv, 'port'), host: readFlag(argv, 'host'), database: readFlag(argv, 'database') },
    env,
  );
}

/** The flags of a server's location, already parsed (node:util parseArgs). */
export interface ServerFlags {
  port?: string;
  host?: string;
  database?: string;
}

/** readServerConfig for flags an app has parsed itself: the same order (flags, prefixed env, env, defaults) and checks. */
export function serverConfigFrom(
  defaults: ServerConfigDefaults,
  flags: ServerFlags,
  env: NodeJS.ProcessEnv = process.env,
): ServerConfig {
  const prefixed = (name: string) => (defaults.envPrefix ? env[`${defaults.envPrefix}_${name}`] : undefined);
  const pick = (flag: keyof ServerFlags, envName: string): [string, string] | undefined => {
    const fromFlag = flags[flag];
    if (fromFlag !== undefined) return [fromFlag, `--${flag}`];
    const fromPrefixed = prefixed(envName);
    if (fromPrefixed) return [fromPrefixed, `${defaults.envPrefix}_${envName}`];
    const fromEnv = env[envName];
    if (fromEnv) return [fromEnv, envName];
    return undefined;
  };
  const port = pick('port', 'PORT');
  const host = pick('host', 'HOST');
  const database = pick('database', 'DATABASE_URL');
  return {
    port: port ? parsePort(port[0], port[1]) : defaults.port,
    host: host ? host[0] : (defaults.host ?? '0.0.0.0'),
    databaseUrl: database ? database[0] : defaults.databaseUrl,
  };
}

/** One line for the start-up log; the database password is masked. */
export function describeServerConfig(appName: string, config: ServerConfig, listeningPort = config.port): string {
  return `${appName}: listening on http://${config.host}:${listeningPort}, database ${redactDatabaseUrl(config.databaseUrl)}`;
}
