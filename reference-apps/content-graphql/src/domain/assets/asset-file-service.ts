import { stat } from 'node:fs/promises';
import type { ContentStore } from '../../storage/content-store';
import { mimeTypeOf } from '../../model/file-kinds';
import { ImageTransformer, parseTransformFolder, transformForFile, type ImageTransform } from './image-transforms';

export type AssetFileAnswer =
  | { status: 200; path: string; contentType: string }
  | { status: 400 | 404; message: string };

/**
 * Maps a public asset URL path (`/assets/images/news/sunrise.jpg`, or with a transform folder
 * `/assets/images/news/_300xAUTO_crop_center-center_none/sunrise.jpg`) onto a file, generating a transform on its
 * first request. Only files of existing assets are answered, so nothing else on disk can be reached.
 */
export class AssetFileService {
  constructor(
    private readonly store: ContentStore,
    private readonly transformer: ImageTransformer,
  ) {}

  async resolve(urlPath: string): Promise<AssetFileAnswer> {
    let segments: string[];
    try {
      segments = urlPath.split('?')[0]!.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      return { status: 400, message: 'Malformed URL path' };
    }
    if (segments.some((s) => s === '..' || s === '.' || s.includes('\\')))
      return { status: 400, message: 'Invalid path' };
    const catalog = await this.store.catalog();
    const volume = [...catalog.volumesById.values()].find((v) => {
      const prefix = v.url.replace(/^@web/, '').split('/').filter(Boolean);
      return prefix.length > 0 && prefix.every((p, i) => segments[i] === p) && segments.length > prefix.length;
    });
    if (!volume) return { status: 404, message: 'No such asset' };
    const rest = segments.slice(volume.url.replace(/^@web/, '').split('/').filter(Boolean).length);
    const filename = rest[rest.length - 1]!;
    const transformFolder = rest.length >= 2 && rest[rest.length - 2]!.startsWith('_') ? rest[rest.length - 2]! : null;
    const folderPath = rest
      .slice(0, transformFolder ? -2 : -1)
      .map((s) => `${s}/`)
      .join('');
    const folderTransform = transformFolder ? parseTransformFolder(transformFolder, catalog) : null;
    if (transformFolder && !folderTransform) return { status: 404, message: `Unknown transform "${transformFolder}"` };
    const candidates = await this.store.db
      .selectFrom('assets')
      .innerJoin('volumefolders', 'volumefolders.id', 'assets.folderId')
      .innerJoin('elements', 'elements.id', 'assets.id')
      .select([
        'assets.id',
        'assets.filename',
        'assets.width',
        'assets.height',
        'assets.focalPoint',
        'volumefolders.path',
      ])
      .where('assets.volumeId', '=', volume.id)
      .where('volumefolders.path', '=', folderPath)
      .where('elements.dateDeleted', 'is', null)
      .execute();
    let asset = folderTransform === null ? candidates.find((a) => a.filename === filename) : undefined;
    let transform: ImageTransform | null = null;
    if (folderTransform !== null) {
      // A transform keeping the original's format first (`sunrise.png` beside `sunrise.jpg`), then one asking for
      // the format of the requested file's extension.
      asset = candidates.find((a) => transformForFile(folderTransform, a.filename, filename) === folderTransform);
      if (asset) transform = folderTransform;
      else
        for (const a of candidates) {
          transform = transformForFile(folderTransform, a.filename, filename);
          if (transform) {
            asset = a;
            break;
          }
        }
    }
    if (!asset) return { status: 404, message: 'No such asset' };
    const file = {
      id: asset.id,
      filename: asset.filename,
      folderPath: asset.path,
      width: asset.width,
      height: asset.height,
      focalPoint: asset.focalPoint,
    };
    try {
      const path = transform
        ? await this.transformer.ensure(volume, file, transform)
        : this.transformer.originalPath(volume, file);
      await stat(path);
      return { status: 200, path, contentType: mimeTypeOf(filename) ?? 'application/octet-stream' };
    } catch (error) {
      return {
        status: 404,
        message: (error as Error).message.startsWith('Asset') ? (error as Error).message : 'The file is missing',
      };
    }
  }
}
