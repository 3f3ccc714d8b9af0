import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentStore } from '../storage/content-store';
import { RELATION_FIELD_KINDS, type FieldDefinition } from '../model/content-model';
import type { CatalogField } from '../storage/catalog';

/** The JSON document of `content export` / `content import`: the content model by handle, then the elements with their files. */
export interface ContentDocument {
  format: 'content-graphql/1';
  sites: Array<{ handle: string; name: string; language: string; baseUrl: string; primary: boolean }>;
  fields: FieldDefinition[];
  volumes: Array<{ handle: string; name: string; path: string; url: string; fields: string[] }>;
  transforms: Array<{
    handle: string;
    name: string;
    mode: string;
    position: string;
    width: number | null;
    height: number | null;
    format: string | null;
    quality: number | null;
    interlace: string;
  }>;
  userGroups: Array<{ handle: string; name: string }>;
  userFields: string[];
  tagGroups: Array<{ handle: string; name: string; fields: string[] }>;
  categoryGroups: Array<{
    handle: string;
    name: string;
    uriFormat: string | null;
    maxLevels: number | null;
    fields: string[];
  }>;
  sections: Array<{
    handle: string;
    name: string;
    type: 'channel' | 'structure' | 'single';
    maxLevels: number | null;
    siteSettings: Record<string, { uriFormat: string | null }>;
    entryTypes: Array<{ handle: string; name: string; fields: string[] }>;
  }>;
  /** Elements in an order that lets them be created one by one (parents before children). Relation values are ids of this document. */
  elements: ExportedElement[];
}

export interface ExportedElement {
  id: number;
  kind: 'asset' | 'user' | 'category' | 'tag' | 'entry' | 'globalset';
  uid: string;
  enabled: boolean;
  archived: boolean;
  dateCreated: string;
  dateUpdated: string;
  title: string | null;
  slug: string | null;
  fields: Record<string, unknown>;
  sites: Record<string, { title?: string; slug?: string; enabled?: boolean }>;
  attributes: Record<string, unknown>;
}

/** Reads the whole content (model, elements, files) into one JSON-serializable document. */
export async function exportContent(store: ContentStore): Promise<ContentDocument> {
  const catalog = await store.catalog();
  const db = store.db;
  const handles = (fields: CatalogField[]) => fields.map((f) => f.handle);
  const fieldDefinition = (field: CatalogField): FieldDefinition => ({
    handle: field.handle,
    name: field.name,
    type: field.type,
    searchable: field.searchable,
    settings: field.settings,
    ...(field.type === 'Matrix'
      ? {
          blockTypes: catalog
            .blockTypesOf(field.id)
            .map((b) => ({ handle: b.handle, name: b.name, fields: b.fields.map(fieldDefinition) })),
        }
      : {}),
  });
  const structures = await db.selectFrom('structures').select(['id', 'maxLevels']).execute();
  const maxLevels = (structureId: number | null) => structures.find((s) => s.id === structureId)?.maxLevels ?? null;
  const primary = catalog.primarySite;
  const document: ContentDocument = {
    format: 'content-graphql/1',
    sites: [...catalog.sitesById.values()].map((s) => ({
      handle: s.handle,
      name: s.name,
      language: s.language,
      baseUrl: s.baseUrl,
      primary: s.primary,
    })),
    fields: [...catalog.fieldsById.values()].filter((f) => f.context === 'global').map(fieldDefinition),
    volumes: [...catalog.volumesById.values()].map((v) => ({
      handle: v.handle,
      name: v.name,
      path: v.path,
      url: v.url,
      fields: handles(v.fields),
    })),
    transforms: [...catalog.transformsByHandle.values()].map(({ id: _id, ...t }) => t),
    userGroups: [...catalog.userGroupsById.values()].map((g) => ({ handle: g.handle, name: g.name })),
    userFields: handles(catalog.userFields),
    tagGroups: [...catalog.tagGroupsById.values()].map((g) => ({
      handle: g.handle,
      name: g.name,
      fields: handles(g.fields),
    })),
    categoryGroups: [...catalog.categoryGroupsById.values()].map((g) => ({
      handle: g.handle,
      name: g.name,
      uriFormat: g.uriFormat ?? null,
      maxLevels: maxLevels(g.structureId ?? null),
      fields: handles(g.fields),
    })),
    sections: [...catalog.sectionsById.values()].map((s) => ({
      handle: s.handle,
      name: s.name,
      type: s.type,
      maxLevels: maxLevels(s.structureId),
      siteSettings: Object.fromEntries(
        [...s.siteSettings].map(([siteId, v]) => [catalog.sitesById.get(siteId)!.handle, { uriFormat: v.uriFormat }]),
      ),
      entryTypes: s.entryTypes.map((t) => ({ handle: t.handle, name: t.name, fields: handles(t.fields) })),
    })),
    elements: [],
  };

  const elements = await db
    .selectFrom('elements')
    .selectAll()
    .where('type', '!=', 'matrixblock')
    .where('dateDeleted', 'is', null)
    .orderBy('id')
    .execute();
  const siteRows = await db.selectFrom('elements_sites').selectAll().execute();
  const relations = await db.selectFrom('relations').selectAll().orderBy('sortOrder').execute();
  const blocks = await db.selectFrom('matrixblocks').selectAll().orderBy('sortOrder').execute();
  const positions = await db.selectFrom('structureelements').selectAll().execute();
  const { layoutOf } = await layoutsByElement(store);
  const order: Record<string, number> = { asset: 0, user: 1, tag: 2, category: 3, globalset: 4, entry: 5 };
  const lft = (id: number) => positions.find((p) => p.elementId === id)?.lft ?? 0;
  elements.sort((a, b) => order[a.type]! - order[b.type]! || lft(a.id) - lft(b.id) || a.id - b.id);

  for (const element of elements) {
    const rows = siteRows.filter((r) => r.elementId === element.id);
    const main = rows.find((r) => r.siteId === primary.id) ?? rows[0];
    const layout = await layoutOf(element.id);
    const fields: Record<string, unknown> = { ...(JSON.parse(main?.content ?? '{}') as Record<string, unknown>) };
    for (const field of layout) {
      if (RELATION_FIELD_KINDS.has(field.type))
        fields[field.handle] = relations
          .filter((r) => r.sourceId === element.id && r.fieldId === field.id)
          .map((r) => r.targetId);
      if (field.type === 'Matrix') {
        fields[field.handle] = await Promise.all(
          blocks
            .filter((b) => b.ownerId === element.id && b.fieldId === field.id)
            .map(async (block) => {
              const blockType = catalog.blockTypesById.get(block.typeId)!;
              const blockRow = siteRows.find((r) => r.elementId === block.id && r.siteId === primary.id);
              const blockFields: Record<string, unknown> = {
                ...(JSON.parse(blockRow?.content ?? '{}') as Record<string, unknown>),
              };
              for (const f of blockType.fields)
                if (RELATION_FIELD_KINDS.has(f.type))
                  blockFields[f.handle] = relations
                    .filter((r) => r.sourceId === block.id && r.fieldId === f.id)
                    .map((r) => r.targetId);
              return { type: blockType.handle, fields: blockFields };
            }),
        );
      }
    }
    const sites: ExportedElement['sites'] = {};
    for (const row of rows) {
      if (row === main) continue;
      sites[catalog.sitesById.get(row.siteId)!.handle] = {
        ...(row.title !== main?.title && row.title ? { title: row.title } : {}),
        ...(row.slug !== main?.slug && row.slug ? { slug: row.slug } : {}),
        ...(row.enabled === 0 ? { enabled: false } : {}),
      };
    }
    const exported: ExportedElement = {
      id: element.id,
      kind: element.type as ExportedElement['kind'],
      uid: element.uid,
      enabled: element.enabled === 1,
      archived: element.archived === 1,
      dateCreated: element.dateCreated,
      dateUpdated: element.dateUpdated,
      title: main?.title ?? null,
      slug: main?.slug ?? null,
      fields,
      sites,
      attributes: {},
    };
    exported.attributes = await attributesOf(store, exported, positions);
    document.elements.push(exported);
  }
  return document;
}

async function attributesOf(
  store: ContentStore,
  element: ExportedElement,
  positions: Array<{ structureId: number; elementId: number | null; lft: number; rgt: number; level: number }>,
): Promise<Record<string, unknown>> {
  const db = store.db;
  const catalog = await store.catalog();
  const parentOf = (structureId: number) => {
    const me = positions.find((p) => p.elementId === element.id && p.structureId === structureId);
    if (!me || me.level <= 1) return null;
    return (
      positions.find(
        (p) => p.structureId === structureId && p.level === me.level - 1 && p.lft < me.lft && p.rgt > me.rgt,
      )?.elementId ?? null
    );
  };
  switch (element.kind) {
    case 'entry': {
      const e = await db.selectFrom('entries').selectAll().where('id', '=', element.id).executeTakeFirstOrThrow();
      const section = catalog.sectionsById.get(e.sectionId)!;
      return {
        section: section.handle,
        type: catalog.entryTypesById.get(e.typeId)!.handle,
        authorId: e.authorId,
        postDate: e.postDate,
        expiryDate: e.expiryDate,
        parentId: section.structureId ? parentOf(section.structureId) : null,
      };
    }
    case 'asset': {
      const a = await db
        .selectFrom('assets')
        .innerJoin('volumefolders', 'volumefolders.id', 'assets.folderId')
        .select(['assets.volumeId', 'assets.filename', 'assets.focalPoint', 'assets.uploaderId', 'volumefolders.path'])
        .where('assets.id', '=', element.id)
        .executeTakeFirstOrThrow();
      const volume = catalog.volumesById.get(a.volumeId)!;
      const data = await readFile(join(store.assetsRoot, volume.path, a.path, a.filename));
      const [x, y] = a.focalPoint ? a.focalPoint.split(';').map(Number) : [];
      return {
        volume: volume.handle,
        folder: a.path,
        filename: a.filename,
        data: data.toString('base64'),
        focalPoint: a.focalPoint ? { x, y } : null,
        uploaderId: a.uploaderId,
      };
    }
    case 'user': {
      const u = await db.selectFrom('users').selectAll().where('id', '=', element.id).executeTakeFirstOrThrow();
      const groups = await db
        .selectFrom('usergroups_users')
        .innerJoin('usergroups', 'usergroups.id', 'usergroups_users.groupId')
        .select('usergroups.handle')
        .where('userId', '=', element.id)
        .execute();
      return {
        username: u.username,
        email: u.email,
        firstName: u.firstName,
        lastName: u.lastName,
        photoId: u.photoId,
        preferredLanguage: u.preferredLanguage,
        preferences: JSON.parse(u.preferences),
        groups: groups.map((g) => g.handle),
      };
    }
    case 'category': {
      const c = await db.selectFrom('categories').selectAll().where('id', '=', element.id).executeTakeFirstOrThrow();
      const group = catalog.categoryGroupsById.get(c.groupId)!;
      return { group: group.handle, parentId: parentOf(group.structureId!) };
    }
    case 'tag': {
      const t = await db.selectFrom('tags').selectAll().where('id', '=', element.id).executeTakeFirstOrThrow();
      return { group: catalog.tagGroupsById.get(t.groupId)!.handle };
    }
    case 'globalset': {
      const g = catalog.globalSetsById.get(element.id)!;
      return { handle: g.handle, name: g.name, fieldHandles: g.fields.map((f) => f.handle) };
    }
  }
}

async function layoutsByElement(store: ContentStore) {
  return { layoutOf: async (id: number) => (await store.layoutOfElement(id)).layoutFields };
}
