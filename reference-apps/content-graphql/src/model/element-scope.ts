/**
 * What a GraphQL schema lets a client read, as ids. `undefined` for a kind means that kind is not allowed at all.
 * Element queries AND these into every query, including nested ones (relations, children, parents, photos).
 */
export interface ElementScope {
  entryTypeIds?: ReadonlySet<number>;
  volumeIds?: ReadonlySet<number>;
  globalSetIds?: ReadonlySet<number>;
  categoryGroupIds?: ReadonlySet<number>;
  tagGroupIds?: ReadonlySet<number>;
  /** Users in these groups; `allUsers` lets every user through. */
  userGroupIds?: ReadonlySet<number>;
  allUsers?: boolean;
}

export type ReadableKind = 'entry' | 'asset' | 'globalset' | 'user' | 'tag' | 'category';

/** The element kinds a scope lets a client read at all (the queries and types its schema has). */
export function readableKinds(scope: ElementScope): Record<ReadableKind, boolean> {
  return {
    entry: (scope.entryTypeIds?.size ?? 0) > 0,
    asset: (scope.volumeIds?.size ?? 0) > 0,
    globalset: (scope.globalSetIds?.size ?? 0) > 0,
    user: scope.allUsers === true || (scope.userGroupIds?.size ?? 0) > 0,
    tag: (scope.tagGroupIds?.size ?? 0) > 0,
    category: (scope.categoryGroupIds?.size ?? 0) > 0,
  };
}

/** The kind of element a relation field of this type points to; undefined for other field types. */
export const RELATION_TARGETS: Readonly<Record<string, ReadableKind>> = {
  Entries: 'entry',
  Assets: 'asset',
  Categories: 'category',
  Tags: 'tag',
  Users: 'user',
};
