import { trustProxy, type TrustSetting } from 'rest.uws';

/**
 * The operational settings the reference apps share, read from a flag or an environment variable (the caller
 * picks which and names it in `source`, for the error message): trust proxy, a rate limit, the log level.
 * Mistakes fail at startup with the value and where it came from.
 */

/** `--trust-proxy` as text: off (the default), a hop count, or addresses and ranges. */
export type TrustProxySetting = false | TrustSetting;

/**
 * Reads a trust proxy setting: absent, empty, `off` or `false` trust nothing; a whole number trusts that many
 * hops (`1`: one load balancer); anything else is a comma-separated list of addresses, CIDR ranges and the names
 * `loopback`, `linklocal`, `uniquelocal` (`10.0.0.0/8,loopback`). Checked now by rest.uws's own parser.
 */
export function parseTrustProxy(text: string | undefined, source: string): TrustProxySetting {
  const value = text?.trim() ?? '';
  if (value === '' || value === 'off' || value === 'false') return false;
  const setting: TrustSetting = /^\d+$/.test(value) ? Number(value) : value;
  try {
    trustProxy(setting);
  } catch (error) {
    const reason = (error as Error).message.replace(/^rest\.uws: trustProxy: /, '');
    throw new Error(
      `Invalid ${source} "${value}": ${reason} (expected off, a hop count, or addresses and ranges such as 10.0.0.0/8,loopback)`,
    );
  }
  return setting;
}

/** What a `--trust-proxy` setting means, for the start-up line. */
export function describeTrustProxy(setting: TrustProxySetting): string {
  if (setting === false) return 'off (forwarding headers ignored)';
  if (typeof setting === 'number') return `${setting} hop${setting === 1 ? '' : 's'}`;
  return String(setting);
}

/** Largest per-minute limit accepted (a typo such as an extra zero stays visible in the start-up line). */
export const MAX_REQUESTS_PER_MINUTE = 10_000_000;

/**
 * Reads a per-minute request limit: a whole number from 1 to 10 000 000, or `off` (no limit). Absent or empty
 * gives `fallback`.
 */
export function parseRequestsPerMinute(
  text: string | undefined,
  source: string,
  fallback: number | false,
): number | false {
  const value = text?.trim() ?? '';
  if (value === '') return fallback;
  if (value === 'off') return false;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < 1 || limit > MAX_REQUESTS_PER_MINUTE) {
    throw new Error(
      `Invalid ${source} "${value}": expected requests per minute, a whole number from 1 to ${MAX_REQUESTS_PER_MINUTE}, or off`,
    );
  }
  return limit;
}

/** Levels of the apps' logs, the `Logger` methods. */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

/** Reads a log level (`info` writes one access line per request; `warn` only problems); absent gives `fallback`. */
export function parseLogLevel(text: string | undefined, source: string, fallback: LogLevel): LogLevel {
  const value = text?.trim() ?? '';
  if (value === '') return fallback;
  if (!(LOG_LEVELS as readonly string[]).includes(value))
    throw new Error(`Invalid ${source} "${value}": expected ${LOG_LEVELS.join(', ')}`);
  return value as LogLevel;
}
