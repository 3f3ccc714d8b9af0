import type { ElementKind, FieldKind, SectionType } from '../model/kinds';

export type { ElementKind, FieldKind, SectionType };
import type { Generated } from 'kysely';

/**
 * The content database, as Kysely sees it. The same tables exist on SQLite and PostgreSQL:
 * booleans are stored as 0/1 integers and dates as fixed-width ISO-8601 UTC strings
 * (`2019-08-21T13:05:00.000Z`), so comparisons and ordering are identical on both dialects.
 */
export interface ContentDB {
  sites: SitesTable;
  fieldlayouts: FieldLayoutsTable;
  fields: FieldsTable;
  fieldlayoutfields: FieldLayoutFieldsTable;
  structures: StructuresTable;
  structureelements: StructureElementsTable;
  sections: SectionsTable;
  sections_sites: SectionsSitesTable;
  entrytypes: EntryTypesTable;
  elements: ElementsTable;
  elements_sites: ElementsSitesTable;
  entries: EntriesTable;
  volumes: VolumesTable;
  volumefolders: VolumeFoldersTable;
  assets: AssetsTable;
  assettransforms: AssetTransformsTable;
  assettransformindex: AssetTransformIndexTable;
  globalsets: GlobalSetsTable;
  usergroups: UserGroupsTable;
  usergroups_users: UserGroupsUsersTable;
  users: UsersTable;
  taggroups: TagGroupsTable;
  tags: TagsTable;
  categorygroups: CategoryGroupsTable;
  categories: CategoriesTable;
  matrixblocktypes: MatrixBlockTypesTable;
  matrixblocks: MatrixBlocksTable;
  relations: RelationsTable;
  searchindex: SearchIndexTable;
  gqlschemas: GqlSchemasTable;
  gqltokens: GqlTokensTable;
  info: InfoTable;
}

export type Flag = 0 | 1;

export interface SitesTable {
  id: Generated<number>;
  uid: string;
  handle: string;
  name: string;
  language: string;
  primary: Flag;
  baseUrl: string;
}

export interface FieldLayoutsTable {
  id: Generated<number>;
  /** What the layout belongs to: `entrytype`, `volume`, `globalset`, `taggroup`, `categorygroup`, `matrixblocktype`, `users`. */
  type: string;
}

export interface FieldsTable {
  id: Generated<number>;
  uid: string;
  handle: string;
  name: string;
  type: FieldKind;
  /** `global`, or `matrixBlockType:<uid>` for the fields of a matrix block type. */
  context: string;
  /** Whether the field's values go into the search index. */
  searchable: Flag;
  /** JSON: kind-specific settings (`{ decimals }`, `{ limit }`...). */
  settings: string;
}

export interface FieldLayoutFieldsTable {
  layoutId: number;
  fieldId: number;
  required: Flag;
  sortOrder: number;
}

export interface StructuresTable {
  id: Generated<number>;
  uid: string;
  maxLevels: number | null;
}

/** Nested-set rows. Each structure has one root row (elementId null, level 0) that holds every element row. */
export interface StructureElementsTable {
  id: Generated<number>;
  structureId: number;
  elementId: number | null;
  root: number | null;
  lft: number;
  rgt: number;
  level: number;
}

export interface SectionsTable {
  id: Generated<number>;
  uid: string;
  handle: string;
  name: string;
  type: SectionType;
  structureId: number | null;
}

export interface SectionsSitesTable {
  sectionId: number;
  siteId: number;
  hasUrls: Flag;
  /** e.g. `news/{slug}`; `{parent.uri}` is understood for structures. */
  uriFormat: string | null;
}

export interface EntryTypesTable {
  id: Generated<number>;
  uid: string;
  sectionId: number;
  handle: string;
  name: string;
  fieldLayoutId: number;
  sortOrder: number;
}

export interface ElementsTable {
  id: Generated<number>;
  uid: string;
  type: ElementKind;
  enabled: Flag;
  archived: Flag;
  dateCreated: string;
  dateUpdated: string;
  /** Set when soft-deleted (trashed). */
  dateDeleted: string | null;
}

export interface ElementsSitesTable {
  id: Generated<number>;
  elementId: number;
  siteId: number;
  title: string | null;
  slug: string | null;
  uri: string | null;
  enabled: Flag;
  /** JSON object: custom field handle -> stored value (relations and matrix blocks live in their own tables). */
  content: string;
}

export interface EntriesTable {
  id: number;
  sectionId: number;
  typeId: number;
  authorId: number | null;
  postDate: string | null;
  expiryDate: string | null;
}

export interface VolumesTable {
  id: Generated<number>;
  uid: string;
  handle: string;
  name: string;
  fieldLayoutId: number;
  /** Folder on disk, relative to the assets root directory. */
  path: string;
  /** Public URL prefix of the files, e.g. `/assets/images`. */
  url: string;
  sortOrder: number;
}

export interface VolumeFoldersTable {
  id: Generated<number>;
  uid: string;
  parentId: number | null;
  volumeId: number;
  name: string;
  /** Path inside the volume with a trailing slash, `''` for the volume's root folder. */
  path: string;
}

export interface AssetsTable {
  id: number;
  volumeId: number;
  folderId: number;
  uploaderId: number | null;
  filename: string;
  kind: string;
  width: number | null;
  height: number | null;
  size: number;
  /** `x;y` between 0 and 1, or null when the user set none. */
  focalPoint: string | null;
  dateModified: string;
}

export interface AssetTransformsTable {
  id: Generated<number>;
  uid: string;
  handle: string;
  name: string;
  mode: string;
  position: string;
  width: number | null;
  height: number | null;
  format: string | null;
  quality: number | null;
  interlace: string;
}

export interface AssetTransformIndexTable {
  id: Generated<number>;
  assetId: number;
  /** The transform folder name, e.g. `_300xAUTO_crop_center-center_none`. */
  location: string;
  filename: string;
  /** JSON of the normalized transform that produced it. */
  transform: string;
  fileExists: Flag;
  dateIndexed: string;
}

export interface GlobalSetsTable {
  id: number;
  name: string;
  handle: string;
  fieldLayoutId: number;
  sortOrder: number;
}

export interface UserGroupsTable {
  id: Generated<number>;
  uid: string;
  handle: string;
  name: string;
}

export interface UserGroupsUsersTable {
  groupId: number;
  userId: number;
}

export interface UsersTable {
  id: number;
  username: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  photoId: number | null;
  preferredLanguage: string | null;
  /** JSON object. */
  preferences: string;
}

export interface TagGroupsTable {
  id: Generated<number>;
  uid: string;
  handle: string;
  name: string;
  fieldLayoutId: number;
}

export interface TagsTable {
  id: number;
  groupId: number;
}

export interface CategoryGroupsTable {
  id: Generated<number>;
  uid: string;
  handle: string;
  name: string;
  structureId: number;
  fieldLayoutId: number;
  uriFormat: string | null;
}

export interface CategoriesTable {
  id: number;
  groupId: number;
}

export interface MatrixBlockTypesTable {
  id: Generated<number>;
  uid: string;
  fieldId: number;
  handle: string;
  name: string;
  fieldLayoutId: number;
  sortOrder: number;
}

export interface MatrixBlocksTable {
  id: number;
  ownerId: number;
  fieldId: number;
  typeId: number;
  sortOrder: number;
}

export interface RelationsTable {
  id: Generated<number>;
  fieldId: number;
  sourceId: number;
  sourceSiteId: number | null;
  targetId: number;
  sortOrder: number;
}

/** One row per searchable attribute or field of an element in a site; keywords are normalized and space-padded. */
export interface SearchIndexTable {
  elementId: number;
  attribute: string;
  fieldId: number;
  siteId: number;
  keywords: string;
}

export interface GqlSchemasTable {
  id: Generated<number>;
  uid: string;
  name: string;
  /** JSON array of permission strings, e.g. `sections.<uid>:read`. */
  scope: string;
  isPublic: Flag;
  dateCreated: string;
  dateUpdated: string;
}

export interface GqlTokensTable {
  id: Generated<number>;
  uid: string;
  name: string;
  /** SHA-256 hex of the secret; the literal `__PUBLIC__` for the public token. */
  accessTokenHash: string;
  /** First characters of the secret, to recognize it in listings. */
  tokenPrefix: string;
  enabled: Flag;
  expiryDate: string | null;
  lastUsed: string | null;
  schemaId: number | null;
  dateCreated: string;
}

export interface InfoTable {
  key: string;
  value: string;
}
