import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { ContentDB, Flag } from './database-types';
import type { FieldDefinition, GlobalSetInput, SectionDefinition, SiteDefinition } from '../model/content-model';
import { createStructure } from './structure-tree';
import type { ElementWriter } from './element-writer';
import type { StoreAccess } from './store-access';

type Db = Kysely<ContentDB> | Transaction<ContentDB>;

const flag = (value: boolean | undefined, fallback: boolean): Flag => ((value ?? fallback) ? 1 : 0);

/**
 * The content model's definitions (the CMS's "structure"): sites, fields and their layouts, sections with entry
 * types, volumes, user, tag and category groups, global sets and named transforms. Each write announces a
 * structure change (schemas and the catalog are rebuilt).
 */
export class ContentDefinitions {
  constructor(private readonly store: StoreAccess & { readonly elements: ElementWriter }) {}

  async createSite(def: SiteDefinition): Promise<number> {
    const { id } = await this.store.db
      .insertInto('sites')
      .values({
        uid: randomUUID(),
        handle: def.handle,
        name: def.name,
        language: def.language,
        primary: flag(def.primary, false),
        baseUrl: def.baseUrl.replace(/\/+$/, ''),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.store.changed('structure');
    return id;
  }

  /** Creates a global field (or, for matrix, the field with its block types and their fields). */
  async createField(def: FieldDefinition, context = 'global'): Promise<number> {
    const id = await this.store.db.transaction().execute(async (trx) => this.insertField(trx, def, context));
    await this.store.changed('structure');
    return id;
  }

  private async insertField(db: Db, def: FieldDefinition, context: string): Promise<number> {
    const { id } = await db
      .insertInto('fields')
      .values({
        uid: randomUUID(),
        handle: def.handle,
        name: def.name,
        type: def.type,
        context,
        searchable: flag(def.searchable, true),
        settings: JSON.stringify(def.settings ?? {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (def.type === 'Matrix') {
      let sortOrder = 0;
      for (const blockType of def.blockTypes ?? []) {
        const uid = randomUUID();
        const fieldIds: number[] = [];
        for (const field of blockType.fields)
          fieldIds.push(await this.insertField(db, field, `matrixBlockType:${uid}`));
        const layoutId = await this.insertLayout(db, 'matrixblocktype', fieldIds);
        await db
          .insertInto('matrixblocktypes')
          .values({
            uid,
            fieldId: id,
            handle: blockType.handle,
            name: blockType.name,
            fieldLayoutId: layoutId,
            sortOrder: sortOrder++,
          })
          .execute();
      }
    }
    return id;
  }

  private async insertLayout(db: Db, type: string, fieldIds: number[]): Promise<number> {
    const { id } = await db.insertInto('fieldlayouts').values({ type }).returning('id').executeTakeFirstOrThrow();
    let sortOrder = 0;
    for (const fieldId of fieldIds)
      await db
        .insertInto('fieldlayoutfields')
        .values({ layoutId: id, fieldId, required: 0, sortOrder: sortOrder++ })
        .execute();
    return id;
  }

  private async layoutFor(db: Db, type: string, fieldHandles: string[]): Promise<number> {
    const ids: number[] = [];
    for (const handle of fieldHandles) {
      const field = await db
        .selectFrom('fields')
        .select('id')
        .where('handle', '=', handle)
        .where('context', '=', 'global')
        .executeTakeFirst();
      if (!field) throw new Error(`Unknown field "${handle}"`);
      ids.push(field.id);
    }
    return this.insertLayout(db, type, ids);
  }

  async createSection(def: SectionDefinition): Promise<number> {
    const id = await this.store.db.transaction().execute(async (trx) => {
      const structureId = def.type === 'structure' ? await createStructure(trx, def.maxLevels ?? null) : null;
      const { id: sectionId } = await trx
        .insertInto('sections')
        .values({ uid: randomUUID(), handle: def.handle, name: def.name, type: def.type, structureId })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [siteHandle, settings] of Object.entries(def.siteSettings)) {
        const site = await trx.selectFrom('sites').select('id').where('handle', '=', siteHandle).executeTakeFirst();
        if (!site) throw new Error(`Unknown site "${siteHandle}"`);
        await trx
          .insertInto('sections_sites')
          .values({ sectionId, siteId: site.id, hasUrls: settings.uriFormat ? 1 : 0, uriFormat: settings.uriFormat })
          .execute();
      }
      let sortOrder = 0;
      for (const type of def.entryTypes) {
        const layoutId = await this.layoutFor(trx, 'entrytype', type.fields);
        await trx
          .insertInto('entrytypes')
          .values({
            uid: randomUUID(),
            sectionId,
            handle: type.handle,
            name: type.name,
            fieldLayoutId: layoutId,
            sortOrder: sortOrder++,
          })
          .execute();
      }
      return sectionId;
    });
    await this.store.changed('structure');
    return id;
  }

  async createVolume(def: {
    handle: string;
    name: string;
    path: string;
    url: string;
    fields?: string[];
  }): Promise<number> {
    const id = await this.store.db.transaction().execute(async (trx) => {
      const layoutId = await this.layoutFor(trx, 'volume', def.fields ?? []);
      const count = await trx
        .selectFrom('volumes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const { id: volumeId } = await trx
        .insertInto('volumes')
        .values({
          uid: randomUUID(),
          handle: def.handle,
          name: def.name,
          path: def.path,
          url: def.url.replace(/\/+$/, ''),
          fieldLayoutId: layoutId,
          sortOrder: Number(count.n),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('volumefolders')
        .values({ uid: randomUUID(), parentId: null, volumeId, name: def.name, path: '' })
        .execute();
      return volumeId;
    });
    await mkdir(join(this.store.assetsRoot, def.path), { recursive: true });
    await this.store.changed('structure');
    return id;
  }

  async createUserGroup(def: { handle: string; name: string }): Promise<number> {
    const { id } = await this.store.db
      .insertInto('usergroups')
      .values({ uid: randomUUID(), ...def })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.store.changed('structure');
    return id;
  }

  async setUserFields(fieldHandles: string[]): Promise<void> {
    await this.store.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('fieldlayouts').where('type', '=', 'users').execute();
      await this.layoutFor(trx, 'users', fieldHandles);
    });
    await this.store.changed('structure');
  }

  async createTagGroup(def: { handle: string; name: string; fields?: string[] }): Promise<number> {
    const id = await this.store.db.transaction().execute(async (trx) => {
      const layoutId = await this.layoutFor(trx, 'taggroup', def.fields ?? []);
      const row = await trx
        .insertInto('taggroups')
        .values({ uid: randomUUID(), handle: def.handle, name: def.name, fieldLayoutId: layoutId })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
    await this.store.changed('structure');
    return id;
  }

  async createCategoryGroup(def: {
    handle: string;
    name: string;
    uriFormat?: string | null;
    maxLevels?: number | null;
    fields?: string[];
  }): Promise<number> {
    const id = await this.store.db.transaction().execute(async (trx) => {
      const structureId = await createStructure(trx, def.maxLevels ?? null);
      const layoutId = await this.layoutFor(trx, 'categorygroup', def.fields ?? []);
      const row = await trx
        .insertInto('categorygroups')
        .values({
          uid: randomUUID(),
          handle: def.handle,
          name: def.name,
          structureId,
          fieldLayoutId: layoutId,
          uriFormat: def.uriFormat ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
    await this.store.changed('structure');
    return id;
  }

  /** A global set is both structure (its layout) and an element (its content). */
  async createGlobalSet(def: GlobalSetInput & { fieldHandles: string[] }): Promise<number> {
    const id = await this.store.db.transaction().execute(async (trx) => {
      const layoutId = await this.layoutFor(trx, 'globalset', def.fieldHandles);
      const count = await trx
        .selectFrom('globalsets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const elementId = await this.store.elements.insertElement(trx, 'globalset', { ...def, title: def.name });
      await trx
        .insertInto('globalsets')
        .values({
          id: elementId,
          name: def.name,
          handle: def.handle,
          fieldLayoutId: layoutId,
          sortOrder: Number(count.n),
        })
        .execute();
      return elementId;
    });
    this.store.changedElsewhere();
    const catalog = await this.store.catalog();
    await this.store.elements.writeContent(
      id,
      catalog.globalSetsById.get(id)!.fields,
      def,
      await this.store.elements.allSiteIds(),
      () => null,
    );
    await this.store.changed('structure');
    return id;
  }

  async createTransform(def: {
    handle: string;
    name: string;
    mode?: string;
    position?: string;
    width?: number | null;
    height?: number | null;
    format?: string | null;
    quality?: number | null;
    interlace?: string;
  }): Promise<number> {
    const { id } = await this.store.db
      .insertInto('assettransforms')
      .values({
        uid: randomUUID(),
        handle: def.handle,
        name: def.name,
        mode: def.mode ?? 'crop',
        position: def.position ?? 'center-center',
        width: def.width ?? null,
        height: def.height ?? null,
        format: def.format ?? null,
        quality: def.quality ?? null,
        interlace: def.interlace ?? 'none',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.store.changed('structure');
    return id;
  }
}
