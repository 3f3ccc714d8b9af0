import type { ContentStore } from '../storage/content-store';
import { RELATION_FIELD_KINDS } from '../model/content-model';
import type { ContentDocument, ExportedElement } from './content-export';

export class ImportError extends Error {
  override readonly name = 'ImportError';
}

/**
 * Loads a document written by `exportContent` into an empty database: the model first, then the elements
 * in document order, mapping the document's ids to new ids. Entry-to-entry relations may point forward,
 * so relation fields are written in a second pass once every element exists.
 */
export async function importContent(store: ContentStore, document: ContentDocument): Promise<{ elements: number }> {
  if (document?.format !== 'content-graphql/1')
    throw new ImportError('Not a content-graphql export (expected "format": "content-graphql/1")');
  const existing = await store.db.selectFrom('sites').select('id').executeTakeFirst();
  if (existing) throw new ImportError('The database already holds content; import into an empty database');
  for (const site of document.sites) await store.createSite(site);
  for (const field of document.fields) await store.createField(field);
  for (const volume of document.volumes) await store.createVolume(volume);
  for (const transform of document.transforms) await store.createTransform(transform);
  for (const group of document.userGroups) await store.createUserGroup(group);
  await store.setUserFields(document.userFields);
  for (const group of document.tagGroups) await store.createTagGroup(group);
  for (const group of document.categoryGroups) await store.createCategoryGroup(group);
  for (const section of document.sections) await store.createSection(section);

  const ids = new Map<number, number>();
  const mapId = (id: unknown) => {
    const mapped = ids.get(Number(id));
    if (mapped === undefined) throw new ImportError(`Element ${String(id)} is referenced before it is defined`);
    return mapped;
  };
  const catalog = await store.catalog();
  const deferred: Array<{ newId: number; element: ExportedElement }> = [];
  for (const element of document.elements) {
    const a = element.attributes as Record<string, any>;
    const plainFields: Record<string, unknown> = {};
    let hasRelations = false;
    for (const [handle, value] of Object.entries(element.fields)) {
      const field = catalog.fieldByHandle(handle);
      if (field && (RELATION_FIELD_KINDS.has(field.type) || field.type === 'Matrix')) hasRelations = true;
      else plainFields[handle] = value;
    }
    const base = {
      uid: element.uid,
      title: element.title,
      slug: element.slug,
      enabled: element.enabled,
      archived: element.archived,
      dateCreated: element.dateCreated,
      dateUpdated: element.dateUpdated,
      fields: plainFields,
      sites: element.sites,
    };
    let newId: number;
    switch (element.kind) {
      case 'asset':
        newId = await store.saveAsset({
          ...base,
          volume: a.volume,
          folder: a.folder,
          filename: a.filename,
          data: Buffer.from(String(a.data), 'base64'),
          focalPoint: a.focalPoint,
          uploaderId: null,
        });
        break;
      case 'user':
        newId = await store.saveUser({
          ...base,
          username: a.username,
          email: a.email,
          firstName: a.firstName,
          lastName: a.lastName,
          photoId: a.photoId ? mapId(a.photoId) : null,
          preferredLanguage: a.preferredLanguage,
          preferences: a.preferences,
          groups: a.groups,
        });
        break;
      case 'tag':
        newId = await store.saveTag({ ...base, group: a.group });
        break;
      case 'category':
        newId = await store.saveCategory({ ...base, group: a.group, parentId: a.parentId ? mapId(a.parentId) : null });
        break;
      case 'globalset':
        newId = await store.createGlobalSet({ ...base, handle: a.handle, name: a.name, fieldHandles: a.fieldHandles });
        break;
      case 'entry':
        newId = await store.saveEntry({
          ...base,
          section: a.section,
          type: a.type,
          authorId: a.authorId ? mapId(a.authorId) : null,
          postDate: a.postDate,
          expiryDate: a.expiryDate,
          parentId: a.parentId ? mapId(a.parentId) : null,
        });
        break;
      default:
        throw new ImportError(`Unknown element kind ${JSON.stringify((element as { kind: unknown }).kind)}`);
    }
    ids.set(element.id, newId);
    if (hasRelations) deferred.push({ newId, element });
  }
  for (const { newId, element } of deferred) {
    const values: Record<string, unknown> = {};
    for (const [handle, value] of Object.entries(element.fields)) {
      const field = catalog.fieldByHandle(handle);
      if (!field) continue;
      if (RELATION_FIELD_KINDS.has(field.type)) values[handle] = (value as number[]).map(mapId);
      if (field.type === 'Matrix') {
        values[handle] = (value as Array<{ type: string; fields: Record<string, unknown> }>).map((block) => {
          const blockType = catalog.blockTypesOf(field.id).find((b) => b.handle === block.type);
          const fields = { ...block.fields };
          for (const f of blockType?.fields ?? [])
            if (RELATION_FIELD_KINDS.has(f.type) && Array.isArray(fields[f.handle]))
              fields[f.handle] = (fields[f.handle] as number[]).map(mapId);
          return { type: block.type, fields };
        });
      }
    }
    await store.updateFields(newId, values);
  }
  return { elements: document.elements.length };
}
