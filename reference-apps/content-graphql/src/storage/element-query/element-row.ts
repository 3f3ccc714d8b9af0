import type { ElementKind } from '../database-types';

/** One element in one site, as element queries return it (common columns plus those of its kind). */
export interface ElementRow {
  kind: ElementKind;
  id: number;
  uid: string;
  enabled: boolean;
  archived: boolean;
  trashed: boolean;
  dateCreated: string;
  dateUpdated: string;
  siteId: number;
  title: string | null;
  slug: string | null;
  uri: string | null;
  enabledForSite: boolean;
  content: Record<string, unknown>;
  searchScore: number | null;
  /** For batched queries: the id of the element this row was loaded for (relation source, parent, owner...). */
  batchKey?: number;
  // structure
  structureId: number | null;
  lft: number | null;
  rgt: number | null;
  level: number | null;
  root: number | null;
  // entries
  sectionId?: number;
  typeId?: number;
  authorId?: number | null;
  postDate?: string | null;
  expiryDate?: string | null;
  // assets
  volumeId?: number;
  folderId?: number;
  folderPath?: string;
  filename?: string;
  kindOfFile?: string;
  width?: number | null;
  height?: number | null;
  size?: number;
  focalPoint?: string | null;
  dateModified?: string;
  // users
  username?: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string;
  photoId?: number | null;
  preferredLanguage?: string | null;
  preferences?: string;
  // tags, categories
  groupId?: number;
  // global sets
  name?: string;
  handle?: string;
  // matrix blocks
  ownerId?: number;
  fieldId?: number;
  sortOrder?: number;
}

type RawRow = Record<string, unknown>;

const numberOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/**
 * An element row built from a database row with every property assigned in one order, so that all rows share one
 * shape: spreading the driver's row object instead (a dictionary-mode object) cost about 20 µs a row, a third of
 * an uncached GraphQL request. The field values (`content`, JSON text) are parsed when first read: most rows of a
 * query never need them.
 */
class StoredElementRow implements ElementRow {
  kind: ElementKind;
  id: number;
  uid: string;
  enabled: boolean;
  archived: boolean;
  trashed: boolean;
  dateCreated: string;
  dateUpdated: string;
  siteId: number;
  title: string | null;
  slug: string | null;
  uri: string | null;
  enabledForSite: boolean;
  searchScore: number | null = null;
  batchKey: number | undefined;
  structureId: number | null;
  lft: number | null;
  rgt: number | null;
  level: number | null;
  root: number | null;
  sectionId: number | undefined;
  typeId: number | undefined;
  authorId: number | null | undefined;
  postDate: string | null | undefined;
  expiryDate: string | null | undefined;
  volumeId: number | undefined;
  folderId: number | undefined;
  folderPath: string | undefined;
  filename: string | undefined;
  kindOfFile: string | undefined;
  width: number | null | undefined;
  height: number | null | undefined;
  size: number | undefined;
  focalPoint: string | null | undefined;
  dateModified: string | undefined;
  username: string | undefined;
  firstName: string | null | undefined;
  lastName: string | null | undefined;
  email: string | undefined;
  photoId: number | null | undefined;
  preferredLanguage: string | null | undefined;
  preferences: string | undefined;
  groupId: number | undefined;
  name: string | undefined;
  handle: string | undefined;
  ownerId: number | undefined;
  fieldId: number | undefined;
  sortOrder: number | undefined;
  private readonly contentText: string;
  private parsedContent: Record<string, unknown> | undefined = undefined;

  constructor(kind: ElementKind, raw: RawRow) {
    this.kind = kind;
    this.id = Number(raw.id);
    this.uid = String(raw.uid);
    this.enabled = Number(raw.enabled) === 1;
    this.archived = Number(raw.archived) === 1;
    this.trashed = raw.dateDeleted !== null && raw.dateDeleted !== undefined;
    this.dateCreated = String(raw.dateCreated);
    this.dateUpdated = String(raw.dateUpdated);
    this.siteId = Number(raw.siteId);
    this.title = (raw.title as string | null) ?? null;
    this.slug = (raw.slug as string | null) ?? null;
    this.uri = (raw.uri as string | null) ?? null;
    this.enabledForSite = Number(raw.enabledForSite) === 1;
    this.contentText = String(raw.content ?? '{}');
    this.batchKey = raw.batchKey === undefined ? undefined : Number(raw.batchKey);
    this.structureId = numberOrNull(raw.structureId);
    this.lft = numberOrNull(raw.lft);
    this.rgt = numberOrNull(raw.rgt);
    this.level = numberOrNull(raw.level);
    this.root = numberOrNull(raw.root);
    // Kind-specific columns, as the driver gives them (absent ones stay undefined).
    this.sectionId = raw.sectionId as number | undefined;
    this.typeId = raw.typeId as number | undefined;
    this.authorId = raw.authorId as number | null | undefined;
    this.postDate = raw.postDate as string | null | undefined;
    this.expiryDate = raw.expiryDate as string | null | undefined;
    this.volumeId = raw.volumeId as number | undefined;
    this.folderId = raw.folderId as number | undefined;
    this.folderPath = raw.folderPath as string | undefined;
    this.filename = raw.filename as string | undefined;
    this.kindOfFile = raw.kindOfFile as string | undefined;
    this.width = raw.width as number | null | undefined;
    this.height = raw.height as number | null | undefined;
    this.size = raw.size === undefined ? undefined : Number(raw.size);
    this.focalPoint = raw.focalPoint as string | null | undefined;
    this.dateModified = raw.dateModified as string | undefined;
    this.username = raw.username as string | undefined;
    this.firstName = raw.firstName as string | null | undefined;
    this.lastName = raw.lastName as string | null | undefined;
    this.email = raw.email as string | undefined;
    this.photoId = raw.photoId as number | null | undefined;
    this.preferredLanguage = raw.preferredLanguage as string | null | undefined;
    this.preferences = raw.preferences as string | undefined;
    this.groupId = raw.groupId as number | undefined;
    this.name = raw.name as string | undefined;
    this.handle = raw.handle as string | undefined;
    this.ownerId = raw.ownerId as number | undefined;
    this.fieldId = raw.fieldId as number | undefined;
    this.sortOrder = raw.sortOrder as number | undefined;
  }

  get content(): Record<string, unknown> {
    return (this.parsedContent ??= JSON.parse(this.contentText) as Record<string, unknown>);
  }
}

/** The element row of one database row of an element query. */
export function toElementRow(kind: ElementKind, raw: RawRow): ElementRow {
  return new StoredElementRow(kind, raw);
}
