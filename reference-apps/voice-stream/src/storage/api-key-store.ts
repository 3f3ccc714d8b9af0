import type { Kysely } from 'kysely';
import { generateKey, hashSecret } from 'app-support';
import { openVoiceDatabase } from './open-voice-database';
import type { VoiceSchema } from './voice-schema';

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
  /** `release` runs on close (the database, when this store opened it). */
  constructor(
    private readonly db: Kysely<VoiceSchema>,
    private readonly release: () => Promise<void> = async () => undefined,
  ) {}

  /** A store on its own connection to `databaseUrl` (closed with the store): the keys CLI and tests. */
  static async open(databaseUrl: string | undefined): Promise<ApiKeyStore> {
    const database = await openVoiceDatabase(databaseUrl);
    return new ApiKeyStore(database.db, () => database.destroy());
  }

  async create(label: string): Promise<{ id: string; key: string }> {
    const name = label.trim();
    if (name === '' || name.length > 200) throw new Error('A key needs a label of 1 to 200 characters');
    const key = generateKey(KEY_PREFIX);
    const id = `key_${hashSecret(key).slice(0, 12)}`;
    await this.db
      .insertInto('voice_api_keys')
      .values({ id, key_hash: hashSecret(key), label: name, created_at: Date.now(), revoked_at: null })
      .execute();
    return { id, key };
  }

  /** The owner of an active key, or undefined for an unknown or revoked key. */
  async verify(key: string): Promise<ApiKeyOwner | undefined> {
    const row = await this.db
      .selectFrom('voice_api_keys')
      .select(['id', 'label', 'revoked_at'])
      .where('key_hash', '=', hashSecret(key))
      .executeTakeFirst();
    if (!row || row.revoked_at !== null) return undefined;
    return { id: row.id, label: row.label };
  }

  async list(): Promise<ApiKeyListing[]> {
    const rows = await this.db.selectFrom('voice_api_keys').selectAll().orderBy('created_at').execute();
    return rows.map((row) => ({
      id: row.id,
      label: row.label,
      createdAt: Number(row.created_at),
      revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    }));
  }

  /** 'revoked', 'already' (was revoked before) or 'unknown'. */
  async revoke(id: string): Promise<'revoked' | 'already' | 'unknown'> {
    const row = await this.db
      .selectFrom('voice_api_keys')
      .select(['revoked_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return 'unknown';
    if (row.revoked_at !== null) return 'already';
    await this.db.updateTable('voice_api_keys').set({ revoked_at: Date.now() }).where('id', '=', id).execute();
    return 'revoked';
  }

  close(): Promise<void> {
    return this.release();
  }
}
