import crypto from 'node:crypto';
import { generateKey, hashSecret, verifySecret, type Clock } from 'app-support';
import type { Partner } from './partner';
import type { PartnerRepository, StoredApiKey } from '../storage/partner-repository';

/** Prefix of the keys this service issues (the partner API uses pk_ for production keys). */
export const KEY_PREFIX = 'pk';

export interface IssuedKey {
  partner: Partner;
  keyId: string;
  /** Shown once; only its SHA-256 is stored. */
  key: string;
}

/** API keys of partners: issued, listed, revoked, and resolved to the partner on every request. */
export class PartnerKeys {
  constructor(
    private readonly partners: PartnerRepository,
    private readonly clock: Clock,
  ) {}

  async issueKey(partnerName: string): Promise<IssuedKey> {
    const name = partnerName.trim();
    if (!/^[\w .@&'-]{1,100}$/.test(name)) {
      throw new Error(`Invalid partner name "${partnerName}": 1 to 100 letters, digits, spaces or . @ & ' - _`);
    }
    const now = this.clock.now();
    const partner = await this.partners.ensurePartner(`ptn_${crypto.randomBytes(6).toString('hex')}`, name, now);
    const key = generateKey(KEY_PREFIX);
    const keyId = `key_${crypto.randomBytes(6).toString('hex')}`;
    await this.partners.insertKey({
      id: keyId,
      partnerId: partner.id,
      keyHash: hashSecret(key),
      keyHint: `${key.slice(0, 7)}...`,
      createdAt: now,
    });
    return { partner, keyId, key };
  }

  listKeys(): Promise<StoredApiKey[]> {
    return this.partners.listKeys();
  }

  /** Revokes a key; the next request with it gets 401. */
  async revokeKey(keyId: string): Promise<'revoked' | 'already-revoked' | 'unknown'> {
    if (await this.partners.revokeKey(keyId, this.clock.now())) return 'revoked';
    return (await this.partners.keyExists(keyId)) ? 'already-revoked' : 'unknown';
  }

  /** The partner owning an active key, or undefined for a missing, malformed, unknown or revoked key. */
  async authenticate(key: string | undefined): Promise<Partner | undefined> {
    if (!key || key.length > 200) return undefined;
    const found = await this.partners.findPartnerByKeyHash(hashSecret(key));
    if (!found || !verifySecret(key, found.keyHash)) return undefined;
    return { id: found.id, name: found.name };
  }
}
