import type { Kysely } from 'kysely';
import type { Catalog } from './catalog';
import type { ContentDB } from './database-types';

/** What changed: elements and their values, the content model (sections, fields, sites), or who may read what. */
export type ChangeKind = 'content' | 'structure' | 'access';

/**
 * What the parts of a ContentStore (ContentDefinitions, ElementWriter, ElementIndex) use of the store they belong to.
 * ContentStore implements it; the parts take this instead of the class, so that they do not import the file that
 * builds them.
 */
export interface StoreAccess {
  readonly db: Kysely<ContentDB>;
  readonly assetsRoot: string;
  /** The catalog of the current structure version. */
  catalog(): Promise<Catalog>;
  /** Records a change and tells the listeners. */
  changed(kind: ChangeKind): Promise<void>;
  /** Another process changed the database: the catalog is read again. */
  changedElsewhere(): void;
}
