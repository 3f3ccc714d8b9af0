import type { AppMigration } from 'app-support';

/** Schema of the voice stream's database, in order. */
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
  // Sessions shared by several instances. SQLite runs one instance, which keeps its sessions in memory.
  '0002_voice_sessions': {
    async up(db, dialect) {
      if (dialect !== 'postgres') return;
      await db.schema
        .createTable('voice_instances')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('started_at', 'bigint', (column) => column.notNull())
        .addColumn('seen_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema
        .createTable('voice_sessions')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('owner_id', 'text', (column) => column.notNull().references('voice_api_keys.id').onDelete('cascade'))
        .addColumn('request', 'text', (column) => column.notNull())
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('token_issued_at', 'bigint', (column) => column.notNull())
        .addColumn('token_used', 'boolean', (column) => column.notNull().defaultTo(false))
        .addColumn('instance_id', 'text')
        .addColumn('detached_at', 'bigint')
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema.createIndex('voice_sessions_owner').on('voice_sessions').column('owner_id').execute();
      await db.schema.createIndex('voice_sessions_instance').on('voice_sessions').column('instance_id').execute();
      await db.schema
        .createTable('voice_session_tokens')
        .addColumn('token_hash', 'text', (column) => column.primaryKey())
        .addColumn('session_id', 'text', (column) =>
          column.notNull().references('voice_sessions.id').onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('voice_session_tokens_session')
        .on('voice_session_tokens')
        .column('session_id')
        .execute();
    },
  },
  // Issue order of a session's tokens, so only the newest ones are kept (a session rotated forever must not grow).
  '0003_voice_session_token_order': {
    async up(db, dialect) {
      if (dialect !== 'postgres') return;
      await db.schema
        .alterTable('voice_session_tokens')
        .addColumn('seq', 'bigserial', (column) => column.notNull())
        .execute();
    },
  },
  // Glossaries, in both dialects. (0004 was reserved for the audio-file jobs, which came after 0006: see 0007.)
  '0005_voice_glossaries': {
    async up(db) {
      await db.schema
        .createTable('voice_glossaries')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('owner_id', 'text', (column) => column.notNull().references('voice_api_keys.id').onDelete('cascade'))
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema.createIndex('voice_glossaries_owner').on('voice_glossaries').column('owner_id').execute();
      await db.schema
        .createTable('voice_glossary_dictionaries')
        .addColumn('glossary_id', 'text', (column) =>
          column.notNull().references('voice_glossaries.id').onDelete('cascade'),
        )
        .addColumn('source_lang', 'text', (column) => column.notNull())
        .addColumn('target_lang', 'text', (column) => column.notNull())
        .addColumn('entries', 'text', (column) => column.notNull())
        .addColumn('entry_count', 'integer', (column) => column.notNull())
        .addPrimaryKeyConstraint('voice_glossary_dictionaries_pair', ['glossary_id', 'source_lang', 'target_lang'])
        .execute();
    },
  },
  '0006_voice_spoken_terms': {
    async up(db) {
      await db.schema
        .createTable('voice_spoken_terms')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('owner_id', 'text', (column) => column.notNull().references('voice_api_keys.id').onDelete('cascade'))
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema.createIndex('voice_spoken_terms_owner').on('voice_spoken_terms').column('owner_id').execute();
      await db.schema
        .createTable('voice_spoken_term_lists')
        .addColumn('spoken_terms_id', 'text', (column) =>
          column.notNull().references('voice_spoken_terms.id').onDelete('cascade'),
        )
        .addColumn('lang', 'text', (column) => column.notNull())
        .addColumn('entries', 'text', (column) => column.notNull())
        .addColumn('entry_count', 'integer', (column) => column.notNull())
        .addPrimaryKeyConstraint('voice_spoken_term_lists_lang', ['spoken_terms_id', 'lang'])
        .execute();
    },
  },
  // Audio-file translation jobs, in both dialects: the database is their queue. Numbered after 0006, not 0004 (the
  // number once reserved for them): databases already at 0006 would refuse a migration placed before it.
  '0007_voice_jobs': {
    async up(db) {
      await db.schema
        .createTable('voice_jobs')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('owner_id', 'text', (column) => column.notNull().references('voice_api_keys.id').onDelete('cascade'))
        .addColumn('request', 'text', (column) => column.notNull())
        .addColumn('secret', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('results', 'text', (column) => column.notNull())
        .addColumn('source_bytes', 'bigint')
        .addColumn('duration_ms', 'bigint')
        .addColumn('processed_ms', 'bigint', (column) => column.notNull().defaultTo(0))
        .addColumn('storage_used', 'bigint', (column) => column.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('updated_at', 'bigint', (column) => column.notNull())
        .addColumn('expires_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema.createIndex('voice_jobs_owner').on('voice_jobs').column('owner_id').execute();
      await db.schema.createIndex('voice_jobs_queue').on('voice_jobs').columns(['status', 'lease_until']).execute();
      await db.schema.createIndex('voice_jobs_expiry').on('voice_jobs').column('expires_at').execute();
    },
  },
};
