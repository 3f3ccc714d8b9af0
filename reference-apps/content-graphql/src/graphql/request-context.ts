import DataLoader from 'dataloader';
import type { Catalog } from '../storage/catalog';
import type { ElementKind } from '../storage/database-types';
import type { ImageTransformer } from '../domain/assets/image-transforms';
import type {
  ElementArgs,
  ElementColumns,
  ElementQueryEngine,
  QueryContext,
  BatchJoin,
} from '../storage/element-query/element-query';
import type { ElementRow } from '../storage/element-query/element-row';
import type { ElementScope } from '../model/element-scope';
import type { UrlBuilder } from './url-builder';
import { stableJson } from '../model/stable-json';

interface BatchKey {
  kind: ElementKind;
  args: ElementArgs;
  siteId: number;
  join: 'relation' | 'children' | 'parent' | 'blocks' | 'id';
  fieldId: number;
  elementId: number;
  columns: ElementColumns;
}

/**
 * Everything a resolver needs for one request. Nested element fields (relations, children, parents, matrix blocks,
 * authors, photos) go through one DataLoader: keys of the same shape are grouped and loaded with one SQL query,
 * so a list of N entries with their images and children costs a fixed number of queries, not N.
 */
export class RequestContext {
  private readonly loader: DataLoader<BatchKey, ElementRow[], string>;

  constructor(
    readonly engine: ElementQueryEngine,
    readonly catalog: Catalog,
    readonly scope: ElementScope,
    readonly query: QueryContext,
    readonly urls: UrlBuilder,
    readonly transformer: ImageTransformer,
  ) {
    this.loader = new DataLoader((keys) => this.loadBatch(keys), {
      cacheKeyFn: (key) =>
        `${key.join}|${key.kind}|${key.columns}|${key.fieldId}|${key.siteId}|${key.elementId}|${stableJson(key.args)}`,
    });
  }

  /** `columns`: what the selection under the field needs (row-columns.ts); `all` by default. */
  related(
    kind: ElementKind,
    sourceId: number,
    fieldId: number,
    siteId: number,
    args: ElementArgs,
    columns: ElementColumns = 'all',
  ): Promise<ElementRow[]> {
    return this.loader.load({ kind, args, siteId, join: 'relation', fieldId, elementId: sourceId, columns });
  }

  children(
    kind: ElementKind,
    parentId: number,
    siteId: number,
    args: ElementArgs,
    columns: ElementColumns = 'all',
  ): Promise<ElementRow[]> {
    return this.loader.load({ kind, args, siteId, join: 'children', fieldId: 0, elementId: parentId, columns });
  }

  async parent(
    kind: ElementKind,
    childId: number,
    siteId: number,
    columns: ElementColumns = 'all',
  ): Promise<ElementRow | null> {
    return (
      (
        await this.loader.load({ kind, args: {}, siteId, join: 'parent', fieldId: 0, elementId: childId, columns })
      )[0] ?? null
    );
  }

  blocks(
    ownerId: number,
    fieldId: number,
    siteId: number,
    args: ElementArgs,
    columns: ElementColumns = 'all',
  ): Promise<ElementRow[]> {
    return this.loader.load({
      kind: 'matrixblock',
      args,
      siteId,
      join: 'blocks',
      fieldId,
      elementId: ownerId,
      columns,
    });
  }

  /** One element by id, whatever its status (authors, photos). */
  async byId(
    kind: ElementKind,
    id: number,
    siteId: number,
    columns: ElementColumns = 'all',
  ): Promise<ElementRow | null> {
    return (
      (
        await this.loader.load({ kind, args: { status: null }, siteId, join: 'id', fieldId: 0, elementId: id, columns })
      )[0] ?? null
    );
  }

  private async loadBatch(keys: readonly BatchKey[]): Promise<ElementRow[][]> {
    const groups = new Map<string, BatchKey[]>();
    for (const key of keys) {
      const groupKey = `${key.join}|${key.kind}|${key.columns}|${key.fieldId}|${key.siteId}|${stableJson(key.args)}`;
      const group = groups.get(groupKey);
      if (group) group.push(key);
      else groups.set(groupKey, [key]);
    }
    const results = new Map<BatchKey, ElementRow[]>();
    await Promise.all(
      [...groups.values()].map(async (group) => {
        const first = group[0]!;
        const ids = [...new Set(group.map((k) => k.elementId))];
        const ctx = { ...this.query, siteId: first.siteId };
        const scope = first.kind === 'matrixblock' ? this.scope : this.scope;
        let rows: ElementRow[];
        if (first.join === 'id') {
          rows = await this.engine.find(
            first.kind,
            { ...first.args, id: ids },
            scope,
            { ...ctx, maxResults: 0 },
            undefined,
            first.columns,
          );
          for (const row of rows) row.batchKey = row.id;
        } else {
          const batch: BatchJoin =
            first.join === 'relation'
              ? { type: 'relation', sourceIds: ids, fieldId: first.fieldId }
              : first.join === 'children'
                ? { type: 'children', parentIds: ids }
                : first.join === 'parent'
                  ? { type: 'parent', childIds: ids }
                  : { type: 'blocks', ownerIds: ids, fieldId: first.fieldId };
          rows = await this.engine.find(first.kind, first.args, scope, ctx, batch, first.columns);
        }
        const byKey = new Map<number, ElementRow[]>();
        for (const row of rows) {
          const list = byKey.get(row.batchKey!);
          if (list) list.push(row);
          else byKey.set(row.batchKey!, [row]);
        }
        for (const key of group) results.set(key, byKey.get(key.elementId) ?? []);
      }),
    );
    return keys.map((key) => results.get(key) ?? []);
  }
}
