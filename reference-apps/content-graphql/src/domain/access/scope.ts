import type { Catalog } from '../../storage/catalog';
import type { ElementScope } from '../../model/element-scope';

/**
 * Schema scopes are permission strings as the CMS stores them: `sections.<uid>:read`, `entrytypes.<uid>:read`,
 * `volumes.<uid>:read`, `globalsets.<uid>:read`, `categorygroups.<uid>:read`, `taggroups.<uid>:read`,
 * `usergroups.<uid>:read` and `usergroups.everyone:read` (every user). An entry type is readable when both
 * its section and the type itself are in the scope.
 */
export function resolveScope(scope: readonly string[], catalog: Catalog): ElementScope {
  const allowed = new Set(scope);
  const can = (kind: string, uid: string) => allowed.has(`${kind}.${uid}:read`);
  const entryTypeIds = new Set<number>();
  for (const section of catalog.sectionsById.values()) {
    if (!can('sections', section.uid)) continue;
    for (const type of section.entryTypes) if (can('entrytypes', type.uid)) entryTypeIds.add(type.id);
  }
  const pick = <T extends { id: number; uid: string }>(items: Iterable<T>, kind: string) =>
    new Set([...items].filter((i) => can(kind, i.uid)).map((i) => i.id));
  return {
    entryTypeIds,
    volumeIds: pick(catalog.volumesById.values(), 'volumes'),
    globalSetIds: pick(catalog.globalSetsById.values(), 'globalsets'),
    categoryGroupIds: pick(catalog.categoryGroupsById.values(), 'categorygroups'),
    tagGroupIds: pick(catalog.tagGroupsById.values(), 'taggroups'),
    userGroupIds: pick(catalog.userGroupsById.values(), 'usergroups'),
    allUsers: allowed.has('usergroups.everyone:read'),
  };
}

/**
 * Turns readable shorthand into stored permissions, for the CLI and the admin API:
 * `sections.news` (the section and all its entry types), `entrytypes.news.article`, `volumes.images`,
 * `globalsets.siteInfo`, `categorygroups.topics`, `taggroups.blogTags`, `usergroups.editors`, `usergroups.everyone`,
 * and `*` instead of a handle for all of a kind. Stored permissions (`...<uid>:read`) pass through unchanged.
 */
export function expandScope(items: readonly string[], catalog: Catalog): string[] {
  const result = new Set<string>();
  for (const raw of items) {
    const item = raw.trim();
    if (item.endsWith(':read')) {
      result.add(item);
      continue;
    }
    const [kind, ...rest] = item.split('.');
    const handle = rest.join('.');
    const matches = <T extends { handle: string }>(list: Iterable<T>) => {
      const found = [...list].filter((x) => handle === '*' || x.handle === handle);
      if (found.length === 0) throw new ScopeError(`Unknown ${kind} "${handle}" in scope "${item}"`);
      return found;
    };
    switch (kind) {
      case 'sections':
        for (const section of matches(catalog.sectionsById.values())) {
          result.add(`sections.${section.uid}:read`);
          for (const type of section.entryTypes) result.add(`entrytypes.${type.uid}:read`);
        }
        break;
      case 'entrytypes': {
        const [sectionHandle, typeHandle] = handle.split('.');
        const section = catalog.sectionsByHandle.get(sectionHandle ?? '');
        const type = section?.entryTypes.find((t) => t.handle === typeHandle);
        if (!section || !type)
          throw new ScopeError(`Unknown entry type "${handle}" in scope "${item}" (use entrytypes.<section>.<type>)`);
        result.add(`sections.${section.uid}:read`);
        result.add(`entrytypes.${type.uid}:read`);
        break;
      }
      case 'volumes':
        for (const v of matches(catalog.volumesById.values())) result.add(`volumes.${v.uid}:read`);
        break;
      case 'globalsets':
        for (const g of matches(catalog.globalSetsById.values())) result.add(`globalsets.${g.uid}:read`);
        break;
      case 'categorygroups':
        for (const g of matches(catalog.categoryGroupsById.values())) result.add(`categorygroups.${g.uid}:read`);
        break;
      case 'taggroups':
        for (const g of matches(catalog.tagGroupsById.values())) result.add(`taggroups.${g.uid}:read`);
        break;
      case 'usergroups':
        if (handle === 'everyone' || handle === '*') result.add('usergroups.everyone:read');
        if (handle !== 'everyone')
          for (const g of matches(catalog.userGroupsById.values())) result.add(`usergroups.${g.uid}:read`);
        break;
      default:
        throw new ScopeError(
          `Unknown scope "${item}": use sections, entrytypes, volumes, globalsets, categorygroups, taggroups or usergroups`,
        );
    }
  }
  return [...result].sort();
}

export class ScopeError extends Error {
  override readonly name = 'ScopeError';
}
