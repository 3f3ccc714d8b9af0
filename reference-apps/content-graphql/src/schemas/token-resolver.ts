import type { AccessStore, GqlSchemaRecord, GqlTokenRecord } from './access-store';
import { hashToken, PUBLIC_TOKEN } from './access-store';

export type SchemaResolution = { schema: GqlSchemaRecord; token: GqlTokenRecord } | { error: 'Invalid Authorization header' | 'Missing Authorization header' };

const LAST_USED_INTERVAL_MS = 60_000;

/**
 * Authorization header -> schema, as the CMS does it: every comma-separated part of the header is matched against
 * `Bearer <token>` (case-insensitive); a token that is unknown, disabled, expired or without a schema is
 * `Invalid Authorization header`; no token uses the public token, and when that is disabled or expired the answer is
 * `Missing Authorization header`. A malformed header (`Bearer: x`, `Basic ...`) counts as no token.
 * Tokens are held in memory and reloaded after any schema or token change.
 */
export class TokenResolver {
  private table: Promise<Map<string, { token: GqlTokenRecord; schema: GqlSchemaRecord | null }>> | null = null;
  private readonly lastTouched = new Map<number, number>();

  constructor(private readonly access: AccessStore) {}

  invalidate(): void {
    this.table = null;
  }

  async resolve(authorization: string | null | undefined, now = new Date()): Promise<SchemaResolution> {
    const table = await this.load();
    let secret: string | null = null;
    for (const part of (authorization ?? '').split(',')) {
      const match = /^Bearer\s+(.+)$/i.exec(part.trim());
      if (match) { secret = match[1]!.trim(); break; }
    }
    if (secret !== null) {
      const entry = table.get(hashToken(secret));
      if (!entry || entry.token.isPublic || !isUsable(entry.token, entry.schema, now)) return { error: 'Invalid Authorization header' };
      this.touch(entry.token.id, now);
      return { schema: entry.schema!, token: entry.token };
    }
    const publicEntry = table.get(PUBLIC_TOKEN);
    if (!publicEntry || !isUsable(publicEntry.token, publicEntry.schema, now)) return { error: 'Missing Authorization header' };
    return { schema: publicEntry.schema!, token: publicEntry.token };
  }

  private load() {
    this.table ??= this.access.tokenTable().then((rows) => new Map(rows.map((r) => [r.hash, { token: r.token, schema: r.schema }]))).catch((error: unknown) => {
      this.table = null;
      throw error;
    });
    return this.table;
  }

  /** Records `lastUsed`, at most once a minute per token, so that reads do not turn into a write per request. */
  private touch(tokenId: number, now: Date): void {
    const last = this.lastTouched.get(tokenId) ?? 0;
    if (now.getTime() - last < LAST_USED_INTERVAL_MS) return;
    this.lastTouched.set(tokenId, now.getTime());
    this.access.touchToken(tokenId).catch(() => undefined);
  }
}

function isUsable(token: GqlTokenRecord, schema: GqlSchemaRecord | null, now: Date): boolean {
  if (!token.enabled || schema === null) return false;
  return token.expiryDate === null || new Date(token.expiryDate).getTime() > now.getTime();
}
