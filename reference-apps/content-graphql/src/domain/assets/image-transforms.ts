import { mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { Kysely } from 'kysely';
import type { Catalog, CatalogVolume } from '../../storage/catalog';
import type { ContentDB } from '../../storage/database-types';
import { nowStored } from '../../model/dates';
import { QueryArgumentError, quoteValue } from '../../model/query-argument-error';
import { extensionOf, isTransformable } from '../../model/file-kinds';

/** A transform with every value decided. */
export interface ImageTransform {
  handle: string | null;
  width: number | null;
  height: number | null;
  mode: 'crop' | 'fit' | 'stretch';
  position: string;
  quality: number | null;
  interlace: 'none' | 'line' | 'plane' | 'partition';
  format: 'jpg' | 'png' | 'gif' | 'webp' | 'avif' | null;
}

export interface TransformArguments {
  handle?: string | null;
  transform?: string | null;
  width?: number | null;
  height?: number | null;
  mode?: string | null;
  position?: string | null;
  interlace?: string | null;
  quality?: number | null;
  format?: string | null;
  immediately?: boolean | null;
}

const MODES = ['crop', 'fit', 'stretch'];
const POSITIONS = [
  'top-left',
  'top-center',
  'top-right',
  'center-left',
  'center-center',
  'center-right',
  'bottom-left',
  'bottom-center',
  'bottom-right',
];
const INTERLACES = ['none', 'line', 'plane', 'partition'];
const FORMATS = ['jpg', 'png', 'gif', 'webp', 'avif'];

/** Reads `@transform`/`url(...)` arguments: a named transform (`handle` or `transform`) or ad-hoc values. Returns null when there is nothing to transform. */
export function normalizeTransform(args: TransformArguments, catalog: Catalog): ImageTransform | null {
  const handle = args.handle ?? args.transform ?? null;
  if (handle) {
    const named = catalog.transformsByHandle.get(handle);
    if (!named) throw new QueryArgumentError(`Unknown transform handle ${quoteValue(handle)}`);
    return {
      handle: named.handle,
      width: named.width,
      height: named.height,
      mode: named.mode as ImageTransform['mode'],
      position: named.position,
      quality: named.quality,
      interlace: named.interlace as ImageTransform['interlace'],
      format: named.format as ImageTransform['format'],
    };
  }
  const has = [args.width, args.height, args.mode, args.position, args.interlace, args.quality, args.format].some(
    (v) => v !== undefined && v !== null,
  );
  if (!has) return null;
  const check = (name: string, value: string | null | undefined, allowed: string[]) => {
    if (value !== undefined && value !== null && !allowed.includes(value))
      throw new QueryArgumentError(`Invalid transform ${name} ${quoteValue(value)}: use ${allowed.join(', ')}`);
  };
  check('mode', args.mode, MODES);
  check('position', args.position, POSITIONS);
  check('interlace', args.interlace, INTERLACES);
  check('format', args.format === 'jpeg' ? 'jpg' : args.format, FORMATS);
  for (const [name, value, max] of [
    ['width', args.width, 4000],
    ['height', args.height, 4000],
    ['quality', args.quality, 100],
  ] as const) {
    if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 1 || value > max))
      throw new QueryArgumentError(`Invalid transform ${name} ${value}: use a whole number from 1 to ${max}`);
  }
  return {
    handle: null,
    width: args.width ?? null,
    height: args.height ?? null,
    mode: (args.mode ?? 'crop') as ImageTransform['mode'],
    position: args.position ?? 'center-center',
    quality: args.quality ?? null,
    interlace: (args.interlace ?? 'none') as ImageTransform['interlace'],
    format: (args.format === 'jpeg' ? 'jpg' : (args.format ?? null)) as ImageTransform['format'],
  };
}

/** The transform's folder name, as the CMS writes it: `_300xAUTO_crop_center-center_none`, `_300x200_fit_center-center_80_line`, or `_<handle>`. */
export function transformFolder(transform: ImageTransform): string {
  if (transform.handle) return `_${transform.handle}`;
  const quality = transform.quality !== null ? `_${transform.quality}` : '';
  return `_${transform.width ?? 'AUTO'}x${transform.height ?? 'AUTO'}_${transform.mode}_${transform.position}${quality}_${transform.interlace}`;
}

export function transformedFilename(filename: string, transform: ImageTransform): string {
  if (!transform.format) return filename;
  return filename.replace(/\.[^.]+$/, '') + '.' + transform.format;
}

/**
 * The transform a requested file name asks for. A folder name does not carry the format (as in the CMS): a file
 * whose extension differs from the original's asks for that format, when a transform can write it. Returns null
 * when the name cannot be a transform of `original`.
 */
export function transformForFile(
  transform: ImageTransform,
  original: string,
  requested: string,
): ImageTransform | null {
  if (transformedFilename(original, transform) === requested) return transform;
  if (transform.format !== null) return null;
  const extension = extensionOf(requested);
  const format = extension === 'jpeg' ? 'jpg' : extension;
  if (!FORMATS.includes(format)) return null;
  const asked = { ...transform, format: format as ImageTransform['format'] };
  return transformedFilename(original, asked) === requested ? asked : null;
}

/** Reads a transform folder name back (for the route that serves transforms). */
export function parseTransformFolder(folder: string, catalog: Catalog): ImageTransform | null {
  const named = /^_([A-Za-z][\w-]*)$/.exec(folder);
  if (named && catalog.transformsByHandle.has(named[1]!)) return normalizeTransform({ handle: named[1]! }, catalog);
  const match =
    /^_(\d+|AUTO)x(\d+|AUTO)_(crop|fit|stretch)_([a-z]+-[a-z]+)(?:_(\d+))?_(none|line|plane|partition)$/.exec(folder);
  if (!match) return null;
  const [, w, h, mode, position, quality, interlace] = match;
  if (!POSITIONS.includes(position!)) return null;
  const width = w === 'AUTO' ? null : Number(w);
  const height = h === 'AUTO' ? null : Number(h);
  if ((width !== null && (width < 1 || width > 4000)) || (height !== null && (height < 1 || height > 4000)))
    return null;
  if (width === null && height === null) return null;
  return {
    handle: null,
    width,
    height,
    mode: mode as ImageTransform['mode'],
    position: position!,
    quality: quality ? Number(quality) : null,
    interlace: interlace as ImageTransform['interlace'],
    format: null,
  };
}

function fileKey(volume: CatalogVolume, asset: AssetFile): string {
  return `${volume.path}\u0000${asset.folderPath}\u0000${asset.filename}`;
}

export interface AssetFile {
  id: number;
  filename: string;
  folderPath: string;
  width: number | null;
  height: number | null;
  focalPoint: string | null;
}

/**
 * Produces transformed images with sharp and records them in the transform index. Files live next to the
 * original, in the transform's folder, so that the transform URL maps straight onto a file.
 */
export class ImageTransformer {
  private readonly running = new Map<string, Promise<string>>();
  /** Transform files known to be on disk, so that a query with `immediately: true` does not stat them on every request. */
  private readonly known = new Set<string>();
  /**
   * The same, by transform object and file (volume path, folder, name), so that `isKnown` needs no path built:
   * ad-hoc transforms written without variables are one object per field of a kept document.
   */
  private knownByTransform = new WeakMap<ImageTransform, Set<string>>();
  private static readonly MAX_KNOWN = 10_000;

  constructor(
    private readonly db: Kysely<ContentDB>,
    private readonly assetsRoot: string,
  ) {}

  originalPath(volume: CatalogVolume, asset: AssetFile): string {
    return join(this.assetsRoot, volume.path, asset.folderPath, asset.filename);
  }

  transformedPath(volume: CatalogVolume, asset: AssetFile, transform: ImageTransform): string {
    return join(
      this.assetsRoot,
      volume.path,
      asset.folderPath,
      transformFolder(transform),
      transformedFilename(asset.filename, transform),
    );
  }

  /** Whether the transform's file is known to be on disk (then `ensure` has nothing to do). */
  isKnown(volume: CatalogVolume, asset: AssetFile, transform: ImageTransform): boolean {
    return this.knownByTransform.get(transform)?.has(fileKey(volume, asset)) === true;
  }

  /** Generates the file if it does not exist yet (concurrent calls for the same file share one generation). Returns its path. */
  async ensure(volume: CatalogVolume, asset: AssetFile, transform: ImageTransform): Promise<string> {
    if (!isTransformable(asset.filename))
      throw new QueryArgumentError(`Asset ${asset.id} (${asset.filename}) is not an image that can be transformed`);
    const target = this.transformedPath(volume, asset, transform);
    if (this.known.has(target)) return target;
    const existing = this.running.get(target);
    if (existing) return existing;
    const job = (async () => {
      const done = await stat(target).then(
        () => true,
        () => false,
      );
      if (done) return this.remember(target, volume, asset, transform);
      await mkdir(dirname(target), { recursive: true });
      await this.render(this.originalPath(volume, asset), target, asset, transform);
      const location = transformFolder(transform);
      await this.db
        .deleteFrom('assettransformindex')
        .where('assetId', '=', asset.id)
        .where('location', '=', location)
        .execute();
      await this.db
        .insertInto('assettransformindex')
        .values({
          assetId: asset.id,
          location,
          filename: transformedFilename(asset.filename, transform),
          transform: JSON.stringify(transform),
          fileExists: 1,
          dateIndexed: nowStored(),
        })
        .execute();
      return this.remember(target, volume, asset, transform);
    })().finally(() => this.running.delete(target));
    this.running.set(target, job);
    return job;
  }

  /** Forgets which files exist (after content changes: an asset may have been replaced or deleted). */
  forgetKnownFiles(): void {
    this.known.clear();
    this.knownByTransform = new WeakMap();
  }

  private remember(target: string, volume: CatalogVolume, asset: AssetFile, transform: ImageTransform): string {
    if (this.known.size >= ImageTransformer.MAX_KNOWN) this.forgetKnownFiles();
    this.known.add(target);
    let files = this.knownByTransform.get(transform);
    if (!files) {
      files = new Set();
      this.knownByTransform.set(transform, files);
    }
    files.add(fileKey(volume, asset));
    return target;
  }

  private async render(source: string, target: string, asset: AssetFile, transform: ImageTransform): Promise<void> {
    let image = sharp(source, { failOn: 'error' });
    const width = transform.width ?? undefined;
    const height = transform.height ?? undefined;
    if (transform.mode === 'crop' && width && height && asset.focalPoint && asset.width && asset.height) {
      // Crop around the user's focal point: scale to cover, then cut the window that keeps the point inside.
      const [fx, fy] = asset.focalPoint.split(';').map(Number) as [number, number];
      const scale = Math.max(width / asset.width, height / asset.height);
      const scaledW = Math.round(asset.width * scale);
      const scaledH = Math.round(asset.height * scale);
      const left = Math.min(Math.max(Math.round(fx * scaledW - width / 2), 0), scaledW - width);
      const top = Math.min(Math.max(Math.round(fy * scaledH - height / 2), 0), scaledH - height);
      image = image.resize(scaledW, scaledH).extract({ left, top, width, height });
    } else {
      const fit = transform.mode === 'stretch' ? 'fill' : transform.mode === 'fit' ? 'inside' : 'cover';
      const [vertical, horizontal] = transform.position.split('-') as [string, string];
      const gravity =
        (
          {
            'top-left': 'northwest',
            'top-center': 'north',
            'top-right': 'northeast',
            'center-left': 'west',
            'center-center': 'centre',
            'center-right': 'east',
            'bottom-left': 'southwest',
            'bottom-center': 'south',
            'bottom-right': 'southeast',
          } as Record<string, string>
        )[`${vertical}-${horizontal}`] ?? 'centre';
      image = image.resize({ width, height, fit, position: gravity, withoutEnlargement: false });
    }
    const format =
      transform.format ?? (['jpg', 'jpeg'].includes(extensionOf(asset.filename)) ? 'jpg' : extensionOf(asset.filename));
    const quality = transform.quality ?? undefined;
    const progressive = transform.interlace !== 'none';
    switch (format) {
      case 'jpg':
        image = image.jpeg({ quality, progressive });
        break;
      case 'png':
        image = image.png({ progressive });
        break;
      case 'webp':
        image = image.webp({ quality });
        break;
      case 'avif':
        image = image.avif({ quality });
        break;
      case 'gif':
        image = image.gif();
        break;
      default:
        image = image.toFormat(format as keyof sharp.FormatEnum);
    }
    await image.toFile(target);
  }
}
