import path from 'node:path';

/** Where a database lives, parsed from a URL or a plain file path. */
export type DatabaseLocation =
  | { dialect: 'sqlite'; file: string } // file is ':memory:' for an in-memory database
  | { dialect: 'postgres'; connectionString: string };

export const IN_MEMORY = ':memory:';

/**
 * Accepted forms:
 * - `postgres://...` or `postgresql://...`            PostgreSQL through `pg`
 * - `sqlite::memory:`, `:memory:`                     SQLite in memory
 * - `sqlite:relative/or/absolute/path.db`, `sqlite:///abs/path.db`, `file:path.db`
 * - any other string                                  a SQLite file path
 * An empty or missing URL means SQLite in memory.
 */
export function parseDatabaseUrl(url: string | undefined): DatabaseLocation {
  const value = (url ?? '').trim();
  if (value === '' || value === IN_MEMORY || value === 'sqlite::memory:' || value === 'sqlite://:memory:') {
    return { dialect: 'sqlite', file: IN_MEMORY };
  }
  if (/^postgres(ql)?:\/\//i.test(value)) {
    return { dialect: 'postgres', connectionString: value };
  }
  const withoutScheme = value.replace(/^sqlite:(\/\/(?=\/))?/i, '').replace(/^file:/i, '');
  if (withoutScheme === '') {
    throw new Error(`Database URL "${url}" names no SQLite file; use sqlite::memory: or sqlite:<path>`);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(withoutScheme)) {
    throw new Error(
      `Database URL "${url}" has an unsupported scheme; use postgres://..., sqlite:<path> or a file path`,
    );
  }
  return { dialect: 'sqlite', file: path.resolve(withoutScheme) };
}

/** The URL with its password replaced, safe to print in logs. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]+:)[^@]*@/i, '$1***@');
}
