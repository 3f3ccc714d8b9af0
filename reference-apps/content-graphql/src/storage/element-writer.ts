import { randomUUID } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import sharp from 'sharp';
import type { ContentDB, ElementKind, Flag } from './database-types';
import type { CatalogField } from './catalog';
import type {
  AssetInput,
  CategoryInput,
  ElementInput,
  EntryInput,
  MatrixBlockInput,
  TagInput,
  UserInput,
} from '../model/content-model';
import { RELATION_FIELD_KINDS } from '../model/content-model';
import { fileKind, isTransformable } from '../model/file-kinds';
import { nowStored, toStoredDate } from '../model/dates';
import { appendToStructure, removeFromStructure } from './structure-tree';
import type { ElementIndex } from './element-index';
import type { StoreAccess } from './store-access';

type Db = Kysely<ContentDB> | Transaction<ContentDB>;

const flag = (value: boolean | undefined, fallback: boolean): Flag => ((value ?? fallback) ? 1 : 0);

function slugify(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'untitled'
  );
}

/**
 * Elements and their content: entries (placed in their structure, URIs from the section's format), categories,
 * tags, users, assets (files read with sharp), field values, relations and matrix blocks, enabling and deleting.
 * Each write reindexes the element for search and announces a content change.
 */
export class ElementWriter {
  constructor(private readonly store: StoreAccess & { readonly index: ElementIndex }) {}

  async saveEntry(input: EntryInput): Promise<number> {
    const catalog = await this.store.catalog();
    const section = catalog.sectionsByHandle.get(input.section);
    if (!section) throw new Error(`Unknown section "${input.section}"`);
    const type = input.type ? section.entryTypes.find((t) => t.handle === input.type) : section.entryTypes[0];
    if (!type) throw new Error(`Unknown entry type "${input.type}" in section "${section.handle}"`);
    if (section.type === 'single') {
      const existing = await this.store.db
        .selectFrom('entries')
        .select('id')
        .where('sectionId', '=', section.id)
        .executeTakeFirst();
      if (existing) throw new Error(`Section "${section.handle}" is a single and already has its entry ${existing.id}`);
    }
    const siteIds = [...section.siteSettings.keys()];
    const id = await this.store.db.transaction().execute(async (trx) => {
      const elementId = await this.insertElement(trx, 'entry', input);
      const now = nowStored();
      await trx
        .insertInto('entries')
        .values({
          id: elementId,
          sectionId: section.id,
          typeId: type.id,
          authorId: input.authorId ?? null,
          postDate: input.postDate === null ? null : toStoredDate(input.postDate ?? input.dateCreated ?? now),
          expiryDate: input.expiryDate ? toStoredDate(input.expiryDate) : null,
        })
        .execute();
      if (section.structureId !== null)
        await appendToStructure(trx, section.structureId, elementId, input.parentId ?? null);
      return elementId;
    });
    await this.writeContent(id, type.fields, input, siteIds, (siteId, slug) =>
      this.entryUri(section.id, siteId, slug, input.parentId ?? null),
    );
    await this.store.changed('content');
    return id;
  }

  async saveCategory(input: CategoryInput): Promise<number> {
    const catalog = await this.store.catalog();
    const group = [...catalog.categoryGroupsById.values()].find((g) => g.handle === input.group);
    if (!group) throw new Error(`Unknown category group "${input.group}"`);
    const id = await this.store.db.transaction().execute(async (trx) => {
      const elementId = await this.insertElement(trx, 'category', input);
      await trx.insertInto('categories').values({ id: elementId, groupId: group.id }).execute();
      await appendToStructure(trx, group.structureId!, elementId, input.parentId ?? null);
      return elementId;
    });
    await this.writeContent(id, group.fields, input, await this.allSiteIds(), (siteId, slug) =>
      this.formatUri(group.uriFormat ?? null, siteId, slug, input.parentId ?? null),
    );
    await this.store.changed('content');
    return id;
  }

  async saveTag(input: TagInput): Promise<number> {
    const catalog = await this.store.catalog();
    const group = [...catalog.tagGroupsById.values()].find((g) => g.handle === input.group);
    if (!group) throw new Error(`Unknown tag group "${input.group}"`);
    const id = await this.store.db.transaction().execute(async (trx) => {
      const elementId = await this.insertElement(trx, 'tag', input);
      await trx.insertInto('tags').values({ id: elementId, groupId: group.id }).execute();
      return elementId;
    });
    await this.writeContent(id, group.fields, input, await this.allSiteIds(), () => null);
    await this.store.changed('content');
    return id;
  }

  async saveUser(input: UserInput): Promise<number> {
    const catalog = await this.store.catalog();
    const id = await this.store.db.transaction().execute(async (trx) => {
      const elementId = await this.insertElement(trx, 'user', { ...input, title: null, slug: null });
      await trx
        .insertInto('users')
        .values({
          id: elementId,
          username: input.username,
          email: input.email,
          firstName: input.firstName ?? null,
          lastName: input.lastName ?? null,
          photoId: input.photoId ?? null,
          preferredLanguage: input.preferredLanguage ?? null,
          preferences: JSON.stringify(input.preferences ?? {}),
        })
        .execute();
      for (const handle of input.groups ?? []) {
        const group = await trx.selectFrom('usergroups').select('id').where('handle', '=', handle).executeTakeFirst();
        if (!group) throw new Error(`Unknown user group "${handle}"`);
        await trx.insertInto('usergroups_users').values({ groupId: group.id, userId: elementId }).execute();
      }
      return elementId;
    });
    await this.writeContent(id, catalog.userFields, { ...input, title: null }, await this.allSiteIds(), () => null);
    await this.store.changed('content');
    return id;
  }

  async setUserPhoto(userId: number, photoId: number | null): Promise<void> {
    await this.store.db.updateTable('users').set({ photoId }).where('id', '=', userId).execute();
    await this.touch(userId);
  }

  /** Stores the file in its volume folder, reads its image size with sharp, and creates the asset element. */
  async saveAsset(input: AssetInput): Promise<number> {
    const catalog = await this.store.catalog();
    const volume = catalog.volumesByHandle.get(input.volume);
    if (!volume) throw new Error(`Unknown volume "${input.volume}"`);
    if (!/^[^/\\]+$/.test(input.filename) || input.filename.startsWith('.'))
      throw new Error(`Invalid file name "${input.filename}"`);
    const folderId = await this.ensureFolder(volume.id, input.folder ?? '');
    const folder = await this.store.db
      .selectFrom('volumefolders')
      .select('path')
      .where('id', '=', folderId)
      .executeTakeFirstOrThrow();
    const directory = join(this.store.assetsRoot, volume.path, folder.path);
    await mkdir(directory, { recursive: true });
    const filePath = join(directory, input.filename);
    await writeFile(filePath, input.data);
    const info = await stat(filePath);
    let width: number | null = null;
    let height: number | null = null;
    if (isTransformable(input.filename) || fileKind(input.filename) === 'image') {
      const metadata = await sharp(input.data).metadata();
      width = metadata.width ?? null;
      height = metadata.height ?? null;
    }
    const id = await this.store.db.transaction().execute(async (trx) => {
      const elementId = await this.insertElement(trx, 'asset', {
        ...input,
        title: input.title ?? titleFromFilename(input.filename),
      });
      await trx
        .insertInto('assets')
        .values({
          id: elementId,
          volumeId: volume.id,
          folderId,
          uploaderId: input.uploaderId ?? null,
          filename: input.filename,
          kind: fileKind(input.filename),
          width,
          height,
          size: info.size,
          focalPoint: input.focalPoint ? `${input.focalPoint.x};${input.focalPoint.y}` : null,
          dateModified: toStoredDate(info.mtime),
        })
        .execute();
      return elementId;
    });
    await this.writeContent(
      id,
      volume.fields,
      { ...input, title: input.title ?? titleFromFilename(input.filename) },
      await this.allSiteIds(),
      () => null,
    );
    await this.store.changed('content');
    return id;
  }

  private async ensureFolder(volumeId: number, path: string): Promise<number> {
    const segments = path.split('/').filter(Boolean);
    if (segments.some((s) => s === '..' || s === '.')) throw new Error(`Invalid folder path "${path}"`);
    let parent = await this.store.db
      .selectFrom('volumefolders')
      .select(['id'])
      .where('volumeId', '=', volumeId)
      .where('path', '=', '')
      .executeTakeFirstOrThrow();
    let current = '';
    for (const segment of segments) {
      current += `${segment}/`;
      const existing = await this.store.db
        .selectFrom('volumefolders')
        .select('id')
        .where('volumeId', '=', volumeId)
        .where('path', '=', current)
        .executeTakeFirst();
      parent =
        existing ??
        (await this.store.db
          .insertInto('volumefolders')
          .values({ uid: randomUUID(), parentId: parent.id, volumeId, name: segment, path: current })
          .returning('id')
          .executeTakeFirstOrThrow());
    }
    return parent.id;
  }

  /** Replaces the custom field values of an element (all sites unless `site` is given). */
  async updateFields(elementId: number, fields: Record<string, unknown>, title?: string): Promise<void> {
    const { layoutFields } = await this.store.index.layoutOfElement(elementId);
    const siteRows = await this.store.db
      .selectFrom('elements_sites')
      .select(['siteId', 'content'])
      .where('elementId', '=', elementId)
      .execute();
    for (const row of siteRows) {
      const content = { ...(JSON.parse(row.content) as Record<string, unknown>) };
      for (const field of layoutFields)
        if (field.handle in fields && !RELATION_FIELD_KINDS.has(field.type) && field.type !== 'Matrix')
          content[field.handle] = normalizeValue(field, fields[field.handle]);
      await this.store.db
        .updateTable('elements_sites')
        .set({ content: JSON.stringify(content), ...(title !== undefined ? { title } : {}) })
        .where('elementId', '=', elementId)
        .where('siteId', '=', row.siteId)
        .execute();
    }
    await this.store.db.transaction().execute(async (trx) => {
      for (const field of layoutFields) {
        if (!(field.handle in fields)) continue;
        if (RELATION_FIELD_KINDS.has(field.type))
          await this.writeRelations(trx, elementId, field, fields[field.handle]);
        if (field.type === 'Matrix') await this.writeMatrix(trx, elementId, field, fields[field.handle]);
      }
    });
    await this.store.index.indexElement(elementId);
    await this.touch(elementId);
  }

  async setEnabled(elementId: number, enabled: boolean): Promise<void> {
    await this.store.db
      .updateTable('elements')
      .set({ enabled: enabled ? 1 : 0, dateUpdated: nowStored() })
      .where('id', '=', elementId)
      .execute();
    await this.store.changed('content');
  }

  /** Soft delete (the element shows up with `trashed: true`), or hard delete with its rows and structure position. */
  async deleteElement(elementId: number, hard = false): Promise<void> {
    if (!hard) {
      await this.store.db
        .updateTable('elements')
        .set({ dateDeleted: nowStored() })
        .where('id', '=', elementId)
        .execute();
    } else {
      await this.store.db.transaction().execute(async (trx) => {
        const positions = await trx
          .selectFrom('structureelements')
          .select('structureId')
          .where('elementId', '=', elementId)
          .execute();
        for (const p of positions) await removeFromStructure(trx, p.structureId, elementId);
        await trx
          .deleteFrom('relations')
          .where((eb) => eb.or([eb('sourceId', '=', elementId), eb('targetId', '=', elementId)]))
          .execute();
        await trx.deleteFrom('searchindex').where('elementId', '=', elementId).execute();
        for (const table of [
          'entries',
          'assets',
          'users',
          'tags',
          'categories',
          'matrixblocks',
          'globalsets',
          'elements_sites',
        ] as const) {
          await trx
            .deleteFrom(table)
            .where(table === 'elements_sites' ? 'elementId' : 'id', '=', elementId)
            .execute();
        }
        await trx.deleteFrom('elements').where('id', '=', elementId).execute();
      });
    }
    await this.store.changed('content');
  }

  private async touch(elementId: number): Promise<void> {
    await this.store.db.updateTable('elements').set({ dateUpdated: nowStored() }).where('id', '=', elementId).execute();
    await this.store.changed('content');
  }

  async allSiteIds(): Promise<number[]> {
    return [...(await this.store.catalog()).sitesById.keys()];
  }

  async insertElement(db: Db, type: ElementKind, input: ElementInput): Promise<number> {
    const now = nowStored();
    const row = await db
      .insertInto('elements')
      .values({
        uid: input.uid ?? randomUUID(),
        type,
        enabled: flag(input.enabled, true),
        archived: flag(input.archived, false),
        dateCreated: input.dateCreated ? toStoredDate(input.dateCreated) : now,
        dateUpdated: input.dateUpdated ? toStoredDate(input.dateUpdated) : now,
        dateDeleted: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Writes per-site rows (title, slug, uri, plain field values), relations, matrix blocks and the search index. */
  async writeContent(
    elementId: number,
    layoutFields: CatalogField[],
    input: ElementInput,
    siteIds: number[],
    uriFor: (siteId: number, slug: string) => Promise<string | null> | string | null,
  ): Promise<void> {
    const catalog = await this.store.catalog();
    for (const siteId of siteIds) {
      const site = catalog.sitesById.get(siteId)!;
      const override = input.sites?.[site.handle] ?? {};
      const title = override.title ?? input.title ?? null;
      const slug = override.slug ?? input.slug ?? (title ? slugify(title) : null);
      const values = { ...(input.fields ?? {}), ...(override.fields ?? {}) };
      const content: Record<string, unknown> = {};
      for (const field of layoutFields) {
        if (RELATION_FIELD_KINDS.has(field.type) || field.type === 'Matrix') continue;
        if (field.handle in values) content[field.handle] = normalizeValue(field, values[field.handle]);
      }
      const uri = slug ? await uriFor(siteId, slug) : null;
      await this.store.db
        .insertInto('elements_sites')
        .values({
          elementId,
          siteId,
          title,
          slug,
          uri,
          enabled: flag(override.enabled, true),
          content: JSON.stringify(content),
        })
        .execute();
    }
    await this.store.db.transaction().execute(async (trx) => {
      for (const field of layoutFields) {
        const value = input.fields?.[field.handle];
        if (value === undefined) continue;
        if (RELATION_FIELD_KINDS.has(field.type)) await this.writeRelations(trx, elementId, field, value);
        if (field.type === 'Matrix') await this.writeMatrix(trx, elementId, field, value);
      }
    });
    await this.store.index.indexElement(elementId);
  }

  private async writeRelations(db: Db, sourceId: number, field: CatalogField, value: unknown): Promise<void> {
    if (!Array.isArray(value) || value.some((v) => !Number.isInteger(v)))
      throw new Error(`Field "${field.handle}" takes a list of element ids`);
    await db.deleteFrom('relations').where('sourceId', '=', sourceId).where('fieldId', '=', field.id).execute();
    let sortOrder = 1;
    for (const targetId of value as number[]) {
      await db
        .insertInto('relations')
        .values({ fieldId: field.id, sourceId, sourceSiteId: null, targetId, sortOrder: sortOrder++ })
        .execute();
    }
  }

  private async writeMatrix(db: Db, ownerId: number, field: CatalogField, value: unknown): Promise<void> {
    if (!Array.isArray(value)) throw new Error(`Field "${field.handle}" takes a list of blocks`);
    const catalog = await this.store.catalog();
    const old = await db
      .selectFrom('matrixblocks')
      .select('id')
      .where('ownerId', '=', ownerId)
      .where('fieldId', '=', field.id)
      .execute();
    if (old.length)
      await db
        .deleteFrom('elements')
        .where(
          'id',
          'in',
          old.map((o) => o.id),
        )
        .execute();
    let sortOrder = 1;
    for (const block of value as MatrixBlockInput[]) {
      const blockType = catalog.blockTypesOf(field.id).find((b) => b.handle === block.type);
      if (!blockType) throw new Error(`Unknown block type "${block.type}" in field "${field.handle}"`);
      const blockId = await this.insertElement(db, 'matrixblock', { enabled: block.enabled });
      await db
        .insertInto('matrixblocks')
        .values({ id: blockId, ownerId, fieldId: field.id, typeId: blockType.id, sortOrder: sortOrder++ })
        .execute();
      const content: Record<string, unknown> = {};
      for (const f of blockType.fields)
        if (!RELATION_FIELD_KINDS.has(f.type) && f.handle in block.fields)
          content[f.handle] = normalizeValue(f, block.fields[f.handle]);
      for (const siteId of catalog.sitesById.keys()) {
        await db
          .insertInto('elements_sites')
          .values({
            elementId: blockId,
            siteId,
            title: null,
            slug: null,
            uri: null,
            enabled: 1,
            content: JSON.stringify(content),
          })
          .execute();
      }
      for (const f of blockType.fields)
        if (RELATION_FIELD_KINDS.has(f.type) && block.fields[f.handle] !== undefined)
          await this.writeRelations(db, blockId, f, block.fields[f.handle]);
    }
  }

  private async entryUri(
    sectionId: number,
    siteId: number,
    slug: string,
    parentId: number | null,
  ): Promise<string | null> {
    const catalog = await this.store.catalog();
    const format = catalog.sectionsById.get(sectionId)?.siteSettings.get(siteId)?.uriFormat ?? null;
    return this.formatUri(format, siteId, slug, parentId);
  }

  /** URI formats understand `{slug}`, `{parent.uri}` and `{parent.uri ?? 'fallback'}` (used for top-level elements). */
  private async formatUri(
    format: string | null,
    siteId: number,
    slug: string,
    parentId: number | null,
  ): Promise<string | null> {
    if (!format) return null;
    let parentUri = '';
    if (format.includes('{parent.uri') && parentId !== null) {
      const parent = await this.store.db
        .selectFrom('elements_sites')
        .select('uri')
        .where('elementId', '=', parentId)
        .where('siteId', '=', siteId)
        .executeTakeFirst();
      parentUri = parent?.uri ?? '';
    }
    return (
      format
        .replace(
          /\{parent\.uri(?:\s*\?\?\s*'([^']*)')?\}/,
          (_m, fallback: string | undefined) => parentUri || fallback || '',
        )
        .replace('{slug}', slug)
        .replace(/\/{2,}/g, '/')
        .replace(/^\/+|\/+$/g, '') || '__home__'
    );
  }
}

function titleFromFilename(filename: string): string {
  const base = filename
    .replace(/\.[^.]+$/, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return base.charAt(0).toUpperCase() + base.slice(1);
}

/** Checks and converts one plain field value to its stored form. */
function normalizeValue(field: CatalogField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case 'PlainText':
    case 'RichText':
      if (typeof value !== 'string') throw new Error(`Field "${field.handle}" takes text`);
      return value;
    case 'Number': {
      const n = typeof value === 'string' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) throw new Error(`Field "${field.handle}" takes a number`);
      return n;
    }
    case 'Date':
      return toStoredDate(value as string);
    case 'Lightswitch':
      if (typeof value !== 'boolean') throw new Error(`Field "${field.handle}" takes true or false`);
      return value;
    default:
      return value;
  }
}
