import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { QueryArgumentError, quoteValue } from '../../model/query-argument-error';
import { allOf, anyOf, checkListSize } from './argument-limits';

export type ParamKind = 'number' | 'string' | 'date';
type EB = ExpressionBuilder<any, any>;

const OPERATOR = /^(<=|>=|!=|<>|<|>|=|not\s+)\s*/i;

/**
 * Turns a CMS-style query parameter into a SQL condition on `column`.
 * Accepts a scalar or a list; lists mean OR unless they start with `'and'`; `'not'` first negates the list.
 * Items may carry an operator (`'>= 3'`, `'not foo'`, `'!= 2'`), `*` wildcards (strings), `:empty:` and `:notempty:`.
 * Dates accept anything `Date` parses (`2018-04-01`, ATOM strings), read as UTC when no zone is given.
 */
export function paramCondition(
  eb: EB,
  column: string,
  value: unknown,
  kind: ParamKind,
  argName: string,
): Expression<SqlBool> | null {
  if (value === null || value === undefined) return null;
  let items: unknown[] = Array.isArray(value)
    ? [...value]
    : kind === 'number' && typeof value === 'string'
      ? splitList(value)
      : [value];
  if (items.length === 0) return null;
  let glue: 'and' | 'or' = 'or';
  let negate = false;
  const first = typeof items[0] === 'string' ? (items[0] as string).trim().toLowerCase() : null;
  if (first === 'and' || first === 'or') {
    glue = first;
    items = items.slice(1);
  } else if (first === 'not') {
    negate = true;
    glue = 'and';
    items = items.slice(1);
  }
  if (items.length === 0) return null;
  checkListSize(argName, items.length);
  const conditions = items.map((item) => itemCondition(eb, column, item, kind, argName, negate));
  return conditions.length === 1 ? conditions[0]! : glue === 'and' ? allOf(eb, conditions) : anyOf(eb, conditions);
}

function splitList(value: string): string[] {
  return value
    .split(/(?<!\\),/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function itemCondition(
  eb: EB,
  column: string,
  item: unknown,
  kind: ParamKind,
  argName: string,
  negate: boolean,
): Expression<SqlBool> {
  const ref = eb.ref(column);
  if (item === null) return negate ? eb(ref, 'is not', null) : eb(ref, 'is', null);
  let text = typeof item === 'string' ? item.trim() : item;
  let operator = '=';
  if (typeof text === 'string') {
    if (text === ':empty:') return negate ? notEmpty(eb, column) : isEmpty(eb, column);
    if (text === ':notempty:') return negate ? isEmpty(eb, column) : notEmpty(eb, column);
    const match = OPERATOR.exec(text);
    if (match) {
      operator = match[1]!.trim().toLowerCase();
      if (operator === 'not' || operator === '<>') operator = '!=';
      text = text.slice(match[0].length);
      if (text === ':empty:') return operator === '!=' ? notEmpty(eb, column) : isEmpty(eb, column);
    }
  }
  if (negate) operator = invert(operator);
  if (kind === 'number') {
    const n = typeof text === 'number' ? text : typeof text === 'boolean' ? Number(text) : Number(text);
    if ((typeof text === 'string' && text.trim() === '') || !Number.isFinite(n)) {
      throw new QueryArgumentError(
        `Invalid value ${quoteValue(item)} for argument "${argName}": expected a number, optionally with an operator like ">= 3" or "not 4"`,
      );
    }
    return eb(ref, operator as '=', n);
  }
  if (kind === 'date') {
    const stored = parseDateArgument(String(text), argName);
    return eb(ref, operator as '=', stored);
  }
  const value = String(text);
  if (value.includes('*')) {
    const pattern = value
      .toLowerCase()
      .replace(/[\\%_]/g, (c) => `\\${c}`)
      .replace(/\*/g, '%');
    const like = sql<SqlBool>`lower(${ref}) like ${pattern} escape '\\'`;
    return operator === '!=' ? eb.not(like) : like;
  }
  if (operator === '=' || operator === '!=') {
    const equals = eb(eb.fn('lower', [ref]), '=', value.toLowerCase());
    return operator === '!=' ? eb.or([eb.not(equals), eb(ref, 'is', null)]) : equals;
  }
  return eb(ref, operator as '=', value);
}

function isEmpty(eb: EB, column: string): Expression<SqlBool> {
  return eb.or([eb(eb.ref(column), 'is', null), eb(eb.cast(eb.ref(column), 'text'), '=', '')]);
}

function notEmpty(eb: EB, column: string): Expression<SqlBool> {
  return eb.and([eb(eb.ref(column), 'is not', null), eb(eb.cast(eb.ref(column), 'text'), '!=', '')]);
}

function invert(operator: string): string {
  return (
    ({ '=': '!=', '!=': '=', '<': '>=', '>=': '<', '>': '<=', '<=': '>' } as Record<string, string>)[operator] ??
    operator
  );
}

/** Reads a date argument (`2018-04-01`, `2018-04-01 10:00`, ATOM) into the stored UTC form. */
export function parseDateArgument(text: string, argName: string): string {
  let value = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) value += 'T00:00:00Z';
  else if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) value = value.replace(' ', 'T') + 'Z';
  const date = value.toLowerCase() === 'now' ? new Date() : new Date(value);
  if (value === '' || Number.isNaN(date.getTime())) {
    throw new QueryArgumentError(
      `Invalid date ${quoteValue(text)} for argument "${argName}": use a date like "2018-04-01" or "2018-04-01T00:00:00+00:00", optionally after an operator like ">="`,
    );
  }
  return date.toISOString();
}

/** Matches a handle against a string parameter in memory (for handles resolved through the catalog). */
export function matchesStringParam(value: unknown, candidate: string): boolean {
  if (value === null || value === undefined) return true;
  let items: unknown[] = Array.isArray(value) ? [...value] : [value];
  let negate = false;
  let glue: 'and' | 'or' = 'or';
  const first = typeof items[0] === 'string' ? (items[0] as string).toLowerCase() : null;
  if (first === 'not') {
    negate = true;
    glue = 'and';
    items = items.slice(1);
  } else if (first === 'and' || first === 'or') {
    glue = first;
    items = items.slice(1);
  }
  if (items.length === 0) return true;
  const results = items.map((item) => {
    let text = String(item).trim();
    let not = negate;
    const match = /^(not\s+|!=\s*)/i.exec(text);
    if (match) {
      not = !not;
      text = text.slice(match[0].length);
    }
    const pattern = new RegExp(
      '^' +
        text
          .split('*')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*') +
        '$',
      'i',
    );
    return pattern.test(candidate) !== not;
  });
  return glue === 'and' ? results.every(Boolean) : results.some(Boolean);
}

/** Matches a number against a numeric parameter in memory (ids resolved through the catalog). */
export function matchesNumberParam(value: unknown, candidate: number, argName: string): boolean {
  if (value === null || value === undefined) return true;
  let items: unknown[] = Array.isArray(value) ? [...value] : typeof value === 'string' ? splitList(value) : [value];
  let negate = false;
  let glue: 'and' | 'or' = 'or';
  const first = typeof items[0] === 'string' ? (items[0] as string).toLowerCase() : null;
  if (first === 'not') {
    negate = true;
    glue = 'and';
    items = items.slice(1);
  } else if (first === 'and' || first === 'or') {
    glue = first;
    items = items.slice(1);
  }
  if (items.length === 0) return true;
  const results = items.map((item) => {
    let text = String(item).trim();
    let operator = '=';
    const match = OPERATOR.exec(text);
    if (match) {
      operator = match[1]!.trim().toLowerCase();
      if (operator === 'not' || operator === '<>') operator = '!=';
      text = text.slice(match[0].length);
    }
    if (negate) operator = invert(operator);
    const n = Number(text);
    if (text === '' || !Number.isFinite(n))
      throw new QueryArgumentError(`Invalid value ${quoteValue(item)} for argument "${argName}": expected a number`);
    switch (operator) {
      case '<':
        return candidate < n;
      case '<=':
        return candidate <= n;
      case '>':
        return candidate > n;
      case '>=':
        return candidate >= n;
      case '!=':
        return candidate !== n;
      default:
        return candidate === n;
    }
  });
  return glue === 'and' ? results.every(Boolean) : results.some(Boolean);
}
