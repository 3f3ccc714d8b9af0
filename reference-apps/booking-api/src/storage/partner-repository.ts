import type { Kysely } from 'kysely';
import type { BookingSchema } from './schema';

export interface StoredPartner {
  id: string;
  name: string;
}

export interface StoredApiKey {
  id: string;
  partnerId: string;
  partnerName: string;
  keyHint: string;
  createdAt: number;
  revokedAt: number | null;
}

export class PartnerRepository {
  constructor(private readonly db: Kysely<BookingSchema>) {}

  async findPartnerByName(name: string): Promise<StoredPartner | undefined> {
    return this.db.selectFrom('partner').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
  }

  /** Inserts the partner unless the name exists; returns the stored one either way. */
  async ensurePartner(id: string, name: string, now: number): Promise<StoredPartner> {
    await this.db
      .insertInto('partner')
      .values({ id, name, created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const partner = await this.findPartnerByName(name);
    if (!partner) throw new Error(`partner ${name} vanished right after insert`);
    return partner;
  }

  async insertKey(key: {
    id: string;
    partnerId: string;
    keyHash: string;
    keyHint: string;
    createdAt: number;
  }): Promise<void> {
    await this.db
      .insertInto('api_key')
      .values({
        id: key.id,
        partner_id: key.partnerId,
        key_hash: key.keyHash,
        key_hint: key.keyHint,
        created_at: key.createdAt,
        revoked_at: null,
      })
      .execute();
  }

  /** The partner owning an active (not revoked) key with this hash. */
  async findPartnerByKeyHash(keyHash: string): Promise<(StoredPartner & { keyHash: string }) | undefined> {
    return this.db
      .selectFrom('api_key')
      .innerJoin('partner', 'partner.id', 'api_key.partner_id')
      .select(['partner.id as id', 'partner.name as name', 'api_key.key_hash as keyHash'])
      .where('api_key.key_hash', '=', keyHash)
      .where('api_key.revoked_at', 'is', null)
      .executeTakeFirst();
  }

  async listKeys(): Promise<StoredApiKey[]> {
    const rows = await this.db
      .selectFrom('api_key')
      .innerJoin('partner', 'partner.id', 'api_key.partner_id')
      .select([
        'api_key.id as id',
        'partner.id as partnerId',
        'partner.name as partnerName',
        'api_key.key_hint as keyHint',
        'api_key.created_at as createdAt',
        'api_key.revoked_at as revokedAt',
      ])
      .orderBy('partner.name')
      .orderBy('api_key.created_at')
      .execute();
    return rows.map((row) => ({
      ...row,
      createdAt: Number(row.createdAt),
      revokedAt: row.revokedAt === null ? null : Number(row.revokedAt),
    }));
  }

  /** Revokes one key by its id; true when a key was active and is now revoked. */
  async revokeKey(keyId: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('api_key')
      .set({ revoked_at: now })
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async keyExists(keyId: string): Promise<boolean> {
    return (await this.db.selectFrom('api_key').select('id').where('id', '=', keyId).executeTakeFirst()) !== undefined;
  }
}
