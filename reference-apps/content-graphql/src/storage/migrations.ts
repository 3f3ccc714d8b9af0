import { Kysely, Migrator, sql, type CreateTableBuilder, type Migration } from 'kysely';
import type { ContentDB } from './database-types';

export type Dialect = 'sqlite' | 'postgres';

/**
 * Schema migrations, run at start. The same code creates the tables on SQLite and PostgreSQL;
 * only the auto-increment id column differs.
 */
export async function migrateContentDatabase(db: Kysely<ContentDB>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => contentMigrations(dialect) },
    migrationTableName: 'content_migrations',
    migrationLockTableName: 'content_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(
      `content database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`,
    );
  }
}

function contentMigrations(dialect: Dialect): Record<string, Migration> {
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    '0001_content_model': {
      async up(db: Kysely<any>) {
        await withId(db.schema.createTable('sites'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('handle', 'varchar(255)', (c) => c.notNull().unique())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('language', 'varchar(12)', (c) => c.notNull())
          .addColumn('primary', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('baseUrl', 'varchar(255)', (c) => c.notNull())
          .execute();
        await withId(db.schema.createTable('fieldlayouts'))
          .addColumn('type', 'varchar(64)', (c) => c.notNull())
          .execute();
        await withId(db.schema.createTable('fields'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('handle', 'varchar(64)', (c) => c.notNull())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('type', 'varchar(32)', (c) => c.notNull())
          .addColumn('context', 'varchar(64)', (c) => c.notNull())
          .addColumn('searchable', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('settings', 'text', (c) => c.notNull())
          .addUniqueConstraint('fields_handle_context', ['handle', 'context'])
          .execute();
        await db.schema
          .createTable('fieldlayoutfields')
          .addColumn('layoutId', 'integer', (c) => c.notNull().references('fieldlayouts.id').onDelete('cascade'))
          .addColumn('fieldId', 'integer', (c) => c.notNull().references('fields.id').onDelete('cascade'))
          .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('sortOrder', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('fieldlayoutfields_pk', ['layoutId', 'fieldId'])
          .execute();
        await withId(db.schema.createTable('structures'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('maxLevels', 'integer')
          .execute();
        await withId(db.schema.createTable('elements'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('type', 'varchar(32)', (c) => c.notNull())
          .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('dateCreated', 'varchar(24)', (c) => c.notNull())
          .addColumn('dateUpdated', 'varchar(24)', (c) => c.notNull())
          .addColumn('dateDeleted', 'varchar(24)')
          .execute();
        await withId(db.schema.createTable('structureelements'))
          .addColumn('structureId', 'integer', (c) => c.notNull().references('structures.id').onDelete('cascade'))
          .addColumn('elementId', 'integer', (c) => c.references('elements.id').onDelete('cascade'))
          .addColumn('root', 'integer')
          .addColumn('lft', 'integer', (c) => c.notNull())
          .addColumn('rgt', 'integer', (c) => c.notNull())
          .addColumn('level', 'integer', (c) => c.notNull())
          .addUniqueConstraint('structureelements_structure_element', ['structureId', 'elementId'])
          .execute();
        await withId(db.schema.createTable('sections'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('handle', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('type', 'varchar(16)', (c) => c.notNull())
          .addColumn('structureId', 'integer', (c) => c.references('structures.id'))
          .execute();
        await db.schema
          .createTable('sections_sites')
          .addColumn('sectionId', 'integer', (c) => c.notNull().references('sections.id').onDelete('cascade'))
          .addColumn('siteId', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('hasUrls', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('uriFormat', 'varchar(255)')
          .addPrimaryKeyConstraint('sections_sites_pk', ['sectionId', 'siteId'])
          .execute();
        await withId(db.schema.createTable('entrytypes'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('sectionId', 'integer', (c) => c.notNull().references('sections.id').onDelete('cascade'))
          .addColumn('handle', 'varchar(64)', (c) => c.notNull())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('fieldLayoutId', 'integer', (c) => c.notNull().references('fieldlayouts.id'))
          .addColumn('sortOrder', 'integer', (c) => c.notNull())
          .addUniqueConstraint('entrytypes_section_handle', ['sectionId', 'handle'])
          .execute();
        await withId(db.schema.createTable('elements_sites'))
          .addColumn('elementId', 'integer', (c) => c.notNull().references('elements.id').onDelete('cascade'))
          .addColumn('siteId', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
          .addColumn('title', 'varchar(255)')
          .addColumn('slug', 'varchar(255)')
          .addColumn('uri', 'varchar(255)')
          .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('content', 'text', (c) => c.notNull())
          .addUniqueConstraint('elements_sites_element_site', ['elementId', 'siteId'])
          .execute();
        await withId(db.schema.createTable('usergroups'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('handle', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .execute();
        await withId(db.schema.createTable('volumes'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('handle', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('fieldLayoutId', 'integer', (c) => c.notNull().references('fieldlayouts.id'))
          .addColumn('path', 'varchar(255)', (c) => c.notNull())
          .addColumn('url', 'varchar(255)', (c) => c.notNull())
          .addColumn('sortOrder', 'integer', (c) => c.notNull())
          .execute();
        await withId(db.schema.createTable('volumefolders'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('parentId', 'integer', (c) => c.references('volumefolders.id').onDelete('cascade'))
          .addColumn('volumeId', 'integer', (c) => c.notNull().references('volumes.id').onDelete('cascade'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('path', 'varchar(255)', (c) => c.notNull())
          .addUniqueConstraint('volumefolders_volume_path', ['volumeId', 'path'])
          .execute();
        await db.schema
          .createTable('assets')
          .addColumn('id', 'integer', (c) => c.primaryKey().references('elements.id').onDelete('cascade'))
          .addColumn('volumeId', 'integer', (c) => c.notNull().references('volumes.id').onDelete('cascade'))
          .addColumn('folderId', 'integer', (c) => c.notNull().references('volumefolders.id').onDelete('cascade'))
          .addColumn('uploaderId', 'integer')
          .addColumn('filename', 'varchar(255)', (c) => c.notNull())
          .addColumn('kind', 'varchar(32)', (c) => c.notNull())
          .addColumn('width', 'integer')
          .addColumn('height', 'integer')
          .addColumn('size', 'bigint', (c) => c.notNull())
          .addColumn('focalPoint', 'varchar(32)')
          .addColumn('dateModified', 'varchar(24)', (c) => c.notNull())
          .addUniqueConstraint('assets_folder_filename', ['folderId', 'filename'])
          .execute();
        await db.schema
          .createTable('users')
          .addColumn('id', 'integer', (c) => c.primaryKey().references('elements.id').onDelete('cascade'))
          .addColumn('username', 'varchar(100)', (c) => c.notNull().unique())
          .addColumn('firstName', 'varchar(100)')
          .addColumn('lastName', 'varchar(100)')
          .addColumn('email', 'varchar(255)', (c) => c.notNull().unique())
          .addColumn('photoId', 'integer', (c) => c.references('assets.id').onDelete('set null'))
          .addColumn('preferredLanguage', 'varchar(12)')
          .addColumn('preferences', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('usergroups_users')
          .addColumn('groupId', 'integer', (c) => c.notNull().references('usergroups.id').onDelete('cascade'))
          .addColumn('userId', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addPrimaryKeyConstraint('usergroups_users_pk', ['groupId', 'userId'])
          .execute();
        await db.schema
          .createTable('entries')
          .addColumn('id', 'integer', (c) => c.primaryKey().references('elements.id').onDelete('cascade'))
          .addColumn('sectionId', 'integer', (c) => c.notNull().references('sections.id').onDelete('cascade'))
          .addColumn('typeId', 'integer', (c) => c.notNull().references('entrytypes.id').onDelete('cascade'))
          .addColumn('authorId', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('postDate', 'varchar(24)')
          .addColumn('expiryDate', 'varchar(24)')
          .execute();
        await withId(db.schema.createTable('assettransforms'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('handle', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('mode', 'varchar(16)', (c) => c.notNull())
          .addColumn('position', 'varchar(16)', (c) => c.notNull())
          .addColumn('width', 'integer')
          .addColumn('height', 'integer')
          .addColumn('format', 'varchar(8)')
          .addColumn('quality', 'integer')
          .addColumn('interlace', 'varchar(16)', (c) => c.notNull())
          .execute();
        await withId(db.schema.createTable('assettransformindex'))
          .addColumn('assetId', 'integer', (c) => c.notNull().references('assets.id').onDelete('cascade'))
          .addColumn('location', 'varchar(255)', (c) => c.notNull())
          .addColumn('filename', 'varchar(255)', (c) => c.notNull())
          .addColumn('transform', 'text', (c) => c.notNull())
          .addColumn('fileExists', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('dateIndexed', 'varchar(24)', (c) => c.notNull())
          .addUniqueConstraint('assettransformindex_asset_location', ['assetId', 'location'])
          .execute();
        await db.schema
          .createTable('globalsets')
          .addColumn('id', 'integer', (c) => c.primaryKey().references('elements.id').onDelete('cascade'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('handle', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('fieldLayoutId', 'integer', (c) => c.notNull().references('fieldlayouts.id'))
          .addColumn('sortOrder', 'integer', (c) => c.notNull())
          .execute();
        await withId(db.schema.createTable('taggroups'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('handle', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('fieldLayoutId', 'integer', (c) => c.notNull().references('fieldlayouts.id'))
          .execute();
        await db.schema
          .createTable('tags')
          .addColumn('id', 'integer', (c) => c.primaryKey().references('elements.id').onDelete('cascade'))
          .addColumn('groupId', 'integer', (c) => c.notNull().references('taggroups.id').onDelete('cascade'))
          .execute();
        await withId(db.schema.createTable('categorygroups'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('handle', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('structureId', 'integer', (c) => c.notNull().references('structures.id'))
          .addColumn('fieldLayoutId', 'integer', (c) => c.notNull().references('fieldlayouts.id'))
          .addColumn('uriFormat', 'varchar(255)')
          .execute();
        await db.schema
          .createTable('categories')
          .addColumn('id', 'integer', (c) => c.primaryKey().references('elements.id').onDelete('cascade'))
          .addColumn('groupId', 'integer', (c) => c.notNull().references('categorygroups.id').onDelete('cascade'))
          .execute();
        await withId(db.schema.createTable('matrixblocktypes'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('fieldId', 'integer', (c) => c.notNull().references('fields.id').onDelete('cascade'))
          .addColumn('handle', 'varchar(64)', (c) => c.notNull())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('fieldLayoutId', 'integer', (c) => c.notNull().references('fieldlayouts.id'))
          .addColumn('sortOrder', 'integer', (c) => c.notNull())
          .addUniqueConstraint('matrixblocktypes_field_handle', ['fieldId', 'handle'])
          .execute();
        await db.schema
          .createTable('matrixblocks')
          .addColumn('id', 'integer', (c) => c.primaryKey().references('elements.id').onDelete('cascade'))
          .addColumn('ownerId', 'integer', (c) => c.notNull().references('elements.id').onDelete('cascade'))
          .addColumn('fieldId', 'integer', (c) => c.notNull().references('fields.id').onDelete('cascade'))
          .addColumn('typeId', 'integer', (c) => c.notNull().references('matrixblocktypes.id').onDelete('cascade'))
          .addColumn('sortOrder', 'integer', (c) => c.notNull())
          .execute();
        await withId(db.schema.createTable('relations'))
          .addColumn('fieldId', 'integer', (c) => c.notNull().references('fields.id').onDelete('cascade'))
          .addColumn('sourceId', 'integer', (c) => c.notNull().references('elements.id').onDelete('cascade'))
          .addColumn('sourceSiteId', 'integer', (c) => c.references('sites.id').onDelete('cascade'))
          .addColumn('targetId', 'integer', (c) => c.notNull().references('elements.id').onDelete('cascade'))
          .addColumn('sortOrder', 'integer', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('searchindex')
          .addColumn('elementId', 'integer', (c) => c.notNull().references('elements.id').onDelete('cascade'))
          .addColumn('attribute', 'varchar(32)', (c) => c.notNull())
          .addColumn('fieldId', 'integer', (c) => c.notNull())
          .addColumn('siteId', 'integer', (c) => c.notNull())
          .addColumn('keywords', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('searchindex_pk', ['elementId', 'attribute', 'fieldId', 'siteId'])
          .execute();
        await withId(db.schema.createTable('gqlschemas'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
          .addColumn('scope', 'text', (c) => c.notNull())
          .addColumn('isPublic', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('dateCreated', 'varchar(24)', (c) => c.notNull())
          .addColumn('dateUpdated', 'varchar(24)', (c) => c.notNull())
          .execute();
        await withId(db.schema.createTable('gqltokens'))
          .addColumn('uid', 'varchar(36)', (c) => c.notNull().unique())
          .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
          .addColumn('accessTokenHash', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('tokenPrefix', 'varchar(8)', (c) => c.notNull())
          .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('expiryDate', 'varchar(24)')
          .addColumn('lastUsed', 'varchar(24)')
          .addColumn('schemaId', 'integer', (c) => c.references('gqlschemas.id').onDelete('set null'))
          .addColumn('dateCreated', 'varchar(24)', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('info')
          .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
        // Indexes the element queries lean on.
        await db.schema.createIndex('elements_type').on('elements').columns(['type', 'dateDeleted']).execute();
        await db.schema.createIndex('elements_sites_site').on('elements_sites').columns(['siteId', 'slug']).execute();
        await db.schema
          .createIndex('entries_section')
          .on('entries')
          .columns(['sectionId', 'typeId', 'postDate'])
          .execute();
        await db.schema.createIndex('relations_source').on('relations').columns(['sourceId', 'fieldId']).execute();
        await db.schema.createIndex('relations_target').on('relations').columns(['targetId']).execute();
        await db.schema
          .createIndex('structureelements_element')
          .on('structureelements')
          .columns(['elementId'])
          .execute();
        await db.schema
          .createIndex('structureelements_lft')
          .on('structureelements')
          .columns(['structureId', 'root', 'lft'])
          .execute();
        await db.schema.createIndex('matrixblocks_owner').on('matrixblocks').columns(['ownerId', 'fieldId']).execute();
        await db.schema.createIndex('searchindex_site').on('searchindex').columns(['siteId', 'attribute']).execute();
        await db.schema.createIndex('entries_author').on('entries').column('authorId').execute();
        await sql`select 1`.execute(db);
      },
    },
  };
}
