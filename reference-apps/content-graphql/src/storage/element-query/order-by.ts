import type { ElementKind } from '../database-types';
import { QueryArgumentError, quoteValue } from '../../model/query-argument-error';
import { MAX_ORDER_TERMS } from './argument-limits';

export interface OrderTerm {
  column: string;
  direction: 'asc' | 'desc';
}

const COMMON: Record<string, string> = {
  id: 'e.id',
  uid: 'e.uid',
  dateCreated: 'e.dateCreated',
  dateUpdated: 'e.dateUpdated',
  title: 'es.title',
  slug: 'es.slug',
  uri: 'es.uri',
  enabled: 'e.enabled',
  archived: 'e.archived',
  score: 'score',
};
const STRUCTURE: Record<string, string> = {
  lft: 'se.lft',
  rgt: 'se.rgt',
  level: 'se.level',
  root: 'se.root',
  structure: 'se.lft',
};
const BY_KIND: Partial<Record<ElementKind, Record<string, string>>> = {
  entry: {
    ...STRUCTURE,
    postDate: 'en.postDate',
    expiryDate: 'en.expiryDate',
    sectionId: 'en.sectionId',
    typeId: 'en.typeId',
    authorId: 'en.authorId',
  },
  category: { ...STRUCTURE, groupId: 'c.groupId' },
  asset: {
    filename: 'a.filename',
    kind: 'a.kind',
    size: 'a.size',
    width: 'a.width',
    height: 'a.height',
    dateModified: 'a.dateModified',
    volumeId: 'a.volumeId',
    folderId: 'a.folderId',
  },
  user: { username: 'u.username', email: 'u.email', firstName: 'u.firstName', lastName: 'u.lastName' },
  tag: { groupId: 't.groupId' },
  globalset: { name: 'g.name', handle: 'g.handle' },
  matrixblock: { sortOrder: 'mb.sortOrder' },
};

/**
 * Reads `"postDate DESC, title"`. Column names may carry the CMS's table prefixes (`entries.postDate`,
 * `elements.dateCreated`, `content.title`); only known columns are accepted, so nothing reaches SQL unchecked.
 */
export function parseOrderBy(text: string, kind: ElementKind): OrderTerm[] {
  const columns = { ...COMMON, ...(BY_KIND[kind] ?? {}) };
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length > MAX_ORDER_TERMS)
    throw new QueryArgumentError(`Invalid orderBy: ${parts.length} columns; at most ${MAX_ORDER_TERMS} are accepted`);
  return parts.map((part) => {
    const match = /^([A-Za-z_][\w.]*)(?:\s+(asc|desc))?$/i.exec(part);
    if (!match)
      throw new QueryArgumentError(
        `Invalid orderBy ${quoteValue(part)}: use a column name, optionally followed by ASC or DESC`,
      );
    const name = match[1]!.split('.').pop()!;
    const column = columns[name];
    if (!column)
      throw new QueryArgumentError(
        `Invalid orderBy column ${quoteValue(match[1])}: use one of ${Object.keys(columns).join(', ')}`,
      );
    return { column, direction: (match[2]?.toLowerCase() ?? 'asc') as 'asc' | 'desc' };
  });
}
