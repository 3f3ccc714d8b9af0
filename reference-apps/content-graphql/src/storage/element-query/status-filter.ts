import type { Expression, SqlBool } from 'kysely';
import type { ElementKind } from '../database-types';
import { QueryArgumentError, quoteValue } from '../../model/query-argument-error';
import { allOf, anyOf } from './argument-limits';
import type { EB } from './plan-state';

/** Stands for the current time in kept parameters (compared by identity, so no argument value can be mistaken for it). */
export const NOW: unknown = Object.freeze({ placeholder: 'now' });

/** The status an element query asks for when it names none: live entries, active users, enabled anything else. */
export function defaultStatus(kind: ElementKind): unknown {
  if (kind === 'entry') return ['live'];
  if (kind === 'user') return ['active'];
  return ['enabled'];
}

const STATUSES: Record<string, string[]> = {
  entry: ['live', 'pending', 'expired', 'disabled', 'enabled'],
  user: ['active', 'suspended', 'enabled', 'disabled'],
};

/** Status conditions compare with the NOW placeholder, which `find` replaces with the current time. */
export function statusCondition(eb: EB, kind: ElementKind, status: unknown): Expression<SqlBool> | null {
  if (status === null || status === undefined) return null;
  let items = (Array.isArray(status) ? status : [status]).map((s) => String(s).trim().toLowerCase());
  let negate = false;
  if (items[0] === 'not') {
    negate = true;
    items = items.slice(1);
  } else if (items[0] === 'or') items = items.slice(1);
  if (items.length === 0) return null;
  const valid = STATUSES[kind] ?? ['enabled', 'disabled'];
  const nowText = NOW as string;
  const on = eb.and([eb('e.enabled', '=', 1), eb('es.enabled', '=', 1)]);
  const off = eb.or([eb('e.enabled', '=', 0), eb('es.enabled', '=', 0)]);
  const conditions = items.map((item) => {
    let value = item;
    let not = negate;
    if (value.startsWith('not ')) {
      not = !not;
      value = value.slice(4).trim();
    }
    if (!valid.includes(value))
      throw new QueryArgumentError(`Invalid status ${quoteValue(value)}: use ${valid.map((v) => `"${v}"`).join(', ')}`);
    let condition: Expression<SqlBool>;
    switch (value) {
      case 'live':
        condition = eb.and([
          on,
          eb('en.postDate', '<=', nowText),
          eb.or([eb('en.expiryDate', 'is', null), eb('en.expiryDate', '>', nowText)]),
        ]);
        break;
      case 'pending':
        condition = eb.and([on, eb('en.postDate', '>', nowText)]);
        break;
      case 'expired':
        condition = eb.and([on, eb('en.expiryDate', 'is not', null), eb('en.expiryDate', '<=', nowText)]);
        break;
      case 'enabled':
      case 'active':
        condition = on;
        break;
      default:
        condition = off;
    }
    return not ? eb.not(condition) : condition;
  });
  return negate ? allOf(eb, conditions) : anyOf(eb, conditions);
}
