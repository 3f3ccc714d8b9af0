import { randomUUID } from 'node:crypto';
import { mkdir, writeFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type Kysely, type Transaction } from 'kysely';
import { CHANGE_CHANNEL, type ChangeNotice } from '../changes/change-notice';
import sharp from 'sharp';
import type { ContentDB, ElementKind, Flag } from '../storage/database-types';
import type { Dialect } from '../storage/migrations';
import { fileKind, isTransformable } from '../assets/file-kinds';
import { Catalog, type CatalogField } from './catalog';
import type {
  AssetInput, CategoryInput, ElementInput, EntryInput, FieldDefinition, GlobalSetInput, MatrixBlockInput,
  SectionDefinition, SiteDefinition, TagInput, UserInput,
} from './content-model';
import { RELATION_FIELD_KINDS } from './content-model';
import { normalizeKeywords } from './search-keywords';
import { nowStored, toStoredDate } from './dates';
import { appendToStructure, createStructure, removeFromStructure } from './structure-tree';

export type ChangeKind = 'content' | 'structure' | 'access';
type Db = Kysely<ContentDB> | Transaction<ContentDB>;

const flag = (value: boolean | undefined, fallback: boolean): Flag => ((value ?? fallback) ? 1 : 0);

export function slugify(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'untitled';
}

/**
 * Every write to the content and its structure goes through here: it keeps the search index,
 * relations, structures and files consistent, and tells listeners (the result cache) what changed.
 */
export class ContentStore {
  private catalogPromise: Promise<Catalog> | null = null;
  private readonly listeners = new Set<(kind: ChangeKind, version: string) => void>();
  /** Names this process in change notices, so that it can tell its own from others'. */
  readonly instanceId = randomUUID();

  constructor(readonly db: Kysely<ContentDB>, readonly dialect: Dialect, readonly assetsRoot: string) {}

  catalog(): Promise<Catalog> {
    this.catalogPromise ??= Catalog.load(this.db).catch((error: unknown) => {
      this.catalogPromise = null;
      throw error;
    });
    return this.catalogPromise;
  }

  onChange(listener: (kind: ChangeKind, version: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Records the change in the database (other processes poll the version) and tells in-process listeners at once.
   * On PostgreSQL it also announces the change with NOTIFY, so that every other instance and process listening
   * on the database drops its caches within milliseconds instead of at its next poll.
   */
  async changed(kind: ChangeKind): Promise<void> {
    if (kind === 'structure') this.catalogPromise = null;
    const version = String(Date.now()) + ':' + randomUUID();
    await this.db.insertInto('info').values({ key: 'contentVersion', value: version })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: version })).execute();
    for (const listener of this.listeners) listener(kind, version);
    if (this.dialect === 'postgres') {
      const notice: ChangeNotice = { kind, origin: this.instanceId, version };
      await sql`select pg_notify(${CHANGE_CHANNEL}, ${JSON.stringify(notice)})`.execute(this.db);
    }
  }

  /** Another process changed the database: forget the catalog so that it is read again. */
  changedElsewhere(): void {
    this.catalogPromise = null;
  }

  async contentVersion(): Promise<string | null> {
    const row = await this.db.selectFrom('info').select('value').where('key', '=', 'contentVersion').executeTakeFirst();
    return row?.value ?? null;
  }

  // ---------------------------------------------------------------- structure (the content model)

  async createSite(def: SiteDefinition): Promise<number> {
    const { id } = await this.db.insertInto('sites').values({
      uid: randomUUID(), handle: def.handle, name: def.name, language: def.language, primary: flag(def.primary, false), baseUrl: def.baseUrl.replace(/\/+$/, ''),
    }).returning('id').executeTakeFirstOrThrow();
    await this.changed('structure');
    return id;
  }

  /** Creates a global field (or, for matrix, the field with its block types and their fields). */
  async createField(def: FieldDefinition, context = 'global'): Promise<number> {
    const id = await this.db.transaction().execute(async (trx) => this.insertField(trx, def, context));
    await this.changed('structure');
    return id;
  }

  private async insertField(db: Db, def: FieldDefinition, context: string): Promise<number> {
    const { id } = await db.insertInto('fields').values({
      uid: randomUUID(), handle: def.handle, name: def.name, type: def.type, context,
      searchable: flag(def.searchable, true), settings: JSON.stringify(def.settings ?? {}),
    }).returning('id').executeTakeFirstOrThrow();
    if (def.type === 'Matrix') {
      let sortOrder = 0;
      for (const blockType of def.blockTypes ?? []) {
        const uid = randomUUID();
        const fieldIds: number[] = [];
        for (const field of blockType.fields) fieldIds.push(await this.insertField(db, field, `matrixBlockType:${uid}`));
        const layoutId = await this.insertLayout(db, 'matrixblocktype', fieldIds);
        await db.insertInto('matrixblocktypes').values({ uid, fieldId: id, handle: blockType.handle, name: blockType.name, fieldLayoutId: layoutId, sortOrder: sortOrder++ }).execute();
      }
    }
    return id;
  }

  private async insertLayout(db: Db, type: string, fieldIds: number[]): Promise<number> {
    const { id } = await db.insertInto('fieldlayouts').values({ type }).returning('id').executeTakeFirstOrThrow();
    let sortOrder = 0;
    for (const fieldId of fieldIds) await db.insertInto('fieldlayoutfields').values({ layoutId: id, fieldId, required: 0, sortOrder: sortOrder++ }).execute();
    return id;
  }

  private async layoutFor(db: Db, type: string, fieldHandles: string[]): Promise<number> {
    const ids: number[] = [];
    for (const handle of fieldHandles) {
      const field = await db.selectFrom('fields').select('id').where('handle', '=', handle).where('context', '=', 'global').executeTakeFirst();
      if (!field) throw new Error(`Unknown field "${handle}"`);
      ids.push(field.id);
    }
    return this.insertLayout(db, type, ids);
  }

  async createSection(def: SectionDefinition): Promise<number> {
    const id = await this.db.transaction().execute(async (trx) => {
      const structureId = def.type === 'structure' ? await createStructure(trx, def.maxLevels ?? null) : null;
      const { id: sectionId } = await trx.insertInto('sections').values({ uid: randomUUID(), handle: def.handle, name: def.name, type: def.type, structureId })
        .returning('id').executeTakeFirstOrThrow();
      for (const [siteHandle, settings] of Object.entries(def.siteSettings)) {
        const site = await trx.selectFrom('sites').select('id').where('handle', '=', siteHandle).executeTakeFirst();
        if (!site) throw new Error(`Unknown site "${siteHandle}"`);
        await trx.insertInto('sections_sites').values({ sectionId, siteId: site.id, hasUrls: settings.uriFormat ? 1 : 0, uriFormat: settings.uriFormat }).execute();
      }
      let sortOrder = 0;
      for (const type of def.entryTypes) {
        const layoutId = await this.layoutFor(trx, 'entrytype', type.fields);
        await trx.insertInto('entrytypes').values({ uid: randomUUID(), sectionId, handle: type.handle, name: type.name, fieldLayoutId: layoutId, sortOrder: sortOrder++ }).execute();
      }
      return sectionId;
    });
    await this.changed('structure');
    return id;
  }

  async createVolume(def: { handle: string; name: string; path: string; url: string; fields?: string[] }): Promise<number> {
    const id = await this.db.transaction().execute(async (trx) => {
      const layoutId = await this.layoutFor(trx, 'volume', def.fields ?? []);
      const count = await trx.selectFrom('volumes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const { id: volumeId } = await trx.insertInto('volumes').values({
        uid: randomUUID(), handle: def.handle, name: def.name, path: def.path, url: def.url.replace(/\/+$/, ''), fieldLayoutId: layoutId, sortOrder: Number(count.n),
      }).returning('id').executeTakeFirstOrThrow();
      await trx.insertInto('volumefolders').values({ uid: randomUUID(), parentId: null, volumeId, name: def.name, path: '' }).execute();
      return volumeId;
    });
    await mkdir(join(this.assetsRoot, def.path), { recursive: true });
    await this.changed('structure');
    return id;
  }

  async createUserGroup(def: { handle: string; name: string }): Promise<number> {
    const { id } = await this.db.insertInto('usergroups').values({ uid: randomUUID(), ...def }).returning('id').executeTakeFirstOrThrow();
    await this.changed('structure');
    return id;
  }

  async setUserFields(fieldHandles: string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('fieldlayouts').where('type', '=', 'users').execute();
      await this.layoutFor(trx, 'users', fieldHandles);
    });
    await this.changed('structure');
  }

  async createTagGroup(def: { handle: string; name: string; fields?: string[] }): Promise<number> {
    const id = await this.db.transaction().execute(async (trx) => {
      const layoutId = await this.layoutFor(trx, 'taggroup', def.fields ?? []);
      const row = await trx.insertInto('taggroups').values({ uid: randomUUID(), handle: def.handle, name: def.name, fieldLayoutId: layoutId }).returning('id').executeTakeFirstOrThrow();
      return row.id;
    });
    await this.changed('structure');
    return id;
  }

  async createCategoryGroup(def: { handle: string; name: string; uriFormat?: string | null; maxLevels?: number | null; fields?: string[] }): Promise<number> {
    const id = await this.db.transaction().execute(async (trx) => {
      const structureId = await createStructure(trx, def.maxLevels ?? null);
      const layoutId = await this.layoutFor(trx, 'categorygroup', def.fields ?? []);
      const row = await trx.insertInto('categorygroups').values({
        uid: randomUUID(), handle: def.handle, name: def.name, structureId, fieldLayoutId: layoutId, uriFormat: def.uriFormat ?? null,
      }).returning('id').executeTakeFirstOrThrow();
      return row.id;
    });
    await this.changed('structure');
    return id;
  }

  /** A global set is both structure (its layout) and an element (its content). */
  async createGlobalSet(def: GlobalSetInput & { fieldHandles: string[] }): Promise<number> {
    const id = await this.db.transaction().execute(async (trx) => {
      const layoutId = await this.layoutFor(trx, 'globalset', def.fieldHandles);
      const count = await trx.selectFrom('globalsets').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const elementId = await this.insertElement(trx, 'globalset', { ...def, title: def.name });
      await trx.insertInto('globalsets').values({ id: elementId, name: def.name, handle: def.handle, fieldLayoutId: layoutId, sortOrder: Number(count.n) }).execute();
      return elementId;
    });
    this.catalogPromise = null;
    const catalog = await this.catalog();
    await this.writeContent(id, catalog.globalSetsById.get(id)!.fields, def, await this.allSiteIds(), () => null);
    await this.changed('structure');
    return id;
  }

  async createTransform(def: { handle: string; name: string; mode?: string; position?: string; width?: number | null; height?: number | null; format?: string | null; quality?: number | null; interlace?: string }): Promise<number> {
    const { id } = await this.db.insertInto('assettransforms').values({
      uid: randomUUID(), handle: def.handle, name: def.name, mode: def.mode ?? 'crop', position: def.position ?? 'center-center',
      width: def.width ?? null, height: def.height ?? null, format: def.format ?? null, quality: def.quality ?? null, interlace: def.interlace ?? 'none',
    }).returning('id').executeTakeFirstOrThrow();
    await this.changed('structure');
    return id;
  }

  // ---------------------------------------------------------------- content (elements)

  async saveEntry(input: EntryInput): Promise<number> {
    const catalog = await this.catalog();
    const section = catalog.sectionsByHandle.get(input.section);
    if (!section) throw new Error(`Unknown section "${input.section}"`);
    const type = input.type ? section.entryTypes.find((t) => t.handle === input.type) : section.entryTypes[0];
    if (!type) throw new Error(`Unknown entry type "${input.type}" in section "${section.handle}"`);
    if (section.type === 'single') {
      const existing = await this.db.selectFrom('entries').select('id').where('sectionId', '=', section.id).executeTakeFirst();
      if (existing) throw new Error(`Section "${section.handle}" is a single and already has its entry ${existing.id}`);
    }
    const siteIds = [...section.siteSettings.keys()];
    const id = await this.db.transaction().execute(async (trx) => {
      const elementId = await this.insertElement(trx, 'entry', input);
      const now = nowStored();
      await trx.insertInto('entries').values({
        id: elementId, sectionId: section.id, typeId: type.id, authorId: input.authorId ?? null,
        postDate: input.postDate === null ? null : toStoredDate(input.postDate ?? input.dateCreated ?? now),
        expiryDate: input.expiryDate ? toStoredDate(input.expiryDate) : null,
      }).execute();
      if (section.structureId !== null) await appendToStructure(trx, section.structureId, elementId, input.parentId ?? null);
      return elementId;
    });
    await this.writeContent(id, type.fields, input, siteIds, (siteId, slug) => this.entryUri(section.id, siteId, slug, input.parentId ?? null));
    await this.changed('content');
    return id;
  }

  async saveCategory(input: CategoryInput): Promise<number> {
    const catalog = await this.catalog();
    const group = [...catalog.categoryGroupsById.values()].find((g) => g.handle === input.group);
    if (!group) throw new Error(`Unknown category group "${input.group}"`);
    const id = await this.db.transaction().execute(async (trx) => {
      const elementId = await this.insertElement(trx, 'category', input);
      await trx.insertInto('categories').values({ id: elementId, groupId: group.id }).execute();
      await appendToStructure(trx, group.structureId!, elementId, input.parentId ?? null);
      return elementId;
    });
    await this.writeContent(id, group.fields, input, await this.allSiteIds(), (siteId, slug) =>
      this.formatUri(group.uriFormat ?? null, siteId, slug, input.parentId ?? null));
    await this.changed('content');
    return id;
  }

  async saveTag(input: TagInput): Promise<number> {
    const catalog = await this.catalog();
    const group = [...catalog.tagGroupsById.values()].find((g) => g.handle === input.group);
    if (!group) throw new Error(`Unknown tag group "${input.group}"`);
    const id = await this.db.transaction().execute(async (trx) => {
      const elementId = await this.insertElement(trx, 'tag', input);
      await trx.insertInto('tags').values({ id: elementId, groupId: group.id }).execute();
      return elementId;
    });
    await this.writeContent(id, group.fields, input, await this.allSiteIds(), () => null);
    await this.changed('content');
    return id;
  }

  async saveUser(input: UserInput): Promise<number> {
    const catalog = await this.catalog();
    const id = await this.db.transaction().execute(async (trx) => {
      const elementId = await this.insertElement(trx, 'user', { ...input, title: null, slug: null });
      await trx.insertInto('users').values({
        id: elementId, username: input.username, email: input.email, firstName: input.firstName ?? null, lastName: input.lastName ?? null,
        photoId: input.photoId ?? null, preferredLanguage: input.preferredLanguage ?? null, preferences: JSON.stringify(input.preferences ?? {}),
      }).execute();
      for (const handle of input.groups ?? []) {
        const group = await trx.selectFrom('usergroups').select('id').where('handle', '=', handle).executeTakeFirst();
        if (!group) throw new Error(`Unknown user group "${handle}"`);
        await trx.insertInto('usergroups_users').values({ groupId: group.id, userId: elementId }).execute();
      }
      return elementId;
    });
    await this.writeContent(id, catalog.userFields, { ...input, title: null }, await this.allSiteIds(), () => null);
    await this.changed('content');
    return id;
  }

  async setUserPhoto(userId: number, photoId: number | null): Promise<void> {
    await this.db.updateTable('users').set({ photoId }).where('id', '=', userId).execute();
    await this.touch(userId);
  }

  /** Stores the file in its volume folder, reads its image size with sharp, and creates the asset element. */
  async saveAsset(input: AssetInput): Promise<number> {
    const catalog = await this.catalog();
    const volume = catalog.volumesByHandle.get(input.volume);
    if (!volume) throw new Error(`Unknown volume "${input.volume}"`);
    if (!/^[^/\\]+$/.test(input.filename) || input.filename.startsWith('.')) throw new Error(`Invalid file name "${input.filename}"`);
    const folderId = await this.ensureFolder(volume.id, input.folder ?? '');
    const folder = await this.db.selectFrom('volumefolders').select('path').where('id', '=', folderId).executeTakeFirstOrThrow();
    const directory = join(this.assetsRoot, volume.path, folder.path);
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
    const id = await this.db.transaction().execute(async (trx) => {
      const elementId = await this.insertElement(trx, 'asset', { ...input, title: input.title ?? titleFromFilename(input.filename) });
      await trx.insertInto('assets').values({
        id: elementId, volumeId: volume.id, folderId, uploaderId: input.uploaderId ?? null, filename: input.filename, kind: fileKind(input.filename),
        width, height, size: info.size, focalPoint: input.focalPoint ? `${input.focalPoint.x};${input.focalPoint.y}` : null, dateModified: toStoredDate(info.mtime),
      }).execute();
      return elementId;
    });
    await this.writeContent(id, volume.fields, { ...input, title: input.title ?? titleFromFilename(input.filename) }, await this.allSiteIds(), () => null);
    await this.changed('content');
    return id;
  }

  private async ensureFolder(volumeId: number, path: string): Promise<number> {
    const segments = path.split('/').filter(Boolean);
    if (segments.some((s) => s === '..' || s === '.')) throw new Error(`Invalid folder path "${path}"`);
    let parent = await this.db.selectFrom('volumefolders').select(['id']).where('volumeId', '=', volumeId).where('path', '=', '').executeTakeFirstOrThrow();
    let current = '';
    for (const segment of segments) {
      current += `${segment}/`;
      const existing = await this.db.selectFrom('volumefolders').select('id').where('volumeId', '=', volumeId).where('path', '=', current).executeTakeFirst();
      parent = existing ?? await this.db.insertInto('volumefolders').values({ uid: randomUUID(), parentId: parent.id, volumeId, name: segment, path: current }).returning('id').executeTakeFirstOrThrow();
    }
    return parent.id;
  }

  /** Replaces the custom field values of an element (all sites unless `site` is given). */
  async updateFields(elementId: number, fields: Record<string, unknown>, title?: string): Promise<void> {
    const { layoutFields } = await this.layoutOfElement(elementId);
    const siteRows = await this.db.selectFrom('elements_sites').select(['siteId', 'content']).where('elementId', '=', elementId).execute();
    for (const row of siteRows) {
      const content = { ...(JSON.parse(row.content) as Record<string, unknown>) };
      for (const field of layoutFields) if (field.handle in fields && !RELATION_FIELD_KINDS.has(field.type) && field.type !== 'Matrix') content[field.handle] = normalizeValue(field, fields[field.handle]);
      await this.db.updateTable('elements_sites').set({ content: JSON.stringify(content), ...(title !== undefined ? { title } : {}) })
        .where('elementId', '=', elementId).where('siteId', '=', row.siteId).execute();
    }
    await this.db.transaction().execute(async (trx) => {
      for (const field of layoutFields) {
        if (!(field.handle in fields)) continue;
        if (RELATION_FIELD_KINDS.has(field.type)) await this.writeRelations(trx, elementId, field, fields[field.handle]);
        if (field.type === 'Matrix') await this.writeMatrix(trx, elementId, field, fields[field.handle]);
      }
    });
    await this.indexElement(elementId);
    await this.touch(elementId);
  }

  async setEnabled(elementId: number, enabled: boolean): Promise<void> {
    await this.db.updateTable('elements').set({ enabled: enabled ? 1 : 0, dateUpdated: nowStored() }).where('id', '=', elementId).execute();
    await this.changed('content');
  }

  /** Soft delete (the element shows up with `trashed: true`), or hard delete with its rows and structure position. */
  async deleteElement(elementId: number, hard = false): Promise<void> {
    if (!hard) {
      await this.db.updateTable('elements').set({ dateDeleted: nowStored() }).where('id', '=', elementId).execute();
    } else {
      await this.db.transaction().execute(async (trx) => {
        const positions = await trx.selectFrom('structureelements').select('structureId').where('elementId', '=', elementId).execute();
        for (const p of positions) await removeFromStructure(trx, p.structureId, elementId);
        await trx.deleteFrom('relations').where((eb) => eb.or([eb('sourceId', '=', elementId), eb('targetId', '=', elementId)])).execute();
        await trx.deleteFrom('searchindex').where('elementId', '=', elementId).execute();
        for (const table of ['entries', 'assets', 'users', 'tags', 'categories', 'matrixblocks', 'globalsets', 'elements_sites'] as const) {
          await trx.deleteFrom(table).where(table === 'elements_sites' ? 'elementId' : 'id', '=', elementId).execute();
        }
        await trx.deleteFrom('elements').where('id', '=', elementId).execute();
      });
    }
    await this.changed('content');
  }

  private async touch(elementId: number): Promise<void> {
    await this.db.updateTable('elements').set({ dateUpdated: nowStored() }).where('id', '=', elementId).execute();
    await this.changed('content');
  }

  private async allSiteIds(): Promise<number[]> {
    return [...(await this.catalog()).sitesById.keys()];
  }

  private async insertElement(db: Db, type: ElementKind, input: ElementInput): Promise<number> {
    const now = nowStored();
    const row = await db.insertInto('elements').values({
      uid: input.uid ?? randomUUID(), type, enabled: flag(input.enabled, true), archived: flag(input.archived, false),
      dateCreated: input.dateCreated ? toStoredDate(input.dateCreated) : now, dateUpdated: input.dateUpdated ? toStoredDate(input.dateUpdated) : now, dateDeleted: null,
    }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  /** Writes per-site rows (title, slug, uri, plain field values), relations, matrix blocks and the search index. */
  private async writeContent(elementId: number, layoutFields: CatalogField[], input: ElementInput, siteIds: number[],
    uriFor: (siteId: number, slug: string) => Promise<string | null> | string | null): Promise<void> {
    const catalog = await this.catalog();
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
      await this.db.insertInto('elements_sites').values({
        elementId, siteId, title, slug, uri, enabled: flag(override.enabled, true), content: JSON.stringify(content),
      }).execute();
    }
    await this.db.transaction().execute(async (trx) => {
      for (const field of layoutFields) {
        const value = input.fields?.[field.handle];
        if (value === undefined) continue;
        if (RELATION_FIELD_KINDS.has(field.type)) await this.writeRelations(trx, elementId, field, value);
        if (field.type === 'Matrix') await this.writeMatrix(trx, elementId, field, value);
      }
    });
    await this.indexElement(elementId);
  }

  private async writeRelations(db: Db, sourceId: number, field: CatalogField, value: unknown): Promise<void> {
    if (!Array.isArray(value) || value.some((v) => !Number.isInteger(v))) throw new Error(`Field "${field.handle}" takes a list of element ids`);
    await db.deleteFrom('relations').where('sourceId', '=', sourceId).where('fieldId', '=', field.id).execute();
    let sortOrder = 1;
    for (const targetId of value as number[]) {
      await db.insertInto('relations').values({ fieldId: field.id, sourceId, sourceSiteId: null, targetId, sortOrder: sortOrder++ }).execute();
    }
  }

  private async writeMatrix(db: Db, ownerId: number, field: CatalogField, value: unknown): Promise<void> {
    if (!Array.isArray(value)) throw new Error(`Field "${field.handle}" takes a list of blocks`);
    const catalog = await this.catalog();
    const old = await db.selectFrom('matrixblocks').select('id').where('ownerId', '=', ownerId).where('fieldId', '=', field.id).execute();
    if (old.length) await db.deleteFrom('elements').where('id', 'in', old.map((o) => o.id)).execute();
    let sortOrder = 1;
    for (const block of value as MatrixBlockInput[]) {
      const blockType = catalog.blockTypesOf(field.id).find((b) => b.handle === block.type);
      if (!blockType) throw new Error(`Unknown block type "${block.type}" in field "${field.handle}"`);
      const blockId = await this.insertElement(db, 'matrixblock', { enabled: block.enabled });
      await db.insertInto('matrixblocks').values({ id: blockId, ownerId, fieldId: field.id, typeId: blockType.id, sortOrder: sortOrder++ }).execute();
      const content: Record<string, unknown> = {};
      for (const f of blockType.fields) if (!RELATION_FIELD_KINDS.has(f.type) && f.handle in block.fields) content[f.handle] = normalizeValue(f, block.fields[f.handle]);
      for (const siteId of catalog.sitesById.keys()) {
        await db.insertInto('elements_sites').values({ elementId: blockId, siteId, title: null, slug: null, uri: null, enabled: 1, content: JSON.stringify(content) }).execute();
      }
      for (const f of blockType.fields) if (RELATION_FIELD_KINDS.has(f.type) && block.fields[f.handle] !== undefined) await this.writeRelations(db, blockId, f, block.fields[f.handle]);
    }
  }

  /** Rebuilds the search index rows of one element: its searchable attributes and custom fields, per site. */
  async indexElement(elementId: number): Promise<void> {
    const element = await this.db.selectFrom('elements').select(['type']).where('id', '=', elementId).executeTakeFirstOrThrow();
    const siteRows = await this.db.selectFrom('elements_sites').selectAll().where('elementId', '=', elementId).execute();
    const { layoutFields } = await this.layoutOfElement(elementId);
    const attributes: Record<string, string> = {};
    if (element.type === 'asset') {
      const asset = await this.db.selectFrom('assets').select(['filename', 'kind']).where('id', '=', elementId).executeTakeFirstOrThrow();
      attributes.filename = asset.filename;
      attributes.extension = asset.filename.includes('.') ? asset.filename.split('.').pop()! : '';
      attributes.kind = asset.kind;
    }
    if (element.type === 'user') {
      const user = await this.db.selectFrom('users').selectAll().where('id', '=', elementId).executeTakeFirstOrThrow();
      Object.assign(attributes, { username: user.username, firstname: user.firstName ?? '', lastname: user.lastName ?? '', fullname: [user.firstName, user.lastName].filter(Boolean).join(' '), email: user.email });
    }
    const relations = await this.db.selectFrom('relations').innerJoin('elements_sites', 'elements_sites.elementId', 'relations.targetId')
      .select(['relations.fieldId', 'elements_sites.title', 'elements_sites.siteId']).where('relations.sourceId', '=', elementId).execute();
    await this.db.deleteFrom('searchindex').where('elementId', '=', elementId).execute();
    for (const row of siteRows) {
      const content = JSON.parse(row.content) as Record<string, unknown>;
      const rows: Array<{ attribute: string; fieldId: number; keywords: string }> = [];
      if (element.type !== 'user' && element.type !== 'matrixblock') {
        rows.push({ attribute: 'title', fieldId: 0, keywords: normalizeKeywords(row.title ?? '') });
        if (element.type === 'entry' || element.type === 'category') rows.push({ attribute: 'slug', fieldId: 0, keywords: normalizeKeywords(row.slug ?? '') });
      }
      for (const [attribute, value] of Object.entries(attributes)) rows.push({ attribute, fieldId: 0, keywords: normalizeKeywords(value) });
      for (const field of layoutFields) {
        if (!field.searchable) continue;
        let text = '';
        if (RELATION_FIELD_KINDS.has(field.type)) {
          text = relations.filter((r) => r.fieldId === field.id && r.siteId === row.siteId).map((r) => r.title ?? '').join(' ');
        } else if (field.type === 'Matrix') {
          text = await this.matrixText(elementId, field.id, row.siteId);
        } else if (field.type === 'PlainText' || field.type === 'RichText') {
          text = String(content[field.handle] ?? '');
        } else continue;
        rows.push({ attribute: 'field', fieldId: field.id, keywords: normalizeKeywords(text) });
      }
      if (rows.length) await this.db.insertInto('searchindex').values(rows.map((r) => ({ ...r, elementId, siteId: row.siteId }))).execute();
    }
  }

  private async matrixText(ownerId: number, fieldId: number, siteId: number): Promise<string> {
    const blocks = await this.db.selectFrom('matrixblocks').innerJoin('elements_sites', 'elements_sites.elementId', 'matrixblocks.id')
      .select(['elements_sites.content']).where('matrixblocks.ownerId', '=', ownerId).where('matrixblocks.fieldId', '=', fieldId).where('elements_sites.siteId', '=', siteId).execute();
    return blocks.map((b) => Object.values(JSON.parse(b.content) as Record<string, unknown>).filter((v) => typeof v === 'string').join(' ')).join(' ');
  }

  /** Whether an element with this id exists (in any state). */
  async elementExists(elementId: number): Promise<boolean> {
    return (await this.db.selectFrom('elements').select('id').where('id', '=', elementId).executeTakeFirst()) !== undefined;
  }

  /** The field layout of any element, found from its kind. */
  async layoutOfElement(elementId: number): Promise<{ layoutFields: CatalogField[] }> {
    const catalog = await this.catalog();
    const element = await this.db.selectFrom('elements').select('type').where('id', '=', elementId).executeTakeFirstOrThrow();
    switch (element.type) {
      case 'entry': {
        const e = await this.db.selectFrom('entries').select('typeId').where('id', '=', elementId).executeTakeFirstOrThrow();
        return { layoutFields: catalog.entryTypesById.get(e.typeId)?.fields ?? [] };
      }
      case 'asset': {
        const a = await this.db.selectFrom('assets').select('volumeId').where('id', '=', elementId).executeTakeFirstOrThrow();
        return { layoutFields: catalog.volumesById.get(a.volumeId)?.fields ?? [] };
      }
      case 'category': {
        const c = await this.db.selectFrom('categories').select('groupId').where('id', '=', elementId).executeTakeFirstOrThrow();
        return { layoutFields: catalog.categoryGroupsById.get(c.groupId)?.fields ?? [] };
      }
      case 'tag': {
        const t = await this.db.selectFrom('tags').select('groupId').where('id', '=', elementId).executeTakeFirstOrThrow();
        return { layoutFields: catalog.tagGroupsById.get(t.groupId)?.fields ?? [] };
      }
      case 'globalset': return { layoutFields: catalog.globalSetsById.get(elementId)?.fields ?? [] };
      case 'user': return { layoutFields: catalog.userFields };
      case 'matrixblock': {
        const b = await this.db.selectFrom('matrixblocks').select('typeId').where('id', '=', elementId).executeTakeFirstOrThrow();
        return { layoutFields: catalog.blockTypesById.get(b.typeId)?.fields ?? [] };
      }
    }
  }

  private async entryUri(sectionId: number, siteId: number, slug: string, parentId: number | null): Promise<string | null> {
    const catalog = await this.catalog();
    const format = catalog.sectionsById.get(sectionId)?.siteSettings.get(siteId)?.uriFormat ?? null;
    return this.formatUri(format, siteId, slug, parentId);
  }

  /** URI formats understand `{slug}`, `{parent.uri}` and `{parent.uri ?? 'fallback'}` (used for top-level elements). */
  private async formatUri(format: string | null, siteId: number, slug: string, parentId: number | null): Promise<string | null> {
    if (!format) return null;
    let parentUri = '';
    if (format.includes('{parent.uri') && parentId !== null) {
      const parent = await this.db.selectFrom('elements_sites').select('uri').where('elementId', '=', parentId).where('siteId', '=', siteId).executeTakeFirst();
      parentUri = parent?.uri ?? '';
    }
    return format.replace(/\{parent\.uri(?:\s*\?\?\s*'([^']*)')?\}/, (_m, fallback: string | undefined) => parentUri || fallback || '')
      .replace('{slug}', slug).replace(/\/{2,}/g, '/').replace(/^\/+|\/+$/g, '') || '__home__';
  }
}

function titleFromFilename(filename: string): string {
  const base = filename.replace(/\.[^.]+$/, '').replace(/[-_]+/g, ' ').trim();
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
