import path from 'node:path';
import { readFlag, readServerConfig, type ServerConfig } from 'app-support';

/** The embedded default: a SQLite file in the app's data folder (git-ignored). */
export const DEFAULT_DATABASE_FILE = path.resolve(__dirname, '..', '..', 'data', 'booking.db');
export const DEFAULT_PORT = 8081;

export interface BookingConfig extends ServerConfig {
  /** Base of absolute links (voucher, tickets); PUBLIC_BASE_URL or --public-url, else http://localhost:<port>. */
  publicBaseUrl: string | undefined;
}

/** Port, host and database from flags (--port, --host, --database) or BOOKING_* / generic env variables. */
export function readBookingConfig(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): BookingConfig {
  const server = readServerConfig({ port: DEFAULT_PORT, databaseUrl: DEFAULT_DATABASE_FILE, envPrefix: 'BOOKING' }, argv, env);
  const publicBaseUrl = readFlag(argv, 'public-url') ?? env.BOOKING_PUBLIC_BASE_URL ?? env.PUBLIC_BASE_URL;
  if (publicBaseUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(publicBaseUrl)) {
    throw new Error(`Invalid public base URL "${publicBaseUrl}": expected http(s)://host[:port]`);
  }
  return { ...server, publicBaseUrl: publicBaseUrl?.replace(/\/+$/, '') };
}
