/**
 * Recognises driver errors that mean "the database cannot serve right now" (as opposed to a bug or a refused
 * statement): PostgreSQL down, restarting or out of connections, a connection cut or timed out, a statement cancelled
 * by `statement_timeout`, SQLite's write lock held past the busy timeout. The HTTP layer answers them 503, since the
 * same request may well succeed a moment later.
 */

/** Socket errors of the connection to PostgreSQL (Node's `code`). */
const SOCKET_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** PostgreSQL SQLSTATEs: server shutting down or starting, too many connections, statement cancelled by timeout. */
const SQLSTATES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** SQLite: another connection held the write lock longer than the busy timeout. */
const SQLITE_CODES: ReadonlySet<string> = new Set([
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_TIMEOUT',
  'SQLITE_LOCKED',
]);

/** pg and pg-pool errors that carry no code, recognised by their fixed wording. */
const MESSAGES: readonly RegExp[] = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /is not queryable/,
  /^Cannot use a pool after calling end on the pool$/,
  /^Client was closed and is not queryable$/,
];

function oneIsUnavailable(error: { code?: unknown; message?: unknown }): boolean {
  const code = typeof error.code === 'string' ? error.code : '';
  if (SOCKET_CODES.has(code) || SQLSTATES.has(code) || SQLITE_CODES.has(code)) return true;
  // SQLSTATE class 08: connection exceptions.
  if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  const message = typeof error.message === 'string' ? error.message : '';
  return MESSAGES.some((pattern) => pattern.test(message));
}

/** True when `error`, or an error it wraps (`cause`, AggregateError's `errors`), says the database is unavailable. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  if (oneIsUnavailable(error as { code?: unknown; message?: unknown })) return true;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (isDatabaseUnavailable(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
