// Shared building blocks of the reference apps: database access, throwaway PostgreSQL, LISTEN/NOTIFY, secrets, config, clock.
export { openDatabase, type Database, type DatabaseDialect, type OpenDatabaseOptions } from './database/open-database';
export { DEFAULT_POSTGRES_POOL_SIZE, type PostgresPoolOptions } from './database/postgres-dialect';
export { migrateToLatest, type AppMigration } from './database/migrations';
export { parseDatabaseUrl, redactDatabaseUrl, type DatabaseLocation } from './database/database-url';
export { SQLITE_BUSY_TIMEOUT_MS } from './database/sqlite-dialect';
export {
  startThrowawayPostgres,
  createDatabaseAt,
  dropDatabaseAt,
  type ThrowawayPostgres,
  type ThrowawayPostgresOptions,
} from './postgres/throwaway-postgres';
export { postgresForTests, type TestPostgresDatabase } from './postgres/postgres-for-tests';
export { findPostgresBinaries, POSTGRES_INSTALL_COMMAND } from './postgres/postgres-binaries';
export { findFreePort } from './postgres/free-port';
export { PostgresNoticeListener, type NoticeHandlers, type NoticeListenerOptions } from './postgres/notice-listener';
export { generateKey, hashSecret, verifySecret } from './secrets/secrets';
export { readFlag } from './config/command-line-flags';
export {
  readServerConfig,
  serverConfigFrom,
  describeServerConfig,
  type ServerConfig,
  type ServerConfigDefaults,
  type ServerFlags,
} from './config/server-config';
export { systemClock, ManualClock, type Clock } from './time/clock';
export {
  runKeysCommand,
  runKeysCommandAsMain,
  keysUsage,
  keyState,
  type KeysCommandSpec,
  type KeysCommandStore,
} from './cli/keys-command';
export {
  parseTrustProxy,
  describeTrustProxy,
  parseRequestsPerMinute,
  parseLogLevel,
  MAX_REQUESTS_PER_MINUTE,
  type TrustProxySetting,
  type LogLevel,
} from './operations/operations-settings';
export {
  databaseReadinessCheck,
  appRateLimitStore,
  DATABASE_CHECK_TIMEOUT_MS,
  type AppRateLimitStore,
} from './operations/database-operations';
export {
  useOperations,
  rateLimitStoreOptions,
  type OperationsOptions,
  type AppRateLimit,
} from './operations/operations-plugins';
