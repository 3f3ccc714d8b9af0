import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { normalizeKeywords } from '../../model/search-keywords';
import type { Catalog } from '../catalog';
import { MAX_SEARCH_TERMS, allOf, anyOf } from './argument-limits';
import { QueryArgumentError } from '../../model/query-argument-error';

/** One search term: `salty`, `-salty`, `"salty dog"`, `body:salty`, `body::salty`, `*alt*`, `body:*`. */
export interface SearchTerm {
  value: string;
  negate: boolean;
  attribute: string | null;
  exact: boolean;
  phrase: boolean;
  subLeft: boolean;
  subRight: boolean;
  /** `field:*`: the attribute has any value. */
  any: boolean;
}

/** Terms in AND groups; the terms inside one group are joined by OR (`salty OR dog`). */
export type SearchQuery = SearchTerm[][];

const TOKEN = /(-)?(?:([A-Za-z_][\w.]*)(::?))?(?:"([^"]*)"|(\S+))/g;

export function parseSearch(text: string): SearchQuery {
  const groups: SearchQuery = [];
  let joinNext = false;
  for (const match of text.matchAll(TOKEN)) {
    const [, minus, attribute, colons, quoted, bare] = match;
    if (!attribute && !minus && quoted === undefined && bare === 'OR') {
      joinNext = groups.length > 0;
      continue;
    }
    const raw = quoted ?? bare ?? '';
    const any = quoted === undefined && raw === '*';
    const term: SearchTerm = {
      value: any ? '' : normalizeKeywords(raw.replace(/\*/g, ' ')).trim(),
      negate: Boolean(minus),
      attribute: attribute ? attribute.toLowerCase() : null,
      exact: colons === '::',
      phrase: quoted !== undefined,
      subLeft: !any && raw.startsWith('*'),
      subRight: true,
      any,
    };
    if (!term.any && term.value === '') continue;
    if (!term.any && !term.phrase && !term.exact && raw.length > 1 && raw.endsWith('*') === false) term.subRight = true;
    if (joinNext) groups[groups.length - 1]!.push(term);
    else groups.push([term]);
    joinNext = false;
  }
  return groups;
}

/**
 * SQL condition for a parsed search, against the search index rows of `elementColumn` in `siteColumn`.
 * `hiddenFieldIds`: fields the client's schema does not have (relations to kinds it cannot read); their keywords
 * never match, and naming them (`tags:ships`) behaves as naming an unknown field.
 */
export function searchCondition(
  eb: ExpressionBuilder<any, any>,
  query: SearchQuery,
  catalog: Catalog,
  elementColumn: string,
  siteColumn: string,
  hiddenFieldIds: readonly number[] = [],
): Expression<SqlBool> {
  const terms = query.reduce((sum, group) => sum + group.length, 0);
  if (terms > MAX_SEARCH_TERMS)
    throw new QueryArgumentError(`Argument "search" has ${terms} terms; at most ${MAX_SEARCH_TERMS} are accepted`);
  const groups = query.map((group) =>
    anyOf(
      eb,
      group.map((term) => termCondition(eb, term, catalog, elementColumn, siteColumn, hiddenFieldIds)),
    ),
  );
  return groups.length ? allOf(eb, groups) : sql<SqlBool>`1 = 1`;
}

function termCondition(
  eb: ExpressionBuilder<any, any>,
  term: SearchTerm,
  catalog: Catalog,
  elementColumn: string,
  siteColumn: string,
  hiddenFieldIds: readonly number[],
): Expression<SqlBool> {
  let sub = eb
    .selectFrom('searchindex as si')
    .select(sql`1`.as('one'))
    .whereRef('si.elementId', '=', elementColumn as any)
    .whereRef('si.siteId', '=', siteColumn as any);
  if (hiddenFieldIds.length) sub = sub.where('si.fieldId', 'not in', [...hiddenFieldIds]);
  if (term.attribute) {
    const fieldIds = [...catalog.fieldsById.values()]
      .filter((f) => f.handle.toLowerCase() === term.attribute && !hiddenFieldIds.includes(f.id))
      .map((f) => f.id);
    sub = fieldIds.length
      ? sub.where('si.attribute', '=', 'field').where('si.fieldId', 'in', fieldIds)
      : sub.where('si.attribute', '=', term.attribute);
  }
  if (term.any) {
    sub = sub.where('si.keywords', '!=', '');
  } else if (term.exact) {
    sub = sub.where('si.keywords', '=', ` ${term.value} `);
  } else {
    const escaped = term.value.replace(/[\\%_]/g, (c) => `\\${c}`);
    const pattern = term.phrase ? `% ${escaped} %` : `${term.subLeft ? '%' : '% '}${escaped}%`;
    sub = sub.where(sql<SqlBool>`si.keywords like ${pattern} escape '\\'`);
  }
  return term.negate ? eb.not(eb.exists(sub)) : eb.exists(sub);
}

/** Relevance: occurrences of the positive terms, title hits weighing five times as much. */
export function searchScore(query: SearchQuery, rows: Array<{ attribute: string; keywords: string }>): number {
  let score = 0;
  for (const group of query) {
    for (const term of group) {
      if (term.negate || term.any) continue;
      for (const row of rows) {
        const haystack = row.keywords;
        const needle = term.exact
          ? ` ${term.value} `
          : term.phrase
            ? ` ${term.value} `
            : term.subLeft
              ? term.value
              : ` ${term.value}`;
        let from = 0;
        let hits = 0;
        while ((from = haystack.indexOf(needle, from)) !== -1) {
          hits++;
          from += needle.length;
        }
        score += hits * (row.attribute === 'title' ? 5 : 1);
      }
    }
  }
  return score;
}
