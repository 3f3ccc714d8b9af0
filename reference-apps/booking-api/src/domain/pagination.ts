import { BookingError } from './booking-error';
import type { PaginationWrapper } from './booking';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** The public API prefix that absolute links carry (as in the partner API's sample links). */
export const API_PREFIX = '/api/public/v1';

export interface Paging {
  offset: number;
  limit: number;
}

function parseInteger(name: string, text: string): number {
  if (!/^\d+$/.test(text.trim())) throw BookingError.invalid(name, `expected a non-negative integer, got "${text}"`);
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw BookingError.invalid(name, `${text} is too large`);
  return value;
}

/** offset defaults to 0, limit to 20; a limit above 100 is capped to 100 (as the partner API caps its own maximum). */
export function parsePaging(offsetText: string | undefined, limitText: string | undefined): Paging {
  const offset = offsetText === undefined || offsetText === '' ? 0 : parseInteger('offset', offsetText);
  let limit = limitText === undefined || limitText === '' ? DEFAULT_LIMIT : parseInteger('limit', limitText);
  if (limit < 1) throw BookingError.invalid('limit', `expected at least 1, got ${limit}`);
  limit = Math.min(limit, MAX_LIMIT);
  return { offset, limit };
}

/**
 * Wraps one page with absolute links. `resourceUrl` is the absolute URL of the list without query
 * (e.g. https://host/api/public/v1/booking); `extraQuery` keeps filters in the links.
 */
export function pageOf<T>(
  items: T[],
  paging: Paging,
  total: number,
  resourceUrl: string,
  extraQuery: Record<string, string> = {},
): PaginationWrapper<T> {
  const link = (offset: number) => {
    const query = new URLSearchParams({ ...extraQuery, offset: String(offset), limit: String(paging.limit) });
    return `${resourceUrl}?${query.toString()}`;
  };
  const nextOffset = paging.offset + paging.limit < total ? paging.offset + paging.limit : null;
  const prevOffset =
    paging.offset > 0 ? Math.max(0, Math.min(paging.offset - paging.limit, total - paging.limit)) : null;
  return {
    items,
    nextUrl: nextOffset === null ? null : link(nextOffset),
    prevUrl: prevOffset === null ? null : link(Math.max(0, prevOffset)),
    total,
    nextOffset,
  };
}
