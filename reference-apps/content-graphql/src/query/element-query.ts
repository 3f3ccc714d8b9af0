import { createQueryId, sql, type CompiledQuery, type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Catalog } from '../content/catalog';
import type { ContentDB, ElementKind } from '../storage/database-types';
import { toElementRow, type ElementRow } from './element-row';
import { RELATION_TARGETS, readableKinds, type ElementScope, type ReadableKind } from './element-scope';
import { matchesNumberParam, matchesStringParam, paramCondition, parseDateArgument } from './param-parser';
import { QueryArgumentError, quoteValue } from './query-argument-error';
import { allOf, anyOf, checkArgumentSizes } from './argument-limits';
import { parseSearch, searchCondition, searchScore, type SearchQuery } from './search-query';
import { parseOrderBy, type OrderTerm } from './order-by';

export type ElementArgs = Record<string, unknown>;
type EB = ExpressionBuilder<any, any>;
type Query = SelectQueryBuilder<any, any, any>;

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

/** Stands for the current time in kept parameters (compared by identity, so no argument value can be mistaken for it). */
const NOW: unknown = Object.freeze({ placeholder: 'now' });
const MAX_PREPARED_QUERIES = 2000;

interface PreparedQuery {
  compiled: CompiledQuery;
  empty: boolean;
  inMemory: boolean;
  offset: number;
  limit: number | null;
  scoreOrder: boolean;
  fixedIds: number[] | null;
  search: SearchQuery | null;
}

/** JSON with sorted keys (argument objects come in the order the client wrote them). */
function stableKey(value: unknown): string {
  if (value === undefined) return 'u';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableKey).join(',')}]`;
  return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableKey((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

const STRUCTURED_KINDS: ReadonlySet<ElementKind> = new Set(['entry', 'category']);

/**
 * Element queries: the twelve GraphQL queries and every nested element field end up here. Arguments map onto
 * SQL conditions the way the CMS's element queries do (lists mean OR, operators in strings, dates, structures,
 * relations, search); what SQL cannot do alone (search scores, fixed order, per-source limits) is finished in memory.
 */
export class ElementQueryEngine {
  private readonly preparedQueries = new Map<string, PreparedQuery>();
  private readonly scopeIds = new WeakMap<ElementScope, number>();
  private readonly hiddenFields = new WeakMap<ElementScope, number[]>();
  private lastScopeId = 0;

  constructor(private readonly db: Kysely<ContentDB>, private readonly catalog: Catalog) {}

  async find(kind: ElementKind, givenArgs: ElementArgs, scope: ElementScope, ctx: QueryContext, batch?: BatchJoin): Promise<ElementRow[]> {
    checkArgumentSizes(givenArgs);
    const args = await this.withReadableRelations(givenArgs, scope, ctx);
    if (args === null) return [];
    const prepared = this.prepared(kind, args, scope, ctx, batch);
    if (prepared.empty) return [];
    const { compiled, offset, limit, inMemory } = prepared;
    const nowText = (ctx.now ?? new Date()).toISOString();
    const parameters = compiled.parameters.map((value) => (value === NOW ? nowText : value));
    const result = await this.db.executeQuery({ ...compiled, parameters, queryId: createQueryId() });
    let rows = result.rows.map((raw) => toElementRow(kind, raw as Record<string, unknown>));
    if (prepared.search) await this.score(rows, prepared.search, this.hiddenSearchFields(scope));
    if (prepared.scoreOrder) rows.sort((a, b) => (b.searchScore ?? 0) - (a.searchScore ?? 0));
    if (prepared.fixedIds) {
      const position = new Map(prepared.fixedIds.map((id, index) => [id, index]));
      rows.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
    }
    if (args.unique === true) {
      const seen = new Set<string>();
      rows = rows.filter((row) => {
        const key = `${row.batchKey ?? ''}:${row.id}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
    if (inMemory) rows = applyWindowPerKey(rows, offset, limit, args.inReverse === true);
    else if (args.inReverse === true) rows.reverse();
    return rows;
  }

  /**
   * The compiled SQL of an element query, built once per query shape and kept: building and compiling with Kysely
   * cost more than running the statement (a third of an uncached GraphQL request, measured). The current time is
   * a placeholder in the kept parameters, filled in at every run. Arguments that mention `now` are built every time.
   */
  private prepared(kind: ElementKind, args: ElementArgs, scope: ElementScope, ctx: QueryContext, batch?: BatchJoin): PreparedQuery {
    const argsKey = stableKey(args);
    const key = /now/i.test(argsKey) ? null
      : `${kind}|${this.scopeId(scope)}|${ctx.siteId}|${ctx.maxResults}|${batch ? stableKey(batch) : ''}|${argsKey}`;
    let prepared = key === null ? undefined : this.preparedQueries.get(key);
    if (!prepared) {
      prepared = this.prepare(kind, args, scope, ctx, batch);
      if (key !== null) {
        if (this.preparedQueries.size >= MAX_PREPARED_QUERIES) this.preparedQueries.delete(this.preparedQueries.keys().next().value!);
        this.preparedQueries.set(key, prepared);
      }
    }
    return prepared;
  }

  private prepare(kind: ElementKind, args: ElementArgs, scope: ElementScope, ctx: QueryContext, batch?: BatchJoin): PreparedQuery {
    const plan = this.plan(kind, args, scope, ctx, batch);
    let query = plan.query;
    const inMemory = plan.scoreOrder || plan.fixedIds !== null || Boolean(batch) || args.unique === true;
    // Explicit NULL placement: SQLite and PostgreSQL disagree on it by default.
    for (const term of plan.order) query = query.orderBy(sql`${sql.ref(term.column)} ${sql.raw(term.direction === 'asc' ? 'asc nulls first' : 'desc nulls last')}`);
    query = query.orderBy('e.id', 'desc');
    const { offset, limit } = this.window(args, ctx);
    if (!inMemory) {
      // Literals, not parameters (both are checked integers): SQLite plans a bound LIMIT anew on every run,
      // which cost more than the rest of the query (measured: 60 µs against 12 µs).
      if (offset) query = query.offset(sql.lit(offset));
      if (limit !== null) query = query.limit(sql.lit(limit));
      else if (offset) query = query.limit(sql.lit(Number.MAX_SAFE_INTEGER));
    }
    return { compiled: query.compile(), empty: plan.empty, inMemory, offset, limit, scoreOrder: plan.scoreOrder, fixedIds: plan.fixedIds, search: plan.search };
  }

  /**
   * `relatedTo`/`relatedToAll` count only elements the schema can read: a relation to an element it cannot read
   * must not show (it would tell that the element exists and what it is tied to). Ids the schema cannot read are
   * dropped; null when nothing can match any more (no readable id for "any of", an unreadable one for "all of").
   */
  private async withReadableRelations(args: ElementArgs, scope: ElementScope, ctx: QueryContext): Promise<ElementArgs | null> {
    const relatedAll = normalizeIdList(args.relatedToAll, 'relatedToAll');
    const related = relatedAll ? null : normalizeIdList(args.relatedTo, 'relatedTo');
    const list = relatedAll ? { ...relatedAll, glue: 'and' as const } : related;
    if (!list || list.ids.length === 0) return args;
    const readable = await this.readableIds(list.ids, scope, ctx);
    const kept = list.ids.filter((id) => readable.has(id));
    if (list.glue === 'and' ? kept.length < new Set(list.ids).size : kept.length === 0) return null;
    if (kept.length === list.ids.length) return args;
    return relatedAll ? { ...args, relatedToAll: kept } : { ...args, relatedTo: list.glue === 'and' ? ['and', ...kept] : kept };
  }

  /** The ids, of any kind, whose elements the scope lets a client read (any status and site); matrix blocks through their owners. */
  private async readableIds(ids: number[], scope: ElementScope, ctx: QueryContext): Promise<Set<number>> {
    const rows = await this.db.selectFrom('elements').select(['id', 'type']).where('id', 'in', [...new Set(ids)]).execute();
    const can = readableKinds(scope);
    const readable = new Set<number>();
    const byKind = new Map<ElementKind, number[]>();
    for (const row of rows) byKind.set(row.type as ElementKind, [...(byKind.get(row.type as ElementKind) ?? []), Number(row.id)]);
    for (const [kind, kindIds] of byKind) {
      if (kind === 'matrixblock') {
        const owners = await this.db.selectFrom('matrixblocks').select(['id', 'ownerId']).where('id', 'in', kindIds).execute();
        const readableOwners = await this.readableIds(owners.map((o) => Number(o.ownerId)), scope, ctx);
        for (const owner of owners) if (readableOwners.has(Number(owner.ownerId))) readable.add(Number(owner.id));
        continue;
      }
      if (!can[kind as ReadableKind]) continue;
      const found = await this.find(kind, { id: kindIds, status: null, site: '*' }, scope, { ...ctx, maxResults: 0 });
      for (const row of found) readable.add(row.id);
    }
    return readable;
  }

  /** Relation fields whose target kind the scope cannot read: their keywords (related titles) must not match searches. */
  private hiddenSearchFields(scope: ElementScope): number[] {
    let hidden = this.hiddenFields.get(scope);
    if (!hidden) {
      const can = readableKinds(scope);
      hidden = [...this.catalog.fieldsById.values()].filter((field) => {
        const target = RELATION_TARGETS[field.type];
        return target !== undefined && !can[target];
      }).map((field) => field.id);
      this.hiddenFields.set(scope, hidden);
    }
    return hidden;
  }

  private scopeId(scope: ElementScope): number {
    let id = this.scopeIds.get(scope);
    if (id === undefined) {
      id = ++this.lastScopeId;
      this.scopeIds.set(scope, id);
    }
    return id;
  }

  async count(kind: ElementKind, args: ElementArgs, scope: ElementScope, ctx: QueryContext): Promise<number> {
    return (await this.find(kind, args, scope, ctx)).length;
  }

  private window(args: ElementArgs, ctx: QueryContext): { offset: number; limit: number | null } {
    const offset = args.offset === undefined || args.offset === null ? 0 : Number(args.offset);
    let limit = args.limit === undefined || args.limit === null ? null : Number(args.limit);
    if (!Number.isInteger(offset) || offset < 0) throw new QueryArgumentError(`Invalid offset ${quoteValue(args.offset)}: expected an integer of 0 or more`);
    if (limit !== null && (!Number.isInteger(limit) || limit < 0)) limit = 0;
    if (ctx.maxResults > 0) limit = Math.min(ctx.maxResults, limit ?? ctx.maxResults);
    return { offset, limit };
  }

  private async score(rows: ElementRow[], search: SearchQuery, hiddenFields: number[]): Promise<void> {
    if (rows.length === 0) return;
    const ids = [...new Set(rows.map((r) => r.id))];
    const hidden = new Set(hiddenFields);
    const index = (await this.db.selectFrom('searchindex').select(['elementId', 'siteId', 'attribute', 'fieldId', 'keywords']).where('elementId', 'in', ids).execute())
      .filter((row) => !hidden.has(Number(row.fieldId)));
    for (const row of rows) row.searchScore = searchScore(search, index.filter((i) => i.elementId === row.id && i.siteId === row.siteId));
  }

  private plan(kind: ElementKind, args: ElementArgs, scope: ElementScope, ctx: QueryContext, batch?: BatchJoin) {
    const catalog = this.catalog;
    const conditions: Array<(eb: EB) => Expression<SqlBool> | null> = [];
    let empty = false;
    let query: Query = this.db.selectFrom('elements as e')
      .innerJoin('elements_sites as es', 'es.elementId', 'e.id')
      .select(['e.id', 'e.uid', 'e.enabled', 'e.archived', 'e.dateCreated', 'e.dateUpdated', 'e.dateDeleted',
        'es.siteId', 'es.title', 'es.slug', 'es.uri', 'es.enabled as enabledForSite', 'es.content'])
      .where('e.type', '=', kind) as Query;

    // Kind-specific tables, structure join and scope.
    switch (kind) {
      case 'entry': {
        query = query.innerJoin('entries as en', 'en.id', 'e.id').innerJoin('sections as sec', 'sec.id', 'en.sectionId')
          .leftJoin('structureelements as se', (join: any) => join.onRef('se.elementId', '=', 'e.id').onRef('se.structureId', '=', 'sec.structureId'))
          .select(['en.sectionId', 'en.typeId', 'en.authorId', 'en.postDate', 'en.expiryDate']);
        const allowedTypes = [...(scope.entryTypeIds ?? [])].filter((id) => {
          const type = catalog.entryTypesById.get(id);
          if (!type) return false;
          const section = catalog.sectionsById.get(type.sectionId)!;
          return matchesStringParam(args.section, section.handle) && matchesNumberParam(args.sectionId, section.id, 'sectionId')
            && matchesStringParam(args.type, type.handle) && matchesNumberParam(args.typeId, type.id, 'typeId');
        });
        if (allowedTypes.length === 0) empty = true;
        else query = query.where('en.typeId', 'in', allowedTypes);
        conditions.push((eb) => paramCondition(eb, 'en.authorId', args.authorId, 'number', 'authorId'));
        if (args.authorGroup !== undefined && args.authorGroup !== null || args.authorGroupId !== undefined && args.authorGroupId !== null) {
          const groupIds = [...catalog.userGroupsById.values()].filter((g) => matchesStringParam(args.authorGroup, g.handle) && matchesNumberParam(args.authorGroupId, g.id, 'authorGroupId')).map((g) => g.id);
          if (groupIds.length === 0) empty = true;
          else conditions.push((eb) => eb('en.authorId', 'in', eb.selectFrom('usergroups_users').select('userId').where('groupId', 'in', groupIds)));
        }
        conditions.push((eb) => paramCondition(eb, 'en.postDate', args.postDate, 'date', 'postDate'));
        conditions.push((eb) => paramCondition(eb, 'en.expiryDate', args.expiryDate, 'date', 'expiryDate'));
        if (typeof args.before === 'string') { const d = parseDateArgument(args.before, 'before'); conditions.push((eb) => eb('en.postDate', '<', d)); }
        if (typeof args.after === 'string') { const d = parseDateArgument(args.after, 'after'); conditions.push((eb) => eb('en.postDate', '>=', d)); }
        break;
      }
      case 'category': {
        query = query.innerJoin('categories as c', 'c.id', 'e.id').innerJoin('categorygroups as cg', 'cg.id', 'c.groupId')
          .leftJoin('structureelements as se', (join: any) => join.onRef('se.elementId', '=', 'e.id').onRef('se.structureId', '=', 'cg.structureId'))
          .select(['c.groupId']);
        const groups = [...(scope.categoryGroupIds ?? [])].map((id) => catalog.categoryGroupsById.get(id)).filter((g) => g && matchesStringParam(args.group, g.handle) && matchesNumberParam(args.groupId, g.id, 'groupId'));
        if (groups.length === 0) empty = true;
        else query = query.where('c.groupId', 'in', groups.map((g) => g!.id));
        break;
      }
      case 'asset': {
        query = query.innerJoin('assets as a', 'a.id', 'e.id').innerJoin('volumefolders as vf', 'vf.id', 'a.folderId')
          .select(['a.volumeId', 'a.folderId', 'vf.path as folderPath', 'a.filename', 'a.kind as kindOfFile', 'a.width', 'a.height', 'a.size', 'a.focalPoint', 'a.dateModified']);
        const volumes = [...(scope.volumeIds ?? [])].map((id) => catalog.volumesById.get(id)).filter((v) => v && matchesStringParam(args.volume, v.handle) && matchesNumberParam(args.volumeId, v.id, 'volumeId'));
        if (volumes.length === 0) empty = true;
        else query = query.where('a.volumeId', 'in', volumes.map((v) => v!.id));
        if (args.folderId !== undefined && args.folderId !== null) {
          if (args.includeSubfolders === true) {
            conditions.push((eb) => eb.exists(eb.selectFrom('volumefolders as top').select(sql`1`.as('one'))
              .where((inner: EB) => paramCondition(inner, 'top.id', args.folderId, 'number', 'folderId')!)
              .whereRef('top.volumeId', '=', 'vf.volumeId')
              .where(sql<SqlBool>`vf.path like top.path || '%'`)));
          } else {
            conditions.push((eb) => paramCondition(eb, 'a.folderId', args.folderId, 'number', 'folderId'));
          }
        }
        conditions.push((eb) => paramCondition(eb, 'a.filename', args.filename, 'string', 'filename'));
        conditions.push((eb) => paramCondition(eb, 'a.kind', args.kind, 'string', 'kind'));
        conditions.push((eb) => paramCondition(eb, 'a.width', args.width, 'number', 'width'));
        conditions.push((eb) => paramCondition(eb, 'a.height', args.height, 'number', 'height'));
        conditions.push((eb) => paramCondition(eb, 'a.size', args.size, 'number', 'size'));
        conditions.push((eb) => paramCondition(eb, 'a.dateModified', args.dateModified, 'date', 'dateModified'));
        if (Array.isArray(args.withTransforms)) {
          for (const handle of args.withTransforms) {
            if (typeof handle === 'string' && !catalog.transformsByHandle.has(handle)) throw new QueryArgumentError(`Unknown transform handle ${quoteValue(handle)} in withTransforms`);
          }
        }
        break;
      }
      case 'user': {
        query = query.innerJoin('users as u', 'u.id', 'e.id')
          .select(['u.username', 'u.firstName', 'u.lastName', 'u.email', 'u.photoId', 'u.preferredLanguage', 'u.preferences']);
        if (!scope.allUsers) {
          const allowed = [...(scope.userGroupIds ?? [])];
          if (allowed.length === 0) empty = true;
          else conditions.push((eb) => eb('e.id', 'in', eb.selectFrom('usergroups_users').select('userId').where('groupId', 'in', allowed)));
        }
        for (const [arg, column] of [['email', 'u.email'], ['username', 'u.username'], ['firstName', 'u.firstName'], ['lastName', 'u.lastName']] as const) {
          conditions.push((eb) => paramCondition(eb, column, args[arg], 'string', arg));
        }
        const groupParam = args.group ?? null;
        if (groupParam !== null || (args.groupId !== undefined && args.groupId !== null)) {
          const groupIds = [...catalog.userGroupsById.values()].filter((g) => {
            if (groupParam !== null) {
              const items = Array.isArray(groupParam) ? groupParam : [groupParam];
              const byId = items.every((v) => typeof v === 'number' || /^\d+$/.test(String(v)));
              if (byId ? !matchesNumberParam(groupParam, g.id, 'group') : !matchesStringParam(groupParam, g.handle)) return false;
            }
            return matchesNumberParam(args.groupId, g.id, 'groupId');
          }).map((g) => g.id);
          if (groupIds.length === 0) empty = true;
          else conditions.push((eb) => eb('e.id', 'in', eb.selectFrom('usergroups_users').select('userId').where('groupId', 'in', groupIds)));
        }
        break;
      }
      case 'tag': {
        query = query.innerJoin('tags as t', 't.id', 'e.id').select(['t.groupId']);
        const groups = [...(scope.tagGroupIds ?? [])].map((id) => catalog.tagGroupsById.get(id)).filter((g) => g && matchesStringParam(args.group, g.handle) && matchesNumberParam(args.groupId, g.id, 'groupId'));
        if (groups.length === 0) empty = true;
        else query = query.where('t.groupId', 'in', groups.map((g) => g!.id));
        break;
      }
      case 'globalset': {
        query = query.innerJoin('globalsets as g', 'g.id', 'e.id').select(['g.name', 'g.handle']);
        const sets = [...(scope.globalSetIds ?? [])].map((id) => catalog.globalSetsById.get(id)).filter((s) => s && matchesStringParam(args.handle, s.handle));
        if (sets.length === 0) empty = true;
        else query = query.where('g.id', 'in', sets.map((s) => s!.id));
        break;
      }
      case 'matrixblock': {
        query = query.innerJoin('matrixblocks as mb', 'mb.id', 'e.id').select(['mb.ownerId', 'mb.fieldId', 'mb.typeId', 'mb.sortOrder']);
        conditions.push((eb) => paramCondition(eb, 'mb.typeId', args.typeId, 'number', 'typeId'));
        if (args.type !== undefined && args.type !== null) {
          const typeIds = [...catalog.blockTypesById.values()].filter((b) => matchesStringParam(args.type, b.handle)).map((b) => b.id);
          if (typeIds.length === 0) empty = true;
          else query = query.where('mb.typeId', 'in', typeIds);
        }
        break;
      }
    }
    if (STRUCTURED_KINDS.has(kind)) {
      query = query.select(['se.structureId', 'se.lft', 'se.rgt', 'se.level', 'se.root']);
    }

    // Sites.
    const siteIds = this.siteIds(args, ctx);
    query = query.where('es.siteId', 'in', siteIds);

    // Status, archived, trashed.
    conditions.push((eb) => statusCondition(eb, kind, 'status' in args ? args.status : defaultStatus(kind)));
    conditions.push((eb) => args.archived === true ? eb('e.archived', '=', 1) : eb('e.archived', '=', 0));
    conditions.push((eb) => args.trashed === true ? eb('e.dateDeleted', 'is not', null) : eb('e.dateDeleted', 'is', null));
    if (typeof args.enabledForSite === 'boolean') { const value = args.enabledForSite ? 1 : 0; conditions.push((eb) => eb('es.enabled', '=', value)); }

    // Common attribute filters.
    let fixedIds: number[] | null = null;
    conditions.push((eb) => paramCondition(eb, 'e.id', args.id, 'number', 'id'));
    if (args.fixedOrder === true) {
      const ids = (Array.isArray(args.id) ? args.id : args.id === undefined || args.id === null ? [] : String(args.id).split(',')).map(Number).filter(Number.isInteger);
      if (ids.length === 0) empty = true;
      fixedIds = ids;
    }
    conditions.push((eb) => paramCondition(eb, 'e.uid', args.uid, 'string', 'uid'));
    conditions.push((eb) => paramCondition(eb, 'es.title', args.title, 'string', 'title'));
    conditions.push((eb) => paramCondition(eb, 'es.slug', args.slug, 'string', 'slug'));
    conditions.push((eb) => paramCondition(eb, 'es.uri', args.uri, 'string', 'uri'));
    conditions.push((eb) => paramCondition(eb, 'e.dateCreated', args.dateCreated, 'date', 'dateCreated'));
    conditions.push((eb) => paramCondition(eb, 'e.dateUpdated', args.dateUpdated, 'date', 'dateUpdated'));
    if (Array.isArray(args.ref) && args.ref.length) conditions.push((eb) => this.refCondition(eb, kind, args.ref as string[]));

    // Relations.
    const relatedAll = normalizeIdList(args.relatedToAll, 'relatedToAll');
    let related = normalizeIdList(args.relatedTo, 'relatedTo');
    let relatedGlue: 'and' | 'or' = 'or';
    if (related && related.glue === 'and') relatedGlue = 'and';
    if (relatedAll) { related = relatedAll; relatedGlue = 'and'; }
    if (related && related.ids.length) {
      const ids = related.ids;
      const one = (eb: EB, id: number) => eb.or([
        eb('e.id', 'in', eb.selectFrom('relations').select('targetId').where('sourceId', '=', id)),
        eb('e.id', 'in', eb.selectFrom('relations').select('sourceId').where('targetId', '=', id)),
      ]);
      conditions.push((eb) => relatedGlue === 'and'
        ? allOf(eb, ids.map((id) => one(eb, id)))
        : eb.or([
          eb('e.id', 'in', eb.selectFrom('relations').select('targetId').where('sourceId', 'in', ids)),
          eb('e.id', 'in', eb.selectFrom('relations').select('sourceId').where('targetId', 'in', ids)),
        ]));
    }

    // Search.
    let search: SearchQuery | null = null;
    if (typeof args.search === 'string' && args.search.trim() !== '') {
      search = parseSearch(args.search);
      const parsed = search;
      const hidden = this.hiddenSearchFields(scope);
      conditions.push((eb) => searchCondition(eb, parsed, catalog, 'e.id', 'es.siteId', hidden));
    }

    // Structure arguments.
    if (STRUCTURED_KINDS.has(kind)) {
      conditions.push((eb) => paramCondition(eb, 'se.structureId', args.structureId, 'number', 'structureId'));
      conditions.push((eb) => paramCondition(eb, 'se.level', args.level, 'number', 'level'));
      if (typeof args.hasDescendants === 'boolean') conditions.push((eb) => args.hasDescendants ? sql<SqlBool>`se.rgt > se.lft + 1` : sql<SqlBool>`se.rgt = se.lft + 1`);
      if (args.leaves === true) conditions.push(() => sql<SqlBool>`se.rgt = se.lft + 1`);
      const relative = (arg: string, build: (target: string) => Expression<SqlBool>) => {
        const id = args[arg];
        if (id === undefined || id === null) return;
        if (!Number.isInteger(id)) throw new QueryArgumentError(`Invalid value for argument "${arg}": expected an element id`);
        conditions.push((eb) => eb.exists(eb.selectFrom('structureelements as target').select(sql`1`.as('one'))
          .where('target.elementId', '=', id as number).whereRef('target.structureId', '=', 'se.structureId').where(build('target'))));
      };
      const ancestorDist = Number.isInteger(args.ancestorDist) ? args.ancestorDist as number : null;
      const descendantDist = Number.isInteger(args.descendantDist) ? args.descendantDist as number : null;
      relative('ancestorOf', (t) => sql<SqlBool>`se.lft < ${sql.ref(`${t}.lft`)} and se.rgt > ${sql.ref(`${t}.rgt`)} and se.level > 0${ancestorDist !== null ? sql` and se.level >= ${sql.ref(`${t}.level`)} - ${ancestorDist}` : sql``}`);
      relative('descendantOf', (t) => sql<SqlBool>`se.lft > ${sql.ref(`${t}.lft`)} and se.rgt < ${sql.ref(`${t}.rgt`)}${descendantDist !== null ? sql` and se.level <= ${sql.ref(`${t}.level`)} + ${descendantDist}` : sql``}`);
      relative('nextSiblingOf', (t) => sql<SqlBool>`se.lft = ${sql.ref(`${t}.rgt`)} + 1`);
      relative('prevSiblingOf', (t) => sql<SqlBool>`se.rgt = ${sql.ref(`${t}.lft`)} - 1`);
      relative('positionedAfter', (t) => sql<SqlBool>`se.lft > ${sql.ref(`${t}.rgt`)}`);
      relative('positionedBefore', (t) => sql<SqlBool>`se.rgt < ${sql.ref(`${t}.lft`)}`);
      // No user is logged in on the API, so nothing is editable.
      if (args.editable === true) empty = true;
    }

    // Batch joins.
    if (batch) {
      switch (batch.type) {
        case 'relation':
          if (batch.sourceIds.length === 0) empty = true;
          query = query.innerJoin('relations as r', 'r.targetId', 'e.id').where('r.sourceId', 'in', batch.sourceIds.length ? batch.sourceIds : [0])
            .where('r.fieldId', '=', batch.fieldId).select(['r.sourceId as batchKey', 'r.sortOrder as relationOrder']);
          break;
        case 'children':
          query = query.innerJoin('structureelements as p', (join: any) => join.onRef('p.structureId', '=', 'se.structureId'))
            .where('p.elementId', 'in', batch.parentIds.length ? batch.parentIds : [0])
            .where(sql<SqlBool>`se.lft > p.lft and se.rgt < p.rgt and se.level = p.level + 1`).select(['p.elementId as batchKey']);
          break;
        case 'parent':
          query = query.innerJoin('structureelements as ch', (join: any) => join.onRef('ch.structureId', '=', 'se.structureId'))
            .where('ch.elementId', 'in', batch.childIds.length ? batch.childIds : [0])
            .where(sql<SqlBool>`se.lft < ch.lft and se.rgt > ch.rgt and se.level = ch.level - 1`).select(['ch.elementId as batchKey']);
          break;
        case 'blocks':
          query = query.where('mb.ownerId', 'in', batch.ownerIds.length ? batch.ownerIds : [0]).where('mb.fieldId', '=', batch.fieldId).select(['mb.ownerId as batchKey']);
          break;
      }
    }

    if (!empty) {
      query = query.where((eb: EB) => {
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
      order = this.defaultOrder(kind, args, scope, batch);
    } else {
      order = this.defaultOrder(kind, args, scope, batch);
    }
    return { query, empty, order, scoreOrder, fixedIds, search };
  }

  private defaultOrder(kind: ElementKind, args: ElementArgs, scope: ElementScope, batch?: BatchJoin): OrderTerm[] {
    if (batch?.type === 'relation') return [{ column: 'relationOrder', direction: 'asc' }];
    if (batch?.type === 'blocks') return [{ column: 'mb.sortOrder', direction: 'asc' }];
    switch (kind) {
      case 'entry': {
        if (batch?.type === 'children') return [{ column: 'se.lft', direction: 'asc' }];
        // One structure section queried: structure order, as the CMS does.
        const sections = new Set([...(scope.entryTypeIds ?? [])].map((id) => this.catalog.entryTypesById.get(id)).filter(Boolean)
          .map((t) => this.catalog.sectionsById.get(t!.sectionId)!)
          .filter((s) => matchesStringParam(args.section, s.handle) && matchesNumberParam(args.sectionId, s.id, 'sectionId')));
        if ((args.section !== undefined || args.sectionId !== undefined) && sections.size === 1 && [...sections][0]!.type === 'structure') {
          return [{ column: 'se.lft', direction: 'asc' }];
        }
        return [{ column: 'en.postDate', direction: 'desc' }];
      }
      case 'category': return [{ column: 'se.root', direction: 'asc' }, { column: 'se.lft', direction: 'asc' }];
      case 'tag': return [{ column: 'es.title', direction: 'asc' }];
      case 'globalset': return [{ column: 'g.name', direction: 'asc' }];
      case 'user': return [{ column: 'u.username', direction: 'asc' }];
      case 'matrixblock': return [{ column: 'mb.sortOrder', direction: 'asc' }];
      default: return [{ column: 'e.dateCreated', direction: 'desc' }];
    }
  }

  private siteIds(args: ElementArgs, ctx: QueryContext): number[] {
    const sites = [...this.catalog.sitesById.values()];
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
  private refCondition(eb: EB, kind: ElementKind, refs: string[]): Expression<SqlBool> {
    const parts: Expression<SqlBool>[] = [];
    for (const raw of refs) {
      const ref = String(raw).replace(/^\{|\}$/g, '');
      const match = /^(?:(entry|asset|category|tag|user|globalset):)?(.+?)(?:@\w+)?$/.exec(ref);
      if (!match) continue;
      const refKind = (match[1] ?? kind) as ElementKind;
      if (refKind !== kind) continue;
      const target = match[2]!;
      if (/^\d+$/.test(target)) { parts.push(eb('e.id', '=', Number(target))); continue; }
      const slash = target.indexOf('/');
      if (kind === 'entry' && slash > 0) {
        const section = this.catalog.sectionsByHandle.get(target.slice(0, slash));
        if (section) parts.push(eb.and([eb('en.sectionId', '=', section.id), eb('es.slug', '=', target.slice(slash + 1))]));
        continue;
      }
      if (kind === 'user') parts.push(eb('u.username', '=', target));
      else if (kind === 'globalset') parts.push(eb('g.handle', '=', target));
      else parts.push(eb('es.slug', '=', target));
    }
    return parts.length ? anyOf(eb, parts) : sql<SqlBool>`1 = 0`;
  }
}

function defaultStatus(kind: ElementKind): unknown {
  if (kind === 'entry') return ['live'];
  if (kind === 'user') return ['active'];
  return ['enabled'];
}

const STATUSES: Record<string, string[]> = {
  entry: ['live', 'pending', 'expired', 'disabled', 'enabled'],
  user: ['active', 'suspended', 'enabled', 'disabled'],
};

/** Status conditions compare with the NOW placeholder, which `find` replaces with the current time. */
function statusCondition(eb: EB, kind: ElementKind, status: unknown): Expression<SqlBool> | null {
  if (status === null || status === undefined) return null;
  let items = (Array.isArray(status) ? status : [status]).map((s) => String(s).trim().toLowerCase());
  let negate = false;
  if (items[0] === 'not') { negate = true; items = items.slice(1); }
  else if (items[0] === 'or') items = items.slice(1);
  if (items.length === 0) return null;
  const valid = STATUSES[kind] ?? ['enabled', 'disabled'];
  const nowText = NOW as string;
  const on = eb.and([eb('e.enabled', '=', 1), eb('es.enabled', '=', 1)]);
  const off = eb.or([eb('e.enabled', '=', 0), eb('es.enabled', '=', 0)]);
  const conditions = items.map((item) => {
    let value = item;
    let not = negate;
    if (value.startsWith('not ')) { not = !not; value = value.slice(4).trim(); }
    if (!valid.includes(value)) throw new QueryArgumentError(`Invalid status ${quoteValue(value)}: use ${valid.map((v) => `"${v}"`).join(', ')}`);
    let condition: Expression<SqlBool>;
    switch (value) {
      case 'live':
        condition = eb.and([on, eb('en.postDate', '<=', nowText), eb.or([eb('en.expiryDate', 'is', null), eb('en.expiryDate', '>', nowText)])]);
        break;
      case 'pending': condition = eb.and([on, eb('en.postDate', '>', nowText)]); break;
      case 'expired': condition = eb.and([on, eb('en.expiryDate', 'is not', null), eb('en.expiryDate', '<=', nowText)]); break;
      case 'enabled': case 'active': condition = on; break;
      default: condition = off;
    }
    return not ? eb.not(condition) : condition;
  });
  return negate ? allOf(eb, conditions) : anyOf(eb, conditions);
}

function normalizeIdList(value: unknown, argName: string): { glue: 'and' | 'or'; ids: number[] } | null {
  if (value === undefined || value === null) return null;
  let items = Array.isArray(value) ? [...value] : [value];
  let glue: 'and' | 'or' = 'or';
  if (typeof items[0] === 'string' && ['and', 'or'].includes(items[0].toLowerCase())) { glue = items[0].toLowerCase() as 'and' | 'or'; items = items.slice(1); }
  const ids = items.map((item) => {
    const n = typeof item === 'number' ? item : Number(item);
    if (!Number.isInteger(n)) throw new QueryArgumentError(`Invalid value ${quoteValue(item)} for argument "${argName}": expected element ids`);
    return n;
  });
  return { glue, ids };
}

function applyWindowPerKey(rows: ElementRow[], offset: number, limit: number | null, reverse: boolean): ElementRow[] {
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
