import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SpokenTermsInfo, TermList } from '../domain/spoken-terms/spoken-terms';
import type { VoiceSchema } from './voice-schema';

type TermListRow = { spoken_terms_id: string; lang: string; entry_count: number };

/**
 * Spoken Terms collections of the API keys, in the app's database (SQLite, or PostgreSQL shared by every instance).
 * Every read and delete names the owner: another key's collection is as unknown as one that never existed. Terms are
 * kept one per line (a term never holds a line break).
 */
export class SpokenTermsStore {
  constructor(private readonly db: Kysely<VoiceSchema>) {}

  async count(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('voice_spoken_terms')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('owner_id', '=', ownerId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async create(ownerId: string, name: string, lists: readonly TermList[]): Promise<SpokenTermsInfo> {
    const id = randomUUID();
    const createdAt = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('voice_spoken_terms')
        .values({ id, owner_id: ownerId, name, created_at: createdAt })
        .execute();
      if (lists.length > 0)
        await trx
          .insertInto('voice_spoken_term_lists')
          .values(
            lists.map((list) => ({
              spoken_terms_id: id,
              lang: list.lang,
              entries: list.terms.join('\n'),
              entry_count: list.terms.length,
            })),
          )
          .execute();
    });
    return {
      id,
      name,
      createdAt,
      termLists: lists.map((list) => ({ lang: list.lang, entryCount: list.terms.length })),
    };
  }

  /** The key's collections, oldest first. */
  async list(ownerId: string): Promise<SpokenTermsInfo[]> {
    const collections = await this.db
      .selectFrom('voice_spoken_terms')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    if (collections.length === 0) return [];
    const lists = await this.listRows(collections.map((collection) => collection.id));
    return collections.map((collection) => infoOf(collection, lists));
  }

  async get(ownerId: string, id: string): Promise<SpokenTermsInfo | undefined> {
    const collection = await this.owned(ownerId, id);
    return collection && infoOf({ ...collection, id }, await this.listRows([id]));
  }

  /** Every term list of the key's collection; undefined when the key has no such collection. */
  async termLists(ownerId: string, id: string): Promise<TermList[] | undefined> {
    if (!(await this.owned(ownerId, id))) return undefined;
    const rows = await this.db
      .selectFrom('voice_spoken_term_lists')
      .select(['lang', 'entries'])
      .where('spoken_terms_id', '=', id)
      .orderBy('lang')
      .execute();
    return rows.map((row) => ({ lang: row.lang, terms: row.entries.split('\n') }));
  }

  /** Deletes the key's collection and its term lists; false when the key has no such collection. */
  async delete(ownerId: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const owned = await trx
        .selectFrom('voice_spoken_terms')
        .select('id')
        .where('id', '=', id)
        .where('owner_id', '=', ownerId)
        .executeTakeFirst();
      if (!owned) return false;
      await trx.deleteFrom('voice_spoken_term_lists').where('spoken_terms_id', '=', id).execute();
      await trx.deleteFrom('voice_spoken_terms').where('id', '=', id).execute();
      return true;
    });
  }

  private listRows(ids: readonly string[]): Promise<TermListRow[]> {
    return this.db
      .selectFrom('voice_spoken_term_lists')
      .select(['spoken_terms_id', 'lang', 'entry_count'])
      .where('spoken_terms_id', 'in', ids)
      .orderBy('lang')
      .execute();
  }

  private owned(ownerId: string, id: string) {
    return this.db
      .selectFrom('voice_spoken_terms')
      .select(['name', 'created_at'])
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
  }
}

function infoOf(
  collection: { id: string; name: string; created_at: number | string },
  lists: readonly TermListRow[],
): SpokenTermsInfo {
  return {
    id: collection.id,
    name: collection.name,
    createdAt: Number(collection.created_at),
    termLists: lists
      .filter((list) => list.spoken_terms_id === collection.id)
      .map((list) => ({ lang: list.lang, entryCount: list.entry_count })),
  };
}
