import type { Kysely } from 'kysely';
import type { ContentDB, FieldKind, SectionType } from './database-types';

export interface CatalogSite {
  id: number;
  uid: string;
  handle: string;
  name: string;
  language: string;
  primary: boolean;
  baseUrl: string;
}
export interface CatalogField {
  id: number;
  uid: string;
  handle: string;
  name: string;
  type: FieldKind;
  context: string;
  searchable: boolean;
  settings: Record<string, unknown>;
}
export interface CatalogEntryType {
  id: number;
  uid: string;
  sectionId: number;
  handle: string;
  name: string;
  fieldLayoutId: number;
  fields: CatalogField[];
}
export interface CatalogSection {
  id: number;
  uid: string;
  handle: string;
  name: string;
  type: SectionType;
  structureId: number | null;
  siteSettings: Map<number, { hasUrls: boolean; uriFormat: string | null }>;
  entryTypes: CatalogEntryType[];
}
export interface CatalogVolume {
  id: number;
  uid: string;
  handle: string;
  name: string;
  path: string;
  url: string;
  fieldLayoutId: number;
  fields: CatalogField[];
}
export interface CatalogGroup {
  id: number;
  uid: string;
  handle: string;
  name: string;
  fieldLayoutId: number;
  fields: CatalogField[];
  structureId?: number;
  uriFormat?: string | null;
}
export interface CatalogGlobalSet {
  id: number;
  uid: string;
  handle: string;
  name: string;
  fieldLayoutId: number;
  fields: CatalogField[];
}
export interface CatalogUserGroup {
  id: number;
  uid: string;
  handle: string;
  name: string;
}
export interface CatalogBlockType {
  id: number;
  uid: string;
  fieldId: number;
  handle: string;
  name: string;
  fieldLayoutId: number;
  fields: CatalogField[];
}
export interface CatalogTransform {
  id: number;
  handle: string;
  name: string;
  mode: string;
  position: string;
  width: number | null;
  height: number | null;
  format: string | null;
  quality: number | null;
  interlace: string;
}

/**
 * The content model (sites, sections, fields, volumes, groups) held in memory. It changes only when the
 * structure changes, and is reloaded then; element queries and the GraphQL schemas are built from it.
 */
export class Catalog {
  readonly sitesById = new Map<number, CatalogSite>();
  readonly sitesByHandle = new Map<string, CatalogSite>();
  readonly fieldsById = new Map<number, CatalogField>();
  readonly sectionsById = new Map<number, CatalogSection>();
  readonly sectionsByHandle = new Map<string, CatalogSection>();
  readonly entryTypesById = new Map<number, CatalogEntryType>();
  readonly volumesById = new Map<number, CatalogVolume>();
  readonly volumesByHandle = new Map<string, CatalogVolume>();
  readonly globalSetsById = new Map<number, CatalogGlobalSet>();
  readonly userGroupsById = new Map<number, CatalogUserGroup>();
  readonly tagGroupsById = new Map<number, CatalogGroup>();
  readonly categoryGroupsById = new Map<number, CatalogGroup>();
  readonly blockTypesById = new Map<number, CatalogBlockType>();
  readonly transformsByHandle = new Map<string, CatalogTransform>();
  userFields: CatalogField[] = [];

  get primarySite(): CatalogSite {
    for (const site of this.sitesById.values()) if (site.primary) return site;
    const first = this.sitesById.values().next().value;
    if (!first) throw new Error('No site exists');
    return first;
  }

  /** Global fields of the layout by handle, for writers. */
  fieldByHandle(handle: string, context = 'global'): CatalogField | undefined {
    for (const field of this.fieldsById.values())
      if (field.handle === handle && field.context === context) return field;
    return undefined;
  }

  blockTypesOf(fieldId: number): CatalogBlockType[] {
    return [...this.blockTypesById.values()].filter((b) => b.fieldId === fieldId);
  }

  static async load(db: Kysely<ContentDB>): Promise<Catalog> {
    const catalog = new Catalog();
    const [
      sites,
      fields,
      layoutFields,
      sections,
      sectionSites,
      entryTypes,
      volumes,
      globalSets,
      userGroups,
      tagGroups,
      categoryGroups,
      blockTypes,
      transforms,
      userLayout,
    ] = await Promise.all([
      db.selectFrom('sites').selectAll().orderBy('id').execute(),
      db.selectFrom('fields').selectAll().orderBy('id').execute(),
      db.selectFrom('fieldlayoutfields').selectAll().orderBy('sortOrder').execute(),
      db.selectFrom('sections').selectAll().orderBy('id').execute(),
      db.selectFrom('sections_sites').selectAll().execute(),
      db.selectFrom('entrytypes').selectAll().orderBy('sortOrder').orderBy('id').execute(),
      db.selectFrom('volumes').selectAll().orderBy('sortOrder').orderBy('id').execute(),
      db
        .selectFrom('globalsets')
        .innerJoin('elements', 'elements.id', 'globalsets.id')
        .select(['globalsets.id', 'elements.uid', 'name', 'handle', 'fieldLayoutId'])
        .where('elements.dateDeleted', 'is', null)
        .orderBy('sortOrder')
        .execute(),
      db.selectFrom('usergroups').selectAll().orderBy('id').execute(),
      db.selectFrom('taggroups').selectAll().orderBy('id').execute(),
      db.selectFrom('categorygroups').selectAll().orderBy('id').execute(),
      db.selectFrom('matrixblocktypes').selectAll().orderBy('sortOrder').execute(),
      db.selectFrom('assettransforms').selectAll().orderBy('id').execute(),
      db.selectFrom('fieldlayouts').select('id').where('type', '=', 'users').executeTakeFirst(),
    ]);
    for (const s of sites) {
      const site = { ...s, primary: s.primary === 1 };
      catalog.sitesById.set(s.id, site);
      catalog.sitesByHandle.set(s.handle, site);
    }
    for (const f of fields) {
      catalog.fieldsById.set(f.id, {
        ...f,
        searchable: f.searchable === 1,
        settings: JSON.parse(f.settings) as Record<string, unknown>,
      });
    }
    const fieldsOfLayout = (layoutId: number): CatalogField[] =>
      layoutFields
        .filter((lf) => lf.layoutId === layoutId)
        .map((lf) => catalog.fieldsById.get(lf.fieldId)!)
        .filter(Boolean);
    for (const s of sections) {
      const section: CatalogSection = { ...s, siteSettings: new Map(), entryTypes: [] };
      for (const ss of sectionSites.filter((x) => x.sectionId === s.id))
        section.siteSettings.set(ss.siteId, { hasUrls: ss.hasUrls === 1, uriFormat: ss.uriFormat });
      catalog.sectionsById.set(s.id, section);
      catalog.sectionsByHandle.set(s.handle, section);
    }
    for (const t of entryTypes) {
      const type = { ...t, fields: fieldsOfLayout(t.fieldLayoutId) };
      catalog.entryTypesById.set(t.id, type);
      catalog.sectionsById.get(t.sectionId)?.entryTypes.push(type);
    }
    for (const v of volumes) {
      const volume = { ...v, fields: fieldsOfLayout(v.fieldLayoutId) };
      catalog.volumesById.set(v.id, volume);
      catalog.volumesByHandle.set(v.handle, volume);
    }
    for (const g of globalSets) catalog.globalSetsById.set(g.id, { ...g, fields: fieldsOfLayout(g.fieldLayoutId) });
    for (const g of userGroups) catalog.userGroupsById.set(g.id, g);
    for (const g of tagGroups) catalog.tagGroupsById.set(g.id, { ...g, fields: fieldsOfLayout(g.fieldLayoutId) });
    for (const g of categoryGroups)
      catalog.categoryGroupsById.set(g.id, { ...g, fields: fieldsOfLayout(g.fieldLayoutId) });
    for (const b of blockTypes) catalog.blockTypesById.set(b.id, { ...b, fields: fieldsOfLayout(b.fieldLayoutId) });
    for (const t of transforms) catalog.transformsByHandle.set(t.handle, t);
    catalog.userFields = userLayout ? fieldsOfLayout(userLayout.id) : [];
    return catalog;
  }
}
