import type { ElementKind } from '../storage/database-types';

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
