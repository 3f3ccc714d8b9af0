import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { QueryArgumentError } from '../../model/query-argument-error';

/**
 * How big an argument may be. The CMS sets no such limits; without them a client can send 40,000 ids or search
 * terms, which overflow SQLite's expression depth and parameter count or take seconds (measured), so they are
 * refused with a message instead.
 */
export const MAX_LIST_VALUES = 1000;
export const MAX_SEARCH_LENGTH = 1000;
export const MAX_SEARCH_TERMS = 50;
export const MAX_ORDER_TERMS = 20;

/** Refuses list arguments (and comma-separated lists) with more values than MAX_LIST_VALUES. */
export function checkListSize(argName: string, count: number): void {
  if (count > MAX_LIST_VALUES)
    throw new QueryArgumentError(`Argument "${argName}" has ${count} values; at most ${MAX_LIST_VALUES} are accepted`);
}

export function checkArgumentSizes(args: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(args)) if (Array.isArray(value)) checkListSize(name, value.length);
  if (typeof args.search === 'string' && args.search.length > MAX_SEARCH_LENGTH) {
    throw new QueryArgumentError(
      `Argument "search" has ${args.search.length} characters; at most ${MAX_SEARCH_LENGTH} are accepted`,
    );
  }
}

/**
 * OR / AND of many conditions as a balanced tree: Kysely nests `eb.or([...])` one level per item, which overflows
 * the JavaScript stack and SQLite's expression depth (1000) for long lists; a balanced tree is log2(n) deep.
 */
export function anyOf(eb: ExpressionBuilder<any, any>, conditions: Expression<SqlBool>[]): Expression<SqlBool> {
  return balanced(eb, conditions, 'or');
}

export function allOf(eb: ExpressionBuilder<any, any>, conditions: Expression<SqlBool>[]): Expression<SqlBool> {
  return balanced(eb, conditions, 'and');
}

function balanced(
  eb: ExpressionBuilder<any, any>,
  conditions: Expression<SqlBool>[],
  glue: 'and' | 'or',
): Expression<SqlBool> {
  if (conditions.length <= 8) return glue === 'or' ? eb.or(conditions) : eb.and(conditions);
  const middle = Math.ceil(conditions.length / 2);
  const halves = [balanced(eb, conditions.slice(0, middle), glue), balanced(eb, conditions.slice(middle), glue)];
  return glue === 'or' ? eb.or(halves) : eb.and(halves);
}
