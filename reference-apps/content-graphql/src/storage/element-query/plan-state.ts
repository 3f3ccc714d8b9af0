import type { Expression, ExpressionBuilder, SelectQueryBuilder, SqlBool } from 'kysely';

/** The arguments of an element query, as GraphQL gives them. */
export type ElementArgs = Record<string, unknown>;
export type EB = ExpressionBuilder<any, any>;
export type Query = SelectQueryBuilder<any, any, any>;

/**
 * Which columns an element query reads: `all`, or `essential` ones only: the id, site, title, URI, field values,
 * what decides an element's GraphQL type, structure position, the asset file's place, size in pixels and focal point,
 * and every column of users, tags, global sets and matrix blocks. Left out: uid, enabled, archived, dates created,
 * updated and deleted, slug, enabled for the site, an entry's author and expiry date, a structure's root, an asset's
 * file kind, byte size and modification date. Rows read with `essential` hold those as undefined: only resolvers of
 * GraphQL fields marked as reading essential columns may see them (graphql/row-columns.ts).
 */
export type ElementColumns = 'all' | 'essential';

/** How a batched query ties result rows to the elements they were loaded for. */
export type BatchJoin =
  | { type: 'relation'; sourceIds: number[]; fieldId: number }
  | { type: 'children'; parentIds: number[] }
  | { type: 'parent'; childIds: number[] }
  | { type: 'blocks'; ownerIds: number[]; fieldId: number };

export interface QueryContext {
  /** Site used when neither `site` nor `siteId` is given. */
  siteId: number;
  /** `maxGraphqlResults`: 0 = no maximum. */
  maxResults: number;
  now?: Date;
}

/**
 * An element query being planned: the statement so far, the conditions still to be ANDed into its WHERE (built
 * against Kysely's expression builder at the end), and whether nothing can match (the statement is then not run).
 */
export interface PlanState {
  query: Query;
  columns: ElementColumns;
  conditions: Array<(eb: EB) => Expression<SqlBool> | null>;
  empty: boolean;
}
