import { sql, type Expression, type SqlBool } from 'kysely';
import { QueryArgumentError } from '../../model/query-argument-error';
import { paramCondition } from './param-parser';
import type { BatchJoin, ElementArgs, PlanState } from './plan-state';

/** Structure arguments (level, hasDescendants, leaves, relatives, editable) of structured kinds (entries, categories). */
export function applyStructureFilters(state: PlanState, args: ElementArgs): void {
  state.conditions.push((eb) => paramCondition(eb, 'se.structureId', args.structureId, 'number', 'structureId'));
  state.conditions.push((eb) => paramCondition(eb, 'se.level', args.level, 'number', 'level'));
  if (typeof args.hasDescendants === 'boolean')
    state.conditions.push((_eb) =>
      args.hasDescendants ? sql<SqlBool>`se.rgt > se.lft + 1` : sql<SqlBool>`se.rgt = se.lft + 1`,
    );
  if (args.leaves === true) state.conditions.push(() => sql<SqlBool>`se.rgt = se.lft + 1`);
  const relative = (arg: string, build: (target: string) => Expression<SqlBool>) => {
    const id = args[arg];
    if (id === undefined || id === null) return;
    if (!Number.isInteger(id))
      throw new QueryArgumentError(`Invalid value for argument "${arg}": expected an element id`);
    state.conditions.push((eb) =>
      eb.exists(
        eb
          .selectFrom('structureelements as target')
          .select(sql`1`.as('one'))
          .where('target.elementId', '=', id as number)
          .whereRef('target.structureId', '=', 'se.structureId')
          .where(build('target')),
      ),
    );
  };
  const ancestorDist = Number.isInteger(args.ancestorDist) ? (args.ancestorDist as number) : null;
  const descendantDist = Number.isInteger(args.descendantDist) ? (args.descendantDist as number) : null;
  relative(
    'ancestorOf',
    (t) =>
      sql<SqlBool>`se.lft < ${sql.ref(`${t}.lft`)} and se.rgt > ${sql.ref(`${t}.rgt`)} and se.level > 0${ancestorDist !== null ? sql` and se.level >= ${sql.ref(`${t}.level`)} - ${ancestorDist}` : sql``}`,
  );
  relative(
    'descendantOf',
    (t) =>
      sql<SqlBool>`se.lft > ${sql.ref(`${t}.lft`)} and se.rgt < ${sql.ref(`${t}.rgt`)}${descendantDist !== null ? sql` and se.level <= ${sql.ref(`${t}.level`)} + ${descendantDist}` : sql``}`,
  );
  relative('nextSiblingOf', (t) => sql<SqlBool>`se.lft = ${sql.ref(`${t}.rgt`)} + 1`);
  relative('prevSiblingOf', (t) => sql<SqlBool>`se.rgt = ${sql.ref(`${t}.lft`)} - 1`);
  relative('positionedAfter', (t) => sql<SqlBool>`se.lft > ${sql.ref(`${t}.rgt`)}`);
  relative('positionedBefore', (t) => sql<SqlBool>`se.rgt < ${sql.ref(`${t}.lft`)}`);
  // No user is logged in on the API, so nothing is editable.
  if (args.editable === true) state.empty = true;
}

/** How a batched query (relations, children, parents, matrix blocks of many elements at once) joins its sources. */
export function applyBatchJoin(state: PlanState, batch: BatchJoin): void {
  switch (batch.type) {
    case 'relation':
      if (batch.sourceIds.length === 0) state.empty = true;
      state.query = state.query
        .innerJoin('relations as r', 'r.targetId', 'e.id')
        .where('r.sourceId', 'in', batch.sourceIds.length ? batch.sourceIds : [0])
        .where('r.fieldId', '=', batch.fieldId)
        .select(['r.sourceId as batchKey', 'r.sortOrder as relationOrder']);
      break;
    case 'children':
      state.query = state.query
        .innerJoin('structureelements as p', (join: any) => join.onRef('p.structureId', '=', 'se.structureId'))
        .where('p.elementId', 'in', batch.parentIds.length ? batch.parentIds : [0])
        .where(sql<SqlBool>`se.lft > p.lft and se.rgt < p.rgt and se.level = p.level + 1`)
        .select(['p.elementId as batchKey']);
      break;
    case 'parent':
      state.query = state.query
        .innerJoin('structureelements as ch', (join: any) => join.onRef('ch.structureId', '=', 'se.structureId'))
        .where('ch.elementId', 'in', batch.childIds.length ? batch.childIds : [0])
        .where(sql<SqlBool>`se.lft < ch.lft and se.rgt > ch.rgt and se.level = ch.level - 1`)
        .select(['ch.elementId as batchKey']);
      break;
    case 'blocks':
      state.query = state.query
        .where('mb.ownerId', 'in', batch.ownerIds.length ? batch.ownerIds : [0])
        .where('mb.fieldId', '=', batch.fieldId)
        .select(['mb.ownerId as batchKey']);
      break;
  }
}
