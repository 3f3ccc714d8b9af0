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
