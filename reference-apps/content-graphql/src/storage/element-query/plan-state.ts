import type { Expression, ExpressionBuilder, SelectQueryBuilder, SqlBool } from 'kysely';

/** The arguments of an element query, as GraphQL gives them. */
export type ElementArgs = Record<string, unknown>;
export type EB = ExpressionBuilder<any, any>;
export type Query = SelectQueryBuilder<any, any, any>;

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
  conditions: Array<(eb: EB) => Expression<SqlBool> | null>;
  empty: boolean;
}
