import type { AccessStore, GqlSchemaRecord, GqlTokenRecord } from '../../storage/access-store';
import { hashToken, PUBLIC_TOKEN } from '../../storage/access-store';

export type SchemaResolution =
  | { schema: GqlSchemaRecord; token: GqlTokenRecord }
  | { error: 'Invalid Authorization header' | 'Missing Authorization header' };

const LAST_USED_INTERVAL_MS = 60_000;

type TokenTable = Map<string, { token: GqlTokenRecord; schema: GqlSchemaRecord | null }>;

/**
 * Authorization header -> schema, as the CMS does it: every comma-separated part of the header is matched against
 * `Bearer <token>` (case-insensitive); a token that is unknown, disabled, expired or without a schema is
 * `Invalid Authorization header`; no token uses the public token, and when that is disabled or expired the answer is
 * `Missing Authorization header`. A malformed header (`Bearer: x`, `Basic ...`) counts as no token.
 * Tokens are held in memory and reloaded after any schema or token change.
 */
export class TokenResolver {
  private table: Promise<TokenTable> | null = null;
  /** The table once loaded, for synchronous lookups. */
  private loaded: TokenTable | null = null;
  private readonly lastTouched = new Map<number, number>();

  constructor(private readonly access: AccessStore) {}

  invalidate(): void {
    this.table = null;
    this.loaded = null;
  }

  async resolve(authorization: string | null | undefined, now = new Date()): Promise<SchemaResolution> {
    return this.lookup(await this.load(), authorization, now);
  }

  /** As `resolve`, without waiting: null when the token table is not loaded yet. */
  resolveLoaded(authorization: string | null | undefined, now = new Date()): SchemaResolution | null {
    return this.loaded ? this.lookup(this.loaded, authorization, now) : null;
  }

  private lookup(table: TokenTable, authorization: string | null | undefined, now: Date): SchemaResolution {
    let secret: string | null = null;
    // No header (the public schema's requests, most of them): nothing to split.
    if (authorization)
      for (const part of authorization.split(',')) {
        const match = /^Bearer\s+(.+)$/i.exec(part.trim());
        if (match) {
          secret = match[1]!.trim();
          break;
        }
      }
    if (secret !== null) {
      const entry = table.get(hashToken(secret));
      if (!entry || entry.token.isPublic || !isUsable(entry.token, entry.schema, now))
        return { error: 'Invalid Authorization header' };
      this.touch(entry.token.id, now);
      return { schema: entry.schema!, token: entry.token };
    }
    const publicEntry = table.get(PUBLIC_TOKEN);
    if (!publicEntry || !isUsable(publicEntry.token, publicEntry.schema, now))
      return { error: 'Missing Authorization header' };
    return { schema: publicEntry.schema!, token: publicEntry.token };
  }

  private load(): Promise<TokenTable> {
    if (this.table) return this.table;
    const loading: Promise<TokenTable> = this.access
      .tokenTable()
      .then((rows) => {
        const table: TokenTable = new Map(rows.map((r) => [r.hash, { token: r.token, schema: r.schema }]));
        // An invalidation while loading dropped this load: it must not become the current table.
        if (this.table === loading) this.loaded = table;
        return table;
      })
      .catch((error: unknown) => {
        if (this.table === loading) this.table = null;
        throw error;
      });
    this.table = loading;
    return loading;
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
