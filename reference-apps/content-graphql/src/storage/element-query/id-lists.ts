import { QueryArgumentError, quoteValue } from '../../model/query-argument-error';
import type { ElementRow } from './element-row';

/** An id list argument (`[1, 2]`, `["and", 1, 2]`, `"3"`) as ids and how they combine; null when absent. */
export function normalizeIdList(value: unknown, argName: string): { glue: 'and' | 'or'; ids: number[] } | null {
  if (value === undefined || value === null) return null;
  let items = Array.isArray(value) ? [...value] : [value];
  let glue: 'and' | 'or' = 'or';
  if (typeof items[0] === 'string' && ['and', 'or'].includes(items[0].toLowerCase())) {
    glue = items[0].toLowerCase() as 'and' | 'or';
    items = items.slice(1);
  }
  const ids = items.map((item) => {
    const n = typeof item === 'number' ? item : Number(item);
    if (!Number.isInteger(n))
      throw new QueryArgumentError(`Invalid value ${quoteValue(item)} for argument "${argName}": expected element ids`);
    return n;
  });
  return { glue, ids };
}

/** `offset`/`limit` applied to each batch key's rows on their own (batched queries load many elements' lists at once). */
export function applyWindowPerKey(
  rows: ElementRow[],
  offset: number,
  limit: number | null,
  reverse: boolean,
): ElementRow[] {
  const groups = new Map<number | undefined, ElementRow[]>();
  for (const row of rows) {
    const list = groups.get(row.batchKey);
    if (list) list.push(row);
    else groups.set(row.batchKey, [row]);
  }
  const result: ElementRow[] = [];
  for (const list of groups.values()) {
    let slice = list.slice(offset, limit === null ? undefined : offset + limit);
    if (reverse) slice = slice.reverse();
    result.push(...slice);
  }
  return result;
}
