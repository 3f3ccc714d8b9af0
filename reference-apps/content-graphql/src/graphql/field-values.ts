import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import type { Catalog, CatalogField } from '../storage/catalog';
import type { ElementKind, FieldKind } from '../model/kinds';
import type { ElementRow } from '../storage/element-query/element-row';
import { readableKinds, type ReadableKind } from '../model/element-scope';
import { isTransformable } from '../model/file-kinds';
import { normalizeTransform, type ImageTransform, type TransformArguments } from '../domain/assets/image-transforms';
import { QueryArgumentError } from '../model/query-argument-error';
import { TransformDirective } from './directives/directives';
import { directiveArguments, usesVariables } from './directives/directive-arguments';
import type { RequestContext } from './request-context';

/** Relation field types and the element kind each one holds. */
export const RELATION_KINDS: Partial<Record<FieldKind, ElementKind>> = {
  Entries: 'entry',
  Assets: 'asset',
  Categories: 'category',
  Tags: 'tag',
  Users: 'user',
};

// What element fields resolve to beyond their columns: concrete type names, status, names, relation counts, URLs.

/** The concrete GraphQL type of an element row. */
export function concreteTypeName(row: ElementRow, catalog: Catalog): string {
  switch (row.kind) {
    case 'entry': {
      const type = catalog.entryTypesById.get(row.typeId!)!;
      return `${catalog.sectionsById.get(type.sectionId)!.handle}_${type.handle}_Entry`;
    }
    case 'asset':
      return `${catalog.volumesById.get(row.volumeId!)!.handle}_Asset`;
    case 'category':
      return `${catalog.categoryGroupsById.get(row.groupId!)!.handle}_Category`;
    case 'tag':
      return `${catalog.tagGroupsById.get(row.groupId!)!.handle}_Tag`;
    case 'globalset':
      return `${row.handle}_GlobalSet`;
    case 'user':
      return 'User';
    case 'matrixblock': {
      const blockType = catalog.blockTypesById.get(row.typeId!)!;
      return `${catalog.fieldsById.get(blockType.fieldId)!.handle}_${blockType.handle}_BlockType`;
    }
  }
}

export function elementStatus(row: ElementRow, now = new Date()): string {
  const on = row.enabled && row.enabledForSite;
  switch (row.kind) {
    case 'entry': {
      if (!on) return 'disabled';
      const nowText = now.toISOString();
      if (row.postDate && row.postDate > nowText) return 'pending';
      if (row.expiryDate && row.expiryDate <= nowText) return 'expired';
      return 'live';
    }
    case 'user':
      return row.enabled ? 'active' : 'suspended';
    default:
      return on ? 'enabled' : 'disabled';
  }
}

export function fullName(row: ElementRow): string | null {
  const name = [row.firstName, row.lastName].filter(Boolean).join(' ').trim();
  return name || null;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export async function countRelated(row: ElementRow, handle: string, ctx: RequestContext): Promise<number> {
  const layout = layoutOf(row, ctx.catalog);
  const field = layout.find((f) => f.handle === handle);
  if (!field) throw new QueryArgumentError(`The element has no field "${handle}" to count relations of`);
  if (field.type === 'Matrix') return (await ctx.blocks(row.id, field.id, row.siteId, { status: ['enabled'] })).length;
  const kind = RELATION_KINDS[field.type];
  if (!kind) throw new QueryArgumentError(`Field "${handle}" does not hold relations`);
  // A relation field to a kind the schema cannot read is not in the schema: counting it must not reveal it either.
  if (!readableKinds(ctx.scope)[kind as ReadableKind])
    throw new QueryArgumentError(`The element has no field "${handle}" to count relations of`);
  return (await ctx.related(kind, row.id, field.id, row.siteId, {})).length;
}

function layoutOf(row: ElementRow, catalog: Catalog): CatalogField[] {
  switch (row.kind) {
    case 'entry':
      return catalog.entryTypesById.get(row.typeId!)?.fields ?? [];
    case 'asset':
      return catalog.volumesById.get(row.volumeId!)?.fields ?? [];
    case 'category':
      return catalog.categoryGroupsById.get(row.groupId!)?.fields ?? [];
    case 'tag':
      return catalog.tagGroupsById.get(row.groupId!)?.fields ?? [];
    case 'globalset':
      return catalog.globalSetsById.get(row.id)?.fields ?? [];
    case 'user':
      return catalog.userFields;
    case 'matrixblock':
      return catalog.blockTypesById.get(row.typeId!)?.fields ?? [];
  }
}

/** An ad-hoc transform written without variables (in the field's arguments and its `@transform`), by field node. */
const knownTransforms = new WeakMap<FieldNode, { transform: ImageTransform | null; immediately: boolean }>();

/** The transform an asset `url` field asks for, from its arguments and its `@transform` directive (the directive's win). */
function transformOf(
  args: TransformArguments,
  ctx: RequestContext,
  info: GraphQLResolveInfo,
): { transform: ImageTransform | null; immediately: boolean } {
  const node = info.fieldNodes[0]!;
  const known = knownTransforms.get(node);
  if (known) return known;
  const directive = node.directives?.find((d) => d.name.value === 'transform');
  const directiveArgs = directive
    ? (directiveArguments(TransformDirective, directive, info.variableValues) as TransformArguments)
    : {};
  const merged: TransformArguments = {
    ...args,
    ...Object.fromEntries(Object.entries(directiveArgs).filter(([, v]) => v !== undefined)),
  };
  const wanted = { transform: normalizeTransform(merged, ctx.catalog), immediately: merged.immediately === true };
  // Named transforms are looked up in the catalog, which changes with the structure: only ad-hoc ones are kept.
  const named = (merged.handle ?? merged.transform ?? null) !== null;
  if (!named && !usesVariables(node.arguments) && !usesVariables(directive?.arguments))
    knownTransforms.set(node, wanted);
  return wanted;
}

/** Asset `url`: plain, or a transform from the field's arguments or the `@transform` directive (generated now with `immediately: true`). */
export async function assetUrl(
  row: ElementRow,
  args: TransformArguments,
  ctx: RequestContext,
  info: GraphQLResolveInfo,
): Promise<string | null> {
  const { transform, immediately } = transformOf(args, ctx, info);
  if (!transform || !isTransformable(row.filename!)) return ctx.urls.assetUrl(row, null);
  if (immediately) {
    const volume = ctx.catalog.volumesById.get(row.volumeId!)!;
    const file = {
      id: row.id,
      filename: row.filename!,
      folderPath: row.folderPath ?? '',
      width: row.width ?? null,
      height: row.height ?? null,
      focalPoint: row.focalPoint ?? null,
    };
    if (!ctx.transformer.isKnown(volume, file, transform)) await ctx.transformer.ensure(volume, file, transform);
  }
  return ctx.urls.assetUrl(row, transform);
}
