import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ContentDB } from './database-types';

/**
 * Nested-set operations on a structure. Every structure has one root row (no element, level 0)
 * whose lft/rgt enclose all its elements; `root` of every element row is that row's id.
 */
export async function createStructure(db: Kysely<ContentDB>, maxLevels: number | null): Promise<number> {
  const { id } = await db
    .insertInto('structures')
    .values({ uid: randomUUID(), maxLevels })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rootRow = await db
    .insertInto('structureelements')
    .values({ structureId: id, elementId: null, root: null, lft: 1, rgt: 2, level: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('structureelements').set({ root: rootRow.id }).where('id', '=', rootRow.id).execute();
  return id;
}

/** Appends the element as the last child of `parentElementId`, or of the structure root when null. */
export async function appendToStructure(
  db: Kysely<ContentDB>,
  structureId: number,
  elementId: number,
  parentElementId: number | null,
): Promise<void> {
  const parent =
    parentElementId === null
      ? await db
          .selectFrom('structureelements')
          .selectAll()
          .where('structureId', '=', structureId)
          .where('elementId', 'is', null)
          .executeTakeFirstOrThrow()
      : await db
          .selectFrom('structureelements')
          .selectAll()
          .where('structureId', '=', structureId)
          .where('elementId', '=', parentElementId)
          .executeTakeFirst();
  if (!parent) throw new Error(`Element ${parentElementId} is not in structure ${structureId}`);
  const structure = await db
    .selectFrom('structures')
    .select('maxLevels')
    .where('id', '=', structureId)
    .executeTakeFirstOrThrow();
  if (structure.maxLevels !== null && parent.level + 1 > structure.maxLevels) {
    throw new Error(`Structure ${structureId} allows at most ${structure.maxLevels} levels`);
  }
  const existing = await db
    .selectFrom('structureelements')
    .select('id')
    .where('structureId', '=', structureId)
    .where('elementId', '=', elementId)
    .executeTakeFirst();
  if (existing) await removeFromStructure(db, structureId, elementId);
  const fresh = await db
    .selectFrom('structureelements')
    .selectAll()
    .where('id', '=', parent.id)
    .executeTakeFirstOrThrow();
  const position = fresh.rgt;
  await db
    .updateTable('structureelements')
    .set((eb) => ({ rgt: eb('rgt', '+', 2) }))
    .where('structureId', '=', structureId)
    .where('rgt', '>=', position)
    .execute();
  await db
    .updateTable('structureelements')
    .set((eb) => ({ lft: eb('lft', '+', 2) }))
    .where('structureId', '=', structureId)
    .where('lft', '>', position)
    .execute();
  await db
    .insertInto('structureelements')
    .values({
      structureId,
      elementId,
      root: fresh.root,
      lft: position,
      rgt: position + 1,
      level: fresh.level + 1,
    })
    .execute();
}

/** Removes an element; its descendants move up one level into its place. */
export async function removeFromStructure(
  db: Kysely<ContentDB>,
  structureId: number,
  elementId: number,
): Promise<void> {
  const node = await db
    .selectFrom('structureelements')
    .selectAll()
    .where('structureId', '=', structureId)
    .where('elementId', '=', elementId)
    .executeTakeFirst();
  if (!node) return;
  await db.deleteFrom('structureelements').where('id', '=', node.id).execute();
  await db
    .updateTable('structureelements')
    .set((eb) => ({ lft: eb('lft', '-', 1), rgt: eb('rgt', '-', 1), level: eb('level', '-', 1) }))
    .where('structureId', '=', structureId)
    .where('lft', '>', node.lft)
    .where('rgt', '<', node.rgt)
    .execute();
  await db
    .updateTable('structureelements')
    .set((eb) => ({ rgt: eb('rgt', '-', 2) }))
    .where('structureId', '=', structureId)
    .where('rgt', '>', node.rgt)
    .execute();
  await db
    .updateTable('structureelements')
    .set((eb) => ({ lft: eb('lft', '-', 2) }))
    .where('structureId', '=', structureId)
    .where('lft', '>', node.rgt)
    .execute();
}
