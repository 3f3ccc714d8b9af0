import { openDatabase } from 'app-support';
import { createContentService, type ContentService } from '../content-service';
import type { ContentDB } from '../storage/database-types';
import { assetsDirFrom, databaseUrlFrom, type Locations } from '../config';

export { LOCATION_OPTIONS } from '../config';

/** Opens the service for a command; `seedDemo` is off so that `import` finds an empty database. */
export async function openForCommand(
  flags: Locations,
  env: NodeJS.ProcessEnv,
  seedDemo: boolean,
): Promise<{ service: ContentService; close(): Promise<void> }> {
  const database = await openDatabase<ContentDB>(databaseUrlFrom(flags, env));
  const service = await createContentService({
    db: database.db,
    dialect: database.dialect,
    assetsRoot: assetsDirFrom(flags, env),
    seedDemo,
    settings: { changePollMs: 0 },
  });
  return {
    service,
    close: async () => {
      await service.close();
      await database.destroy();
    },
  };
}
