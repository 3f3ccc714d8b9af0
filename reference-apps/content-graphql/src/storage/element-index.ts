import type { StoreAccess } from './store-access';
import type { CatalogField } from './catalog';
import { normalizeKeywords } from '../model/search-keywords';
import { RELATION_FIELD_KINDS } from '../model/content-model';

/** The search index (normalized keywords per attribute and field, rebuilt on every save) and element layouts. */
export class ElementIndex {
  constructor(private readonly store: StoreAccess) {}

  /** Rebuilds the search index rows of one element: its searchable attributes and custom fields, per site. */
  async indexElement(elementId: number): Promise<void> {
    const element = await this.store.db
      .selectFrom('elements')
      .select(['type'])
      .where('id', '=', elementId)
      .executeTakeFirstOrThrow();
    const siteRows = await this.store.db
      .selectFrom('elements_sites')
      .selectAll()
      .where('elementId', '=', elementId)
      .execute();
    const { layoutFields } = await this.layoutOfElement(elementId);
    const attributes: Record<string, string> = {};
    if (element.type === 'asset') {
      const asset = await this.store.db
        .selectFrom('assets')
        .select(['filename', 'kind'])
        .where('id', '=', elementId)
        .executeTakeFirstOrThrow();
      attributes.filename = asset.filename;
      attributes.extension = asset.filename.includes('.') ? asset.filename.split('.').pop()! : '';
      attributes.kind = asset.kind;
    }
    if (element.type === 'user') {
      const user = await this.store.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', elementId)
        .executeTakeFirstOrThrow();
      Object.assign(attributes, {
        username: user.username,
        firstname: user.firstName ?? '',
        lastname: user.lastName ?? '',
        fullname: [user.firstName, user.lastName].filter(Boolean).join(' '),
        email: user.email,
      });
    }
    const relations = await this.store.db
      .selectFrom('relations')
      .innerJoin('elements_sites', 'elements_sites.elementId', 'relations.targetId')
      .select(['relations.fieldId', 'elements_sites.title', 'elements_sites.siteId'])
      .where('relations.sourceId', '=', elementId)
      .execute();
    await this.store.db.deleteFrom('searchindex').where('elementId', '=', elementId).execute();
    for (const row of siteRows) {
      const content = JSON.parse(row.content) as Record<string, unknown>;
      const rows: Array<{ attribute: string; fieldId: number; keywords: string }> = [];
      if (element.type !== 'user' && element.type !== 'matrixblock') {
        rows.push({ attribute: 'title', fieldId: 0, keywords: normalizeKeywords(row.title ?? '') });
        if (element.type === 'entry' || element.type === 'category')
          rows.push({ attribute: 'slug', fieldId: 0, keywords: normalizeKeywords(row.slug ?? '') });
      }
      for (const [attribute, value] of Object.entries(attributes))
        rows.push({ attribute, fieldId: 0, keywords: normalizeKeywords(value) });
      for (const field of layoutFields) {
        if (!field.searchable) continue;
        let text = '';
        if (RELATION_FIELD_KINDS.has(field.type)) {
          text = relations
            .filter((r) => r.fieldId === field.id && r.siteId === row.siteId)
            .map((r) => r.title ?? '')
            .join(' ');
        } else if (field.type === 'Matrix') {
          text = await this.matrixText(elementId, field.id, row.siteId);
        } else if (field.type === 'PlainText' || field.type === 'RichText') {
          text = String(content[field.handle] ?? '');
        } else continue;
        rows.push({ attribute: 'field', fieldId: field.id, keywords: normalizeKeywords(text) });
      }
      if (rows.length)
        await this.store.db
          .insertInto('searchindex')
          .values(rows.map((r) => ({ ...r, elementId, siteId: row.siteId })))
          .execute();
    }
  }

  private async matrixText(ownerId: number, fieldId: number, siteId: number): Promise<string> {
    const blocks = await this.store.db
      .selectFrom('matrixblocks')
      .innerJoin('elements_sites', 'elements_sites.elementId', 'matrixblocks.id')
      .select(['elements_sites.content'])
      .where('matrixblocks.ownerId', '=', ownerId)
      .where('matrixblocks.fieldId', '=', fieldId)
      .where('elements_sites.siteId', '=', siteId)
      .execute();
    return blocks
      .map((b) =>
        Object.values(JSON.parse(b.content) as Record<string, unknown>)
          .filter((v) => typeof v === 'string')
          .join(' '),
      )
      .join(' ');
  }

  /** Whether an element with this id exists (in any state). */
  async elementExists(elementId: number): Promise<boolean> {
    return (
      (await this.store.db.selectFrom('elements').select('id').where('id', '=', elementId).executeTakeFirst()) !==
      undefined
    );
  }

  /** The field layout of any element, found from its kind. */
  async layoutOfElement(elementId: number): Promise<{ layoutFields: CatalogField[] }> {
    const catalog = await this.store.catalog();
    const element = await this.store.db
      .selectFrom('elements')
      .select('type')
      .where('id', '=', elementId)
      .executeTakeFirstOrThrow();
    switch (element.type) {
      case 'entry': {
        const e = await this.store.db
          .selectFrom('entries')
          .select('typeId')
          .where('id', '=', elementId)
          .executeTakeFirstOrThrow();
        return { layoutFields: catalog.entryTypesById.get(e.typeId)?.fields ?? [] };
      }
      case 'asset': {
        const a = await this.store.db
          .selectFrom('assets')
          .select('volumeId')
          .where('id', '=', elementId)
          .executeTakeFirstOrThrow();
        return { layoutFields: catalog.volumesById.get(a.volumeId)?.fields ?? [] };
      }
      case 'category': {
        const c = await this.store.db
          .selectFrom('categories')
          .select('groupId')
          .where('id', '=', elementId)
          .executeTakeFirstOrThrow();
        return { layoutFields: catalog.categoryGroupsById.get(c.groupId)?.fields ?? [] };
      }
      case 'tag': {
        const t = await this.store.db
          .selectFrom('tags')
          .select('groupId')
          .where('id', '=', elementId)
          .executeTakeFirstOrThrow();
        return { layoutFields: catalog.tagGroupsById.get(t.groupId)?.fields ?? [] };
      }
      case 'globalset':
        return { layoutFields: catalog.globalSetsById.get(elementId)?.fields ?? [] };
      case 'user':
        return { layoutFields: catalog.userFields };
      case 'matrixblock': {
        const b = await this.store.db
          .selectFrom('matrixblocks')
          .select('typeId')
          .where('id', '=', elementId)
          .executeTakeFirstOrThrow();
        return { layoutFields: catalog.blockTypesById.get(b.typeId)?.fields ?? [] };
      }
    }
  }
}
