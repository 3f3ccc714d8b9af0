import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { GlossaryDictionary, GlossaryEntry, GlossaryInfo } from '../domain/glossary/glossary';
import { entriesAsTsv } from '../domain/glossary/glossary-entries';
import type { VoiceSchema } from './voice-schema';

/** Entries are kept as TSV: a phrase never holds a tab or a line break, so the text is lossless. */
function entriesFromTsv(tsv: string): GlossaryEntry[] {
  return tsv.split('\n').map((line) => {
    const tab = line.indexOf('\t');
    return { source: line.slice(0, tab), target: line.slice(tab + 1) };
  });
}

/**
 * Glossaries of the API keys, in the app's database (SQLite, or PostgreSQL shared by every instance). Every read
 * and delete names the owner: another key's glossary is as unknown as one that never existed.
 */
export class GlossaryStore {
  constructor(private readonly db: Kysely<VoiceSchema>) {}

  /** Glossaries the key has, for the per-key limit. */
  async count(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('voice_glossaries')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('owner_id', '=', ownerId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async create(ownerId: string, name: string, dictionaries: readonly GlossaryDictionary[]): Promise<GlossaryInfo> {
    const id = randomUUID();
    const createdAt = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('voice_glossaries').values({ id, owner_id: ownerId, name, created_at: createdAt }).execute();
      await trx
        .insertInto('voice_glossary_dictionaries')
        .values(
          dictionaries.map((dictionary) => ({
            glossary_id: id,
            source_lang: dictionary.sourceLang,
            target_lang: dictionary.targetLang,
            entries: entriesAsTsv(dictionary.entries),
            entry_count: dictionary.entries.length,
          })),
        )
        .execute();
    });
    return {
      id,
      name,
      createdAt,
      dictionaries: dictionaries.map((dictionary) => ({
        sourceLang: dictionary.sourceLang,
        targetLang: dictionary.targetLang,
        entryCount: dictionary.entries.length,
      })),
    };
  }

  /** The key's glossaries, oldest first. */
  async list(ownerId: string): Promise<GlossaryInfo[]> {
    const glossaries = await this.db
      .selectFrom('voice_glossaries')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    if (glossaries.length === 0) return [];
    const pairs = await this.db
      .selectFrom('voice_glossary_dictionaries')
      .select(['glossary_id', 'source_lang', 'target_lang', 'entry_count'])
      .where(
        'glossary_id',
        'in',
        glossaries.map((glossary) => glossary.id),
      )
      .orderBy('source_lang')
      .orderBy('target_lang')
      .execute();
    return glossaries.map((glossary) => ({
      id: glossary.id,
      name: glossary.name,
      createdAt: Number(glossary.created_at),
      dictionaries: pairs
        .filter((pair) => pair.glossary_id === glossary.id)
        .map((pair) => ({ sourceLang: pair.source_lang, targetLang: pair.target_lang, entryCount: pair.entry_count })),
    }));
  }

  async get(ownerId: string, id: string): Promise<GlossaryInfo | undefined> {
    const glossary = await this.owned(ownerId, id);
    if (!glossary) return undefined;
    const pairs = await this.db
      .selectFrom('voice_glossary_dictionaries')
      .select(['source_lang', 'target_lang', 'entry_count'])
      .where('glossary_id', '=', id)
      .orderBy('source_lang')
      .orderBy('target_lang')
      .execute();
    return {
      id,
      name: glossary.name,
      createdAt: Number(glossary.created_at),
      dictionaries: pairs.map((pair) => ({
        sourceLang: pair.source_lang,
        targetLang: pair.target_lang,
        entryCount: pair.entry_count,
      })),
    };
  }

  /** Every dictionary of the key's glossary with its entries; undefined when the key has no such glossary. */
  async dictionaries(ownerId: string, id: string): Promise<GlossaryDictionary[] | undefined> {
    if (!(await this.owned(ownerId, id))) return undefined;
    const rows = await this.db
      .selectFrom('voice_glossary_dictionaries')
      .select(['source_lang', 'target_lang', 'entries'])
      .where('glossary_id', '=', id)
      .orderBy('source_lang')
      .orderBy('target_lang')
      .execute();
    return rows.map((row) => ({
      sourceLang: row.source_lang,
      targetLang: row.target_lang,
      entries: entriesFromTsv(row.entries),
    }));
  }

  /** Deletes the key's glossary and its dictionaries; false when the key has no such glossary. */
  async delete(ownerId: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const owned = await trx
        .selectFrom('voice_glossaries')
        .select('id')
        .where('id', '=', id)
        .where('owner_id', '=', ownerId)
        .executeTakeFirst();
      if (!owned) return false;
      await trx.deleteFrom('voice_glossary_dictionaries').where('glossary_id', '=', id).execute();
      await trx.deleteFrom('voice_glossaries').where('id', '=', id).execute();
      return true;
    });
  }

  private owned(ownerId: string, id: string) {
    return this.db
      .selectFrom('voice_glossaries')
      .select(['name', 'created_at'])
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
  }
}
