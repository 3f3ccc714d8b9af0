import { generateKey, hashSecret, migrateToLatest, openDatabase, type AppMigration, type Database } from 'app-support';

interface VoiceKeysSchema {
  voice_api_keys: {
    id: string;
    key_hash: string;
    label: string;
    created_at: number;
    revoked_at: number | null;
  };
}

/** Schema of the voice stream's own database (SQLite by default, PostgreSQL for scale). */
export const VOICE_MIGRATIONS: Record<string, AppMigration> = {
  '0001_voice_api_keys': {
    async up(db) {
      await db.schema
        .createTable('voice_api_keys')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('key_hash', 'text', (column) => column.notNull().unique())
        .addColumn('label', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
    },
  },
};

export interface ApiKeyOwner {
  readonly id: string;
  readonly label: string;
}

export interface ApiKeyListing extends ApiKeyOwner {
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

/** Key prefix: keys read `dvs_<43 base64url characters>` (256 random bits). */
const KEY_PREFIX = 'dvs';

/**
 * API keys for the session request. Only a SHA-256 hash of each key is stored (the keys are 256-bit random,
 * so a fast hash is safe and doubles as the lookup index); the key itself is shown once, at creation.
 */
export class ApiKeyStore {
  private constructor(private readonly database: Database<VoiceKeysSchema>) {}

  static async open(databaseUrl: string | undefined): Promise<ApiKeyStore> {
    const database = await openDatabase<VoiceKeysSchema>(databaseUrl);
    try {
      await migrateToLatest(database, VOICE_MIGRATIONS);
    } catch (error) {
      await database.destroy();
      throw error;
    }
    return new ApiKeyStore(database);
  }

  async create(label: string): Promise<{ id: string; key: string }> {
    const name = label.trim();
    if (name === '' || name.length > 200) throw new Error('A key needs a label of 1 to 200 characters');
    const key = generateKey(KEY_PREFIX);
    const id = `key_${hashSecret(key).slice(0, 12)}`;
    await this.database.db
      .insertInto('voice_api_keys')
      .values({ id, key_hash: hashSecret(key), label: name, created_at: Date.now(), revoked_at: null })
      .execute();
    return { id, key };
  }

  /** The owner of an active key, or undefined for an unknown or revoked key. */
  async verify(key: string): Promise<ApiKeyOwner | undefined> {
    const row = await this.database.db
      .selectFrom('voice_api_keys')
      .select(['id', 'label', 'revoked_at'])
      .where('key_hash', '=', hashSecret(key))
      .executeTakeFirst();
    if (!row || row.revoked_at !== null) return undefined;
    return { id: row.id, label: row.label };
  }

  async list(): Promise<ApiKeyListing[]> {
    const rows = await this.database.db.selectFrom('voice_api_keys').selectAll().orderBy('created_at').execute();
    return rows.map((row) => ({ id: row.id, label: row.label, createdAt: Number(row.created_at), revokedAt: row.revoked_at === null ? null : Number(row.revoked_at) }));
  }

  /** 'revoked', 'already' (was revoked before) or 'unknown'. */
  async revoke(id: string): Promise<'revoked' | 'already' | 'unknown'> {
    const row = await this.database.db.selectFrom('voice_api_keys').select(['revoked_at']).where('id', '=', id).executeTakeFirst();
    if (!row) return 'unknown';
    if (row.revoked_at !== null) return 'already';
    await this.database.db.updateTable('voice_api_keys').set({ revoked_at: Date.now() }).where('id', '=', id).execute();
    return 'revoked';
  }

  close(): Promise<void> {
    return this.database.destroy();
  }
}
