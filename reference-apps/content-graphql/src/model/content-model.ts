import type { FieldKind, SectionType } from './kinds';

/** Definitions used to create the content model (the structure), by handle. */
export interface FieldDefinition {
  handle: string;
  name: string;
  type: FieldKind;
  searchable?: boolean;
  settings?: Record<string, unknown>;
  /** Matrix fields only: the block types and their own fields. */
  blockTypes?: Array<{ handle: string; name: string; fields: FieldDefinition[] }>;
}

export interface SiteDefinition {
  handle: string;
  name: string;
  language: string;
  baseUrl: string;
  primary?: boolean;
}

export interface SectionDefinition {
  handle: string;
  name: string;
  type: SectionType;
  maxLevels?: number | null;
  /** Site handle -> URI format (`news/{slug}`, `{parent.uri}/{slug}`); sites not listed do not carry the section. */
  siteSettings: Record<string, { uriFormat: string | null }>;
  entryTypes: Array<{ handle: string; name: string; fields: string[] }>;
}

/** Values of one element. Custom field values are keyed by field handle. */
export interface ElementInput {
  uid?: string;
  title?: string | null;
  slug?: string | null;
  enabled?: boolean;
  archived?: boolean;
  dateCreated?: string;
  dateUpdated?: string;
  fields?: Record<string, unknown>;
  /** Per-site overrides, by site handle. */
  sites?: Record<string, { title?: string; slug?: string; enabled?: boolean; fields?: Record<string, unknown> }>;
}

export interface EntryInput extends ElementInput {
  section: string;
  type?: string;
  authorId?: number | null;
  postDate?: string | null;
  expiryDate?: string | null;
  /** Structure sections: the parent entry id; omitted = top level. */
  parentId?: number | null;
}

export interface AssetInput extends ElementInput {
  volume: string;
  /** Folder path inside the volume, e.g. `photos/2020/`; `''` = root. */
  folder?: string;
  filename: string;
  data: Buffer;
  focalPoint?: { x: number; y: number } | null;
  uploaderId?: number | null;
}

export interface UserInput extends ElementInput {
  username: string;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  photoId?: number | null;
  preferredLanguage?: string | null;
  preferences?: Record<string, unknown>;
  groups?: string[];
}

export interface CategoryInput extends ElementInput {
  group: string;
  parentId?: number | null;
}

export interface TagInput extends ElementInput {
  group: string;
}

export interface GlobalSetInput extends ElementInput {
  handle: string;
  name: string;
}

/** A matrix field's stored value: blocks in order. */
export interface MatrixBlockInput {
  type: string;
  enabled?: boolean;
  fields: Record<string, unknown>;
}

export const RELATION_FIELD_KINDS: ReadonlySet<FieldKind> = new Set([
  'Entries',
  'Assets',
  'Categories',
  'Tags',
  'Users',
]);
