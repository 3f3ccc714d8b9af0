import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ContentDB } from './database-types';
import { nowStored, toStoredDate } from '../model/dates';

export const PUBLIC_TOKEN = '__PUBLIC__';

export interface GqlSchemaRecord {
  id: number;
  uid: string;
  name: string;
  scope: string[];
  isPublic: boolean;
  dateCreated: string;
  dateUpdated: string;
}
export interface GqlTokenRecord {
  id: number;
  uid: string;
  name: string;
  tokenPrefix: string;
  enabled: boolean;
  expiryDate: string | null;
  lastUsed: string | null;
  schemaId: number | null;
  isPublic: boolean;
  dateCreated: string;
}

/** SHA-256 of a token. Tokens are 32 random characters (190 bits), so a fast unsalted hash is safe and lets us look them up by index. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function generateToken(): string {
  const bytes = randomBytes(32);
  let token = '';
  for (const byte of bytes) token += ALPHABET[byte & 63];
  return token;
}

export class AccessError extends Error {
  override readonly name = 'AccessError';
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 = 400,
  ) {
    super(message);
  }
}

/**
 * GraphQL schemas (scopes) and their tokens. The public schema has a token row too (`__PUBLIC__`),
 * which holds its enabled flag and expiry, as the CMS does. Secrets are never stored, only their hash.
 */
export class AccessStore {
  constructor(
    private readonly db: Kysely<ContentDB>,
    private readonly changed: () => Promise<void>,
  ) {}

  async listSchemas(): Promise<GqlSchemaRecord[]> {
    return (await this.db.selectFrom('gqlschemas').selectAll().orderBy('id').execute()).map(toSchema);
  }

  async getSchema(idOrName: number | string): Promise<GqlSchemaRecord> {
    const row = await this.db
      .selectFrom('gqlschemas')
      .selectAll()
      .where((eb) =>
        typeof idOrName === 'number'
          ? eb('id', '=', idOrName)
          : eb.or([eb('uid', '=', idOrName), eb('name', '=', idOrName)]),
      )
      .executeTakeFirst();
    if (!row) throw new AccessError(`No GraphQL schema ${JSON.stringify(idOrName)}`, 404);
    return toSchema(row);
  }

  async publicSchema(): Promise<GqlSchemaRecord | null> {
    const row = await this.db.selectFrom('gqlschemas').selectAll().where('isPublic', '=', 1).executeTakeFirst();
    return row ? toSchema(row) : null;
  }

  /** Creates the public schema and its token row once; later calls return the existing one. */
  async ensurePublicSchema(scope: string[] = [], enabled = false): Promise<GqlSchemaRecord> {
    const existing = await this.publicSchema();
    if (existing) return existing;
    const schema = await this.insertSchema('Public Schema', scope, true);
    await this.db
      .insertInto('gqltokens')
      .values({
        uid: randomUUID(),
        name: 'Public Token',
        accessTokenHash: PUBLIC_TOKEN,
        tokenPrefix: '',
        enabled: enabled ? 1 : 0,
        expiryDate: null,
        lastUsed: null,
        schemaId: schema.id,
        dateCreated: nowStored(),
      })
      .execute();
    await this.changed();
    return schema;
  }

  async createSchema(name: string, scope: string[]): Promise<GqlSchemaRecord> {
    if (!name.trim()) throw new AccessError('A schema needs a name');
    const taken = await this.db.selectFrom('gqlschemas').select('id').where('name', '=', name).executeTakeFirst();
    if (taken) throw new AccessError(`A schema named "${name}" exists already`, 409);
    const schema = await this.insertSchema(name, scope, false);
    await this.changed();
    return schema;
  }

  private async insertSchema(name: string, scope: string[], isPublic: boolean): Promise<GqlSchemaRecord> {
    const now = nowStored();
    const row = await this.db
      .insertInto('gqlschemas')
      .values({
        uid: randomUUID(),
        name,
        scope: JSON.stringify(scope),
        isPublic: isPublic ? 1 : 0,
        dateCreated: now,
        dateUpdated: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSchema(row);
  }

  async updateSchemaScope(id: number, scope: string[]): Promise<GqlSchemaRecord> {
    await this.getSchema(id);
    await this.db
      .updateTable('gqlschemas')
      .set({ scope: JSON.stringify(scope), dateUpdated: nowStored() })
      .where('id', '=', id)
      .execute();
    await this.changed();
    return this.getSchema(id);
  }

  async deleteSchema(id: number): Promise<void> {
    const schema = await this.getSchema(id);
    if (schema.isPublic) throw new AccessError('The public schema cannot be deleted; disable it instead', 409);
    await this.db.deleteFrom('gqlschemas').where('id', '=', id).execute();
    await this.changed();
  }

  async listTokens(): Promise<GqlTokenRecord[]> {
    return (await this.db.selectFrom('gqltokens').selectAll().orderBy('id').execute()).map(toToken);
  }

  async getToken(idOrName: number | string): Promise<GqlTokenRecord> {
    const row = await this.db
      .selectFrom('gqltokens')
      .selectAll()
      .where((eb) =>
        typeof idOrName === 'number'
          ? eb('id', '=', idOrName)
          : eb.or([eb('uid', '=', idOrName), eb('name', '=', idOrName)]),
      )
      .executeTakeFirst();
    if (!row) throw new AccessError(`No GraphQL token ${JSON.stringify(idOrName)}`, 404);
    return toToken(row);
  }

  /** Creates a private token; the secret is returned here once and never again. */
  async createToken(input: {
    name: string;
    schemaId: number;
    expiryDate?: string | null;
    enabled?: boolean;
  }): Promise<{ token: string; record: GqlTokenRecord }> {
    if (!input.name.trim()) throw new AccessError('A token needs a name');
    const schema = await this.getSchema(input.schemaId);
    if (schema.isPublic) throw new AccessError('The public schema has no secret token', 409);
    const taken = await this.db.selectFrom('gqltokens').select('id').where('name', '=', input.name).executeTakeFirst();
    if (taken) throw new AccessError(`A token named "${input.name}" exists already`, 409);
    let expiryDate: string | null = null;
    if (input.expiryDate) {
      try {
        expiryDate = toStoredDate(input.expiryDate);
      } catch {
        throw new AccessError(`Invalid expiry date ${JSON.stringify(input.expiryDate)}`);
      }
    }
    const token = generateToken();
    const row = await this.db
      .insertInto('gqltokens')
      .values({
        uid: randomUUID(),
        name: input.name,
        accessTokenHash: hashToken(token),
        tokenPrefix: token.slice(0, 4),
        enabled: input.enabled === false ? 0 : 1,
        expiryDate,
        lastUsed: null,
        schemaId: schema.id,
        dateCreated: nowStored(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.changed();
    return { token, record: toToken(row) };
  }

  async setTokenEnabled(id: number, enabled: boolean): Promise<GqlTokenRecord> {
    await this.getToken(id);
    await this.db
      .updateTable('gqltokens')
      .set({ enabled: enabled ? 1 : 0 })
      .where('id', '=', id)
      .execute();
    await this.changed();
    return this.getToken(id);
  }

  async setTokenExpiry(id: number, expiryDate: string | null): Promise<GqlTokenRecord> {
    await this.getToken(id);
    await this.db
      .updateTable('gqltokens')
      .set({ expiryDate: expiryDate ? toStoredDate(expiryDate) : null })
      .where('id', '=', id)
      .execute();
    await this.changed();
    return this.getToken(id);
  }

  async deleteToken(id: number): Promise<void> {
    const token = await this.getToken(id);
    if (token.isPublic) throw new AccessError('The public token cannot be deleted; disable it instead', 409);
    await this.db.deleteFrom('gqltokens').where('id', '=', id).execute();
    await this.changed();
  }

  /** All tokens with their schema, for the in-memory token table of the GraphQL service. */
  async tokenTable(): Promise<Array<{ hash: string; token: GqlTokenRecord; schema: GqlSchemaRecord | null }>> {
    const [tokens, schemas] = await Promise.all([
      this.db.selectFrom('gqltokens').selectAll().execute(),
      this.db.selectFrom('gqlschemas').selectAll().execute(),
    ]);
    const byId = new Map(schemas.map((s) => [s.id, toSchema(s)]));
    return tokens.map((t) => ({
      hash: t.accessTokenHash,
      token: toToken(t),
      schema: t.schemaId === null ? null : (byId.get(t.schemaId) ?? null),
    }));
  }

  async touchToken(id: number): Promise<void> {
    await this.db.updateTable('gqltokens').set({ lastUsed: nowStored() }).where('id', '=', id).execute();
  }
}

function toSchema(row: ContentDB['gqlschemas'] extends infer T ? { [K in keyof T]: any } : never): GqlSchemaRecord {
  return {
    id: Number(row.id),
    uid: row.uid,
    name: row.name,
    scope: JSON.parse(row.scope) as string[],
    isPublic: row.isPublic === 1,
    dateCreated: row.dateCreated,
    dateUpdated: row.dateUpdated,
  };
}

function toToken(row: { [K in keyof ContentDB['gqltokens']]: any }): GqlTokenRecord {
  return {
    id: Number(row.id),
    uid: row.uid,
    name: row.name,
    tokenPrefix: row.tokenPrefix,
    enabled: row.enabled === 1,
    expiryDate: row.expiryDate,
    lastUsed: row.lastUsed,
    schemaId: row.schemaId,
    isPublic: row.accessTokenHash === PUBLIC_TOKEN,
    dateCreated: row.dateCreated,
  };
}
