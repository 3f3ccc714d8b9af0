import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { CHANGE_CHANNEL, type ChangeNotice } from './change-notice';
import type { ContentDB } from './database-types';
import type { Dialect } from './migrations';
import { Catalog, type CatalogField } from './catalog';
import type {
  AssetInput,
  CategoryInput,
  EntryInput,
  FieldDefinition,
  GlobalSetInput,
  SectionDefinition,
  SiteDefinition,
  TagInput,
  UserInput,
} from '../model/content-model';
import { ContentDefinitions } from './content-definitions';
import { ElementWriter } from './element-writer';
import { ElementIndex } from './element-index';
import type { ChangeKind, StoreAccess } from './store-access';

export type { ChangeKind } from './store-access';

/**
 * The content tables behind one entry point: the catalog (read once per structure version), change notices
 * (recorded in the database, told to in-process listeners, NOTIFY on PostgreSQL), and the writers of the content
 * model's definitions (ContentDefinitions), of elements (ElementWriter) and of the search index (ElementIndex).
 */
export class ContentStore implements StoreAccess {
  private catalogPromise: Promise<Catalog> | null = null;
  private readonly listeners = new Set<(kind: ChangeKind, version: string) => void>();
  /** Names this process in change notices, so that it can tell its own from others'. */
  readonly instanceId = randomUUID();
  readonly definitions = new ContentDefinitions(this);
  readonly elements = new ElementWriter(this);
  readonly index = new ElementIndex(this);

  constructor(
    readonly db: Kysely<ContentDB>,
    readonly dialect: Dialect,
    readonly assetsRoot: string,
  ) {}

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
    await this.db
      .insertInto('info')
      .values({ key: 'contentVersion', value: version })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: version }))
      .execute();
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

  // The writers' operations, as the rest of the app and the import call them.
  createSite(def: SiteDefinition): Promise<number> {
    return this.definitions.createSite(def);
  }
  createField(def: FieldDefinition, context = 'global'): Promise<number> {
    return this.definitions.createField(def, context);
  }
  createSection(def: SectionDefinition): Promise<number> {
    return this.definitions.createSection(def);
  }
  createVolume(def: Parameters<ContentDefinitions['createVolume']>[0]): Promise<number> {
    return this.definitions.createVolume(def);
  }
  createUserGroup(def: { handle: string; name: string }): Promise<number> {
    return this.definitions.createUserGroup(def);
  }
  setUserFields(fieldHandles: string[]): Promise<void> {
    return this.definitions.setUserFields(fieldHandles);
  }
  createTagGroup(def: Parameters<ContentDefinitions['createTagGroup']>[0]): Promise<number> {
    return this.definitions.createTagGroup(def);
  }
  createCategoryGroup(def: Parameters<ContentDefinitions['createCategoryGroup']>[0]): Promise<number> {
    return this.definitions.createCategoryGroup(def);
  }
  createGlobalSet(def: GlobalSetInput & { fieldHandles: string[] }): Promise<number> {
    return this.definitions.createGlobalSet(def);
  }
  createTransform(def: Parameters<ContentDefinitions['createTransform']>[0]): Promise<number> {
    return this.definitions.createTransform(def);
  }
  saveEntry(input: EntryInput): Promise<number> {
    return this.elements.saveEntry(input);
  }
  saveCategory(input: CategoryInput): Promise<number> {
    return this.elements.saveCategory(input);
  }
  saveTag(input: TagInput): Promise<number> {
    return this.elements.saveTag(input);
  }
  saveUser(input: UserInput): Promise<number> {
    return this.elements.saveUser(input);
  }
  setUserPhoto(userId: number, photoId: number | null): Promise<void> {
    return this.elements.setUserPhoto(userId, photoId);
  }
  saveAsset(input: AssetInput): Promise<number> {
    return this.elements.saveAsset(input);
  }
  updateFields(elementId: number, fields: Record<string, unknown>, title?: string): Promise<void> {
    return this.elements.updateFields(elementId, fields, title);
  }
  setEnabled(elementId: number, enabled: boolean): Promise<void> {
    return this.elements.setEnabled(elementId, enabled);
  }
  deleteElement(elementId: number, hard = false): Promise<void> {
    return this.elements.deleteElement(elementId, hard);
  }
  indexElement(elementId: number): Promise<void> {
    return this.index.indexElement(elementId);
  }
  elementExists(elementId: number): Promise<boolean> {
    return this.index.elementExists(elementId);
  }
  layoutOfElement(elementId: number): Promise<{ layoutFields: CatalogField[] }> {
    return this.index.layoutOfElement(elementId);
  }
}
