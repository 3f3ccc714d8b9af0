import { sql, type SqlBool } from 'kysely';
import type { Catalog } from '../catalog';
import type { ElementKind } from '../database-types';
import type { ElementScope } from '../../model/element-scope';
import { QueryArgumentError, quoteValue } from '../../model/query-argument-error';
import { matchesNumberParam, matchesStringParam, paramCondition, parseDateArgument } from './param-parser';
import type { ElementArgs, EB, PlanState } from './plan-state';

type KindFilter = (state: PlanState, args: ElementArgs, scope: ElementScope, catalog: Catalog) => void;

/** Entries: their table, section and structure joins, entry types the scope reads, author and date arguments. */
const entryFilters: KindFilter = (state, args, scope, catalog) => {
  state.query = state.query
    .innerJoin('entries as en', 'en.id', 'e.id')
    .innerJoin('sections as sec', 'sec.id', 'en.sectionId')
    .leftJoin('structureelements as se', (join: any) =>
      join.onRef('se.elementId', '=', 'e.id').onRef('se.structureId', '=', 'sec.structureId'),
    )
    .select(['en.sectionId', 'en.typeId', 'en.postDate']);
  if (state.columns === 'all') state.query = state.query.select(['en.authorId', 'en.expiryDate']);
  const allowedTypes = [...(scope.entryTypeIds ?? [])].filter((id) => {
    const type = catalog.entryTypesById.get(id);
    if (!type) return false;
    const section = catalog.sectionsById.get(type.sectionId)!;
    return (
      matchesStringParam(args.section, section.handle) &&
      matchesNumberParam(args.sectionId, section.id, 'sectionId') &&
      matchesStringParam(args.type, type.handle) &&
      matchesNumberParam(args.typeId, type.id, 'typeId')
    );
  });
  if (allowedTypes.length === 0) state.empty = true;
  else state.query = state.query.where('en.typeId', 'in', allowedTypes);
  state.conditions.push((eb) => paramCondition(eb, 'en.authorId', args.authorId, 'number', 'authorId'));
  if (
    (args.authorGroup !== undefined && args.authorGroup !== null) ||
    (args.authorGroupId !== undefined && args.authorGroupId !== null)
  ) {
    const groupIds = [...catalog.userGroupsById.values()]
      .filter(
        (g) =>
          matchesStringParam(args.authorGroup, g.handle) &&
          matchesNumberParam(args.authorGroupId, g.id, 'authorGroupId'),
      )
      .map((g) => g.id);
    if (groupIds.length === 0) state.empty = true;
    else
      state.conditions.push((eb) =>
        eb('en.authorId', 'in', eb.selectFrom('usergroups_users').select('userId').where('groupId', 'in', groupIds)),
      );
  }
  state.conditions.push((eb) => paramCondition(eb, 'en.postDate', args.postDate, 'date', 'postDate'));
  state.conditions.push((eb) => paramCondition(eb, 'en.expiryDate', args.expiryDate, 'date', 'expiryDate'));
  if (typeof args.before === 'string') {
    const d = parseDateArgument(args.before, 'before');
    state.conditions.push((eb) => eb('en.postDate', '<', d));
  }
  if (typeof args.after === 'string') {
    const d = parseDateArgument(args.after, 'after');
    state.conditions.push((eb) => eb('en.postDate', '>=', d));
  }
};

/** Categories: their group and structure joins, groups the scope reads. */
const categoryFilters: KindFilter = (state, args, scope, catalog) => {
  state.query = state.query
    .innerJoin('categories as c', 'c.id', 'e.id')
    .innerJoin('categorygroups as cg', 'cg.id', 'c.groupId')
    .leftJoin('structureelements as se', (join: any) =>
      join.onRef('se.elementId', '=', 'e.id').onRef('se.structureId', '=', 'cg.structureId'),
    )
    .select(['c.groupId']);
  const groups = [...(scope.categoryGroupIds ?? [])]
    .map((id) => catalog.categoryGroupsById.get(id))
    .filter((g) => g && matchesStringParam(args.group, g.handle) && matchesNumberParam(args.groupId, g.id, 'groupId'));
  if (groups.length === 0) state.empty = true;
  else
    state.query = state.query.where(
      'c.groupId',
      'in',
      groups.map((g) => g!.id),
    );
};

/** Assets: their table and folder, volumes the scope reads, folder, file and size arguments. */
const assetFilters: KindFilter = (state, args, scope, catalog) => {
  state.query = state.query
    .innerJoin('assets as a', 'a.id', 'e.id')
    .innerJoin('volumefolders as vf', 'vf.id', 'a.folderId')
    .select(['a.volumeId', 'a.folderId', 'vf.path as folderPath', 'a.filename', 'a.width', 'a.height', 'a.focalPoint']);
  if (state.columns === 'all') state.query = state.query.select(['a.kind as kindOfFile', 'a.size', 'a.dateModified']);
  const volumes = [...(scope.volumeIds ?? [])]
    .map((id) => catalog.volumesById.get(id))
    .filter(
      (v) => v && matchesStringParam(args.volume, v.handle) && matchesNumberParam(args.volumeId, v.id, 'volumeId'),
    );
  if (volumes.length === 0) state.empty = true;
  else
    state.query = state.query.where(
      'a.volumeId',
      'in',
      volumes.map((v) => v!.id),
    );
  if (args.folderId !== undefined && args.folderId !== null) {
    if (args.includeSubfolders === true) {
      state.conditions.push((eb) =>
        eb.exists(
          eb
            .selectFrom('volumefolders as top')
            .select(sql`1`.as('one'))
            .where((inner: EB) => paramCondition(inner, 'top.id', args.folderId, 'number', 'folderId')!)
            .whereRef('top.volumeId', '=', 'vf.volumeId')
            .where(sql<SqlBool>`vf.path like top.path || '%'`),
        ),
      );
    } else {
      state.conditions.push((eb) => paramCondition(eb, 'a.folderId', args.folderId, 'number', 'folderId'));
    }
  }
  state.conditions.push((eb) => paramCondition(eb, 'a.filename', args.filename, 'string', 'filename'));
  state.conditions.push((eb) => paramCondition(eb, 'a.kind', args.kind, 'string', 'kind'));
  state.conditions.push((eb) => paramCondition(eb, 'a.width', args.width, 'number', 'width'));
  state.conditions.push((eb) => paramCondition(eb, 'a.height', args.height, 'number', 'height'));
  state.conditions.push((eb) => paramCondition(eb, 'a.size', args.size, 'number', 'size'));
  state.conditions.push((eb) => paramCondition(eb, 'a.dateModified', args.dateModified, 'date', 'dateModified'));
  if (Array.isArray(args.withTransforms)) {
    for (const handle of args.withTransforms) {
      if (typeof handle === 'string' && !catalog.transformsByHandle.has(handle))
        throw new QueryArgumentError(`Unknown transform handle ${quoteValue(handle)} in withTransforms`);
    }
  }
};

/** Users: their table, groups the scope reads, name and group arguments. */
const userFilters: KindFilter = (state, args, scope, catalog) => {
  state.query = state.query
    .innerJoin('users as u', 'u.id', 'e.id')
    .select([
      'u.username',
      'u.firstName',
      'u.lastName',
      'u.email',
      'u.photoId',
      'u.preferredLanguage',
      'u.preferences',
    ]);
  if (!scope.allUsers) {
    const allowed = [...(scope.userGroupIds ?? [])];
    if (allowed.length === 0) state.empty = true;
    else
      state.conditions.push((eb) =>
        eb('e.id', 'in', eb.selectFrom('usergroups_users').select('userId').where('groupId', 'in', allowed)),
      );
  }
  for (const [arg, column] of [
    ['email', 'u.email'],
    ['username', 'u.username'],
    ['firstName', 'u.firstName'],
    ['lastName', 'u.lastName'],
  ] as const) {
    state.conditions.push((eb) => paramCondition(eb, column, args[arg], 'string', arg));
  }
  const groupParam = args.group ?? null;
  if (groupParam !== null || (args.groupId !== undefined && args.groupId !== null)) {
    const groupIds = [...catalog.userGroupsById.values()]
      .filter((g) => {
        if (groupParam !== null) {
          const items = Array.isArray(groupParam) ? groupParam : [groupParam];
          const byId = items.every((v) => typeof v === 'number' || /^\d+$/.test(String(v)));
          if (byId ? !matchesNumberParam(groupParam, g.id, 'group') : !matchesStringParam(groupParam, g.handle))
            return false;
        }
        return matchesNumberParam(args.groupId, g.id, 'groupId');
      })
      .map((g) => g.id);
    if (groupIds.length === 0) state.empty = true;
    else
      state.conditions.push((eb) =>
        eb('e.id', 'in', eb.selectFrom('usergroups_users').select('userId').where('groupId', 'in', groupIds)),
      );
  }
};

/** Tags: their groups the scope reads. */
const tagFilters: KindFilter = (state, args, scope, catalog) => {
  state.query = state.query.innerJoin('tags as t', 't.id', 'e.id').select(['t.groupId']);
  const groups = [...(scope.tagGroupIds ?? [])]
    .map((id) => catalog.tagGroupsById.get(id))
    .filter((g) => g && matchesStringParam(args.group, g.handle) && matchesNumberParam(args.groupId, g.id, 'groupId'));
  if (groups.length === 0) state.empty = true;
  else
    state.query = state.query.where(
      't.groupId',
      'in',
      groups.map((g) => g!.id),
    );
};

/** Global sets the scope reads, by handle. */
const globalSetFilters: KindFilter = (state, args, scope, catalog) => {
  state.query = state.query.innerJoin('globalsets as g', 'g.id', 'e.id').select(['g.name', 'g.handle']);
  const sets = [...(scope.globalSetIds ?? [])]
    .map((id) => catalog.globalSetsById.get(id))
    .filter((s) => s && matchesStringParam(args.handle, s.handle));
  if (sets.length === 0) state.empty = true;
  else
    state.query = state.query.where(
      'g.id',
      'in',
      sets.map((s) => s!.id),
    );
};

/** Matrix blocks: their table and block type arguments (their owner decides what is readable). */
const matrixBlockFilters: KindFilter = (state, args, _scope, catalog) => {
  state.query = state.query
    .innerJoin('matrixblocks as mb', 'mb.id', 'e.id')
    .select(['mb.ownerId', 'mb.fieldId', 'mb.typeId', 'mb.sortOrder']);
  state.conditions.push((eb) => paramCondition(eb, 'mb.typeId', args.typeId, 'number', 'typeId'));
  if (args.type !== undefined && args.type !== null) {
    const typeIds = [...catalog.blockTypesById.values()]
      .filter((b) => matchesStringParam(args.type, b.handle))
      .map((b) => b.id);
    if (typeIds.length === 0) state.empty = true;
    else state.query = state.query.where('mb.typeId', 'in', typeIds);
  }
};

/** The joins, scope and kind-specific arguments of each element kind. */
const KIND_FILTERS: Record<ElementKind, KindFilter> = {
  entry: entryFilters,
  category: categoryFilters,
  asset: assetFilters,
  user: userFilters,
  tag: tagFilters,
  globalset: globalSetFilters,
  matrixblock: matrixBlockFilters,
};

export function applyKindFilters(
  state: PlanState,
  kind: ElementKind,
  args: ElementArgs,
  scope: ElementScope,
  catalog: Catalog,
): void {
  KIND_FILTERS[kind](state, args, scope, catalog);
}
