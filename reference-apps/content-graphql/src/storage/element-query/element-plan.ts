import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Catalog } from '../catalog';
import type { ContentDB, ElementKind } from '../database-types';
import type { ElementScope } from '../../model/element-scope';
import { QueryArgumentError, quoteValue } from '../../model/query-argument-error';
import { matchesNumberParam, matchesStringParam, paramCondition } from './param-parser';
import { allOf, anyOf } from './argument-limits';
import { parseSearch, searchCondition, type SearchQuery } from './search-query';
import { parseOrderBy, type OrderTerm } from './order-by';
import { applyKindFilters } from './kind-filters';
import { applyBatchJoin, applyStructureFilters } from './structure-filters';
import { defaultStatus, statusCondition } from './status-filter';
import { normalizeIdList } from './id-lists';
import type { BatchJoin, EB, ElementArgs, ElementColumns, PlanState, Query, QueryContext } from './plan-state';

const STRUCTURED_KINDS: ReadonlySet<ElementKind> = new Set(['entry', 'category']);

/** An element query planned: the statement (without order and window), and what is finished in memory. */
export interface ElementQueryPlan {
  query: Query;
  /** Nothing can match: the statement is not run. */
  empty: boolean;
  order: OrderTerm[];
  /** Order by search score (in memory). */
  scoreOrder: boolean;
  /** `fixedOrder`: the order of these ids (in memory). */
  fixedIds: number[] | null;
  search: SearchQuery | null;
}

/**
 * Plans an element query the way the CMS's element queries work: the kind's tables and scope, sites, status, the
 * common attribute filters, relations, search, structure arguments, the batch join, then the order. Each argument
 * becomes a condition ANDed into the WHERE; lists mean OR, operators and dates as param-parser reads them.
 */
export function planElementQuery(
  db: Kysely<ContentDB>,
  catalog: Catalog,
  kind: ElementKind,
  args: ElementArgs,
  scope: ElementScope,
  ctx: QueryContext,
  batch: BatchJoin | undefined,
  hiddenSearchFields: () => number[],
  columns: ElementColumns = 'all',
): ElementQueryPlan {
  const state: PlanState = {
    query: db
      .selectFrom('elements as e')
      .innerJoin('elements_sites as es', 'es.elementId', 'e.id')
      .select(
        columns === 'all'
          ? [
              'e.id',
              'e.uid',
              'e.enabled',
              'e.archived',
              'e.dateCreated',
              'e.dateUpdated',
              'e.dateDeleted',
              'es.siteId',
              'es.title',
              'es.slug',
              'es.uri',
              'es.enabled as enabledForSite',
              'es.content',
            ]
          : ['e.id', 'es.siteId', 'es.title', 'es.uri', 'es.content'],
      )
      .where('e.type', '=', kind) as Query,
    columns,
    conditions: [],
    empty: false,
  };
  const conditions = state.conditions;

  applyKindFilters(state, kind, args, scope, catalog);
  if (STRUCTURED_KINDS.has(kind)) {
    state.query = state.query.select(['se.structureId', 'se.lft', 'se.rgt', 'se.level']);
    if (columns === 'all') state.query = state.query.select('se.root');
  }

  // Sites.
  state.query = state.query.where('es.siteId', 'in', siteIdsOf(catalog, args, ctx));

  // Status, archived, trashed.
  conditions.push((eb) => statusCondition(eb, kind, 'status' in args ? args.status : defaultStatus(kind)));
  conditions.push((eb) => (args.archived === true ? eb('e.archived', '=', 1) : eb('e.archived', '=', 0)));
  conditions.push((eb) =>
    args.trashed === true ? eb('e.dateDeleted', 'is not', null) : eb('e.dateDeleted', 'is', null),
  );
  if (typeof args.enabledForSite === 'boolean') {
    const value = args.enabledForSite ? 1 : 0;
    conditions.push((eb) => eb('es.enabled', '=', value));
  }

  // Common attribute filters.
  let fixedIds: number[] | null = null;
  conditions.push((eb) => paramCondition(eb, 'e.id', args.id, 'number', 'id'));
  if (args.fixedOrder === true) {
    const ids = (
      Array.isArray(args.id) ? args.id : args.id === undefined || args.id === null ? [] : String(args.id).split(',')
    )
      .map(Number)
      .filter(Number.isInteger);
    if (ids.length === 0) state.empty = true;
    fixedIds = ids;
  }
  conditions.push((eb) => paramCondition(eb, 'e.uid', args.uid, 'string', 'uid'));
  conditions.push((eb) => paramCondition(eb, 'es.title', args.title, 'string', 'title'));
  conditions.push((eb) => paramCondition(eb, 'es.slug', args.slug, 'string', 'slug'));
  conditions.push((eb) => paramCondition(eb, 'es.uri', args.uri, 'string', 'uri'));
  conditions.push((eb) => paramCondition(eb, 'e.dateCreated', args.dateCreated, 'date', 'dateCreated'));
  conditions.push((eb) => paramCondition(eb, 'e.dateUpdated', args.dateUpdated, 'date', 'dateUpdated'));
  if (Array.isArray(args.ref) && args.ref.length)
    conditions.push((eb) => refCondition(eb, catalog, kind, args.ref as string[]));

  // Relations.
  const relatedAll = normalizeIdList(args.relatedToAll, 'relatedToAll');
  let related = normalizeIdList(args.relatedTo, 'relatedTo');
  let relatedGlue: 'and' | 'or' = 'or';
  if (related && related.glue === 'and') relatedGlue = 'and';
  if (relatedAll) {
    related = relatedAll;
    relatedGlue = 'and';
  }
  if (related?.ids.length) {
    const ids = related.ids;
    const one = (eb: EB, id: number) =>
      eb.or([
        eb('e.id', 'in', eb.selectFrom('relations').select('targetId').where('sourceId', '=', id)),
        eb('e.id', 'in', eb.selectFrom('relations').select('sourceId').where('targetId', '=', id)),
      ]);
    conditions.push((eb) =>
      relatedGlue === 'and'
        ? allOf(
            eb,
            ids.map((id) => one(eb, id)),
          )
        : eb.or([
            eb('e.id', 'in', eb.selectFrom('relations').select('targetId').where('sourceId', 'in', ids)),
            eb('e.id', 'in', eb.selectFrom('relations').select('sourceId').where('targetId', 'in', ids)),
          ]),
    );
  }

  // Search.
  let search: SearchQuery | null = null;
  if (typeof args.search === 'string' && args.search.trim() !== '') {
    search = parseSearch(args.search);
    const parsed = search;
    const hidden = hiddenSearchFields();
    conditions.push((eb) => searchCondition(eb, parsed, catalog, 'e.id', 'es.siteId', hidden));
  }

  if (STRUCTURED_KINDS.has(kind)) applyStructureFilters(state, args);

  if (batch) applyBatchJoin(state, batch);

  if (!state.empty) {
    state.query = state.query.where((eb: EB) => {
      const built = conditions.map((c) => c(eb)).filter((c): c is Expression<SqlBool> => c !== null);
      return built.length ? eb.and(built) : sql<SqlBool>`1 = 1`;
    });
  }

  // Order.
  const orderBy = typeof args.orderBy === 'string' && args.orderBy.trim() !== '' ? args.orderBy : null;
  let order: OrderTerm[];
  let scoreOrder = false;
  if (orderBy) {
    const parsed = parseOrderBy(orderBy, kind);
    scoreOrder = parsed.some((t) => t.column === 'score');
    if (scoreOrder && !search) scoreOrder = false;
    order = parsed.filter((t) => t.column !== 'score');
  } else if (search) {
    scoreOrder = true;
    order = defaultOrder(catalog, kind, args, scope, batch);
  } else {
    order = defaultOrder(catalog, kind, args, scope, batch);
  }
  return { query: state.query, empty: state.empty, order, scoreOrder, fixedIds, search };
}

/** The order when the query names none: relation order, block order, structure order or the kind's own. */
function defaultOrder(
  catalog: Catalog,
  kind: ElementKind,
  args: ElementArgs,
  scope: ElementScope,
  batch?: BatchJoin,
): OrderTerm[] {
  if (batch?.type === 'relation') return [{ column: 'relationOrder', direction: 'asc' }];
  if (batch?.type === 'blocks') return [{ column: 'mb.sortOrder', direction: 'asc' }];
  switch (kind) {
    case 'entry': {
      if (batch?.type === 'children') return [{ column: 'se.lft', direction: 'asc' }];
      // One structure section queried: structure order, as the CMS does.
      const sections = new Set(
        [...(scope.entryTypeIds ?? [])]
          .map((id) => catalog.entryTypesById.get(id))
          .filter(Boolean)
          .map((t) => catalog.sectionsById.get(t!.sectionId)!)
          .filter(
            (s) => matchesStringParam(args.section, s.handle) && matchesNumberParam(args.sectionId, s.id, 'sectionId'),
          ),
      );
      if (
        (args.section !== undefined || args.sectionId !== undefined) &&
        sections.size === 1 &&
        [...sections][0]!.type === 'structure'
      ) {
        return [{ column: 'se.lft', direction: 'asc' }];
      }
      return [{ column: 'en.postDate', direction: 'desc' }];
    }
    case 'category':
      return [
        { column: 'se.root', direction: 'asc' },
        { column: 'se.lft', direction: 'asc' },
      ];
    case 'tag':
      return [{ column: 'es.title', direction: 'asc' }];
    case 'globalset':
      return [{ column: 'g.name', direction: 'asc' }];
    case 'user':
      return [{ column: 'u.username', direction: 'asc' }];
    case 'matrixblock':
      return [{ column: 'mb.sortOrder', direction: 'asc' }];
    default:
      return [{ column: 'e.dateCreated', direction: 'desc' }];
  }
}

/** The sites a query reads: `site`/`siteId` (`*` = all), else the request's. */
function siteIdsOf(catalog: Catalog, args: ElementArgs, ctx: QueryContext): number[] {
  const sites = [...catalog.sitesById.values()];
  if (args.site !== undefined && args.site !== null) {
    const list = Array.isArray(args.site) ? args.site : [args.site];
    if (list.includes('*')) return sites.map((s) => s.id);
    const ids = sites.filter((s) => matchesStringParam(args.site, s.handle)).map((s) => s.id);
    if (ids.length === 0) throw new QueryArgumentError(`Invalid site handle: ${quoteValue(list)}`);
    return ids;
  }
  if (args.siteId !== undefined && args.siteId !== null) {
    if (String(args.siteId).trim() === '*') return sites.map((s) => s.id);
    const ids = sites.filter((s) => matchesNumberParam(args.siteId, s.id, 'siteId')).map((s) => s.id);
    if (ids.length === 0) throw new QueryArgumentError(`Invalid site id: ${quoteValue(args.siteId)}`);
    return ids;
  }
  return [ctx.siteId];
}

/** Reference strings: `entry:12`, `entry:news/my-slug`, `category:web`, `{entry:12}`; the kind must match the query. */
function refCondition(eb: EB, catalog: Catalog, kind: ElementKind, refs: string[]): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  for (const raw of refs) {
    const ref = String(raw).replace(/^\{|\}$/g, '');
    const match = /^(?:(entry|asset|category|tag|user|globalset):)?(.+?)(?:@\w+)?$/.exec(ref);
    if (!match) continue;
    const refKind = (match[1] ?? kind) as ElementKind;
    if (refKind !== kind) continue;
    const target = match[2]!;
    if (/^\d+$/.test(target)) {
      parts.push(eb('e.id', '=', Number(target)));
      continue;
    }
    const slash = target.indexOf('/');
    if (kind === 'entry' && slash > 0) {
      const section = catalog.sectionsByHandle.get(target.slice(0, slash));
      if (section)
        parts.push(eb.and([eb('en.sectionId', '=', section.id), eb('es.slug', '=', target.slice(slash + 1))]));
      continue;
    }
    if (kind === 'user') parts.push(eb('u.username', '=', target));
    else if (kind === 'globalset') parts.push(eb('g.handle', '=', target));
    else parts.push(eb('es.slug', '=', target));
  }
  return parts.length ? anyOf(eb, parts) : sql<SqlBool>`1 = 0`;
}
