import { createQueryId, sql, type CompiledQuery, type Kysely } from 'kysely';
import type { Catalog } from '../catalog';
import type { ContentDB, ElementKind } from '../database-types';
import { toElementRow, type ElementRow } from './element-row';
import { RELATION_TARGETS, readableKinds, type ElementScope, type ReadableKind } from '../../model/element-scope';
import { QueryArgumentError, quoteValue } from '../../model/query-argument-error';
import { stableJson } from '../../model/stable-json';
import { checkArgumentSizes } from './argument-limits';
import { searchScore, type SearchQuery } from './search-query';
import { planElementQuery } from './element-plan';
import { NOW } from './status-filter';
import { applyWindowPerKey, normalizeIdList } from './id-lists';
import type { BatchJoin, ElementArgs, ElementColumns, QueryContext } from './plan-state';

export type { BatchJoin, ElementArgs, ElementColumns, QueryContext } from './plan-state';

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

/** The current time as ISO text, made once per millisecond (toISOString cost more than half a microsecond a call). */
let lastTime = 0;
let lastTimeText = '';
function currentTimeText(): string {
  const time = Date.now();
  if (time !== lastTime) {
    lastTime = time;
    lastTimeText = new Date(time).toISOString();
  }
  return lastTimeText;
}

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

  constructor(
    private readonly db: Kysely<ContentDB>,
    private readonly catalog: Catalog,
  ) {}

  /** `columns: 'essential'` leaves out the columns only some GraphQL fields read (see ElementColumns). */
  async find(
    kind: ElementKind,
    givenArgs: ElementArgs,
    scope: ElementScope,
    ctx: QueryContext,
    batch?: BatchJoin,
    columns: ElementColumns = 'all',
  ): Promise<ElementRow[]> {
    checkArgumentSizes(givenArgs);
    const args = await this.withReadableRelations(givenArgs, scope, ctx);
    if (args === null) return [];
    const prepared = this.prepared(kind, args, scope, ctx, batch, columns);
    if (prepared.empty) return [];
    const { compiled, offset, limit, inMemory } = prepared;
    const nowText = ctx.now ? ctx.now.toISOString() : currentTimeText();
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
  private prepared(
    kind: ElementKind,
    args: ElementArgs,
    scope: ElementScope,
    ctx: QueryContext,
    batch: BatchJoin | undefined,
    columns: ElementColumns,
  ): PreparedQuery {
    const argsKey = stableJson(args);
    const key = /now/i.test(argsKey)
      ? null
      : `${kind}|${columns}|${this.scopeId(scope)}|${ctx.siteId}|${ctx.maxResults}|${batch ? stableJson(batch) : ''}|${argsKey}`;
    let prepared = key === null ? undefined : this.preparedQueries.get(key);
    if (!prepared) {
      prepared = this.prepare(kind, args, scope, ctx, batch, columns);
      if (key !== null) {
        if (this.preparedQueries.size >= MAX_PREPARED_QUERIES)
          this.preparedQueries.delete(this.preparedQueries.keys().next().value!);
        this.preparedQueries.set(key, prepared);
      }
    }
    return prepared;
  }

  private prepare(
    kind: ElementKind,
    args: ElementArgs,
    scope: ElementScope,
    ctx: QueryContext,
    batch: BatchJoin | undefined,
    columns: ElementColumns,
  ): PreparedQuery {
    const plan = planElementQuery(
      this.db,
      this.catalog,
      kind,
      args,
      scope,
      ctx,
      batch,
      () => this.hiddenSearchFields(scope),
      columns,
    );
    let query = plan.query;
    const inMemory = plan.scoreOrder || plan.fixedIds !== null || Boolean(batch) || args.unique === true;
    // Explicit NULL placement: SQLite and PostgreSQL disagree on it by default.
    for (const term of plan.order)
      query = query.orderBy(
        sql`${sql.ref(term.column)} ${sql.raw(term.direction === 'asc' ? 'asc nulls first' : 'desc nulls last')}`,
      );
    query = query.orderBy('e.id', 'desc');
    const { offset, limit } = this.window(args, ctx);
    if (!inMemory) {
      // Literals, not parameters (both are checked integers): SQLite plans a bound LIMIT anew on every run,
      // which cost more than the rest of the query (measured: 60 µs against 12 µs).
      if (offset) query = query.offset(sql.lit(offset));
      if (limit !== null) query = query.limit(sql.lit(limit));
      else if (offset) query = query.limit(sql.lit(Number.MAX_SAFE_INTEGER));
    }
    return {
      compiled: query.compile(),
      empty: plan.empty,
      inMemory,
      offset,
      limit,
      scoreOrder: plan.scoreOrder,
      fixedIds: plan.fixedIds,
      search: plan.search,
    };
  }

  /**
   * `relatedTo`/`relatedToAll` count only elements the schema can read: a relation to an element it cannot read
   * must not show (it would tell that the element exists and what it is tied to). Ids the schema cannot read are
   * dropped; null when nothing can match any more (no readable id for "any of", an unreadable one for "all of").
   */
  private async withReadableRelations(
    args: ElementArgs,
    scope: ElementScope,
    ctx: QueryContext,
  ): Promise<ElementArgs | null> {
    const relatedAll = normalizeIdList(args.relatedToAll, 'relatedToAll');
    const related = relatedAll ? null : normalizeIdList(args.relatedTo, 'relatedTo');
    const list = relatedAll ? { ...relatedAll, glue: 'and' as const } : related;
    if (!list || list.ids.length === 0) return args;
    const readable = await this.readableIds(list.ids, scope, ctx);
    const kept = list.ids.filter((id) => readable.has(id));
    if (list.glue === 'and' ? kept.length < new Set(list.ids).size : kept.length === 0) return null;
    if (kept.length === list.ids.length) return args;
    return relatedAll
      ? { ...args, relatedToAll: kept }
      : { ...args, relatedTo: list.glue === 'and' ? ['and', ...kept] : kept };
  }

  /** The ids, of any kind, whose elements the scope lets a client read (any status and site); matrix blocks through their owners. */
  private async readableIds(ids: number[], scope: ElementScope, ctx: QueryContext): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('elements')
      .select(['id', 'type'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const can = readableKinds(scope);
    const readable = new Set<number>();
    const byKind = new Map<ElementKind, number[]>();
    for (const row of rows)
      byKind.set(row.type as ElementKind, [...(byKind.get(row.type as ElementKind) ?? []), Number(row.id)]);
    for (const [kind, kindIds] of byKind) {
      if (kind === 'matrixblock') {
        const owners = await this.db
          .selectFrom('matrixblocks')
          .select(['id', 'ownerId'])
          .where('id', 'in', kindIds)
          .execute();
        const readableOwners = await this.readableIds(
          owners.map((o) => Number(o.ownerId)),
          scope,
          ctx,
        );
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
      hidden = [...this.catalog.fieldsById.values()]
        .filter((field) => {
          const target = RELATION_TARGETS[field.type];
          return target !== undefined && !can[target];
        })
        .map((field) => field.id);
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
    if (!Number.isInteger(offset) || offset < 0)
      throw new QueryArgumentError(`Invalid offset ${quoteValue(args.offset)}: expected an integer of 0 or more`);
    if (limit !== null && (!Number.isInteger(limit) || limit < 0)) limit = 0;
    if (ctx.maxResults > 0) limit = Math.min(ctx.maxResults, limit ?? ctx.maxResults);
    return { offset, limit };
  }

  private async score(rows: ElementRow[], search: SearchQuery, hiddenFields: number[]): Promise<void> {
    if (rows.length === 0) return;
    const ids = [...new Set(rows.map((r) => r.id))];
    const hidden = new Set(hiddenFields);
    const index = (
      await this.db
        .selectFrom('searchindex')
        .select(['elementId', 'siteId', 'attribute', 'fieldId', 'keywords'])
        .where('elementId', 'in', ids)
        .execute()
    ).filter((row) => !hidden.has(Number(row.fieldId)));
    for (const row of rows)
      row.searchScore = searchScore(
        search,
        index.filter((i) => i.elementId === row.id && i.siteId === row.siteId),
      );
  }
}
