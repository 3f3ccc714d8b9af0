import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../../plugin';

/** The files of swagger-ui-dist the page uses, and their media types: a fixed list, so no other file can be asked for. */
const ASSET_TYPES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui.css.map': 'application/json',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-bundle.js.map': 'application/json',
  'oauth2-redirect.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** One file as it is sent: its bytes, media type and entity tag. */
export interface Asset {
  readonly body: Buffer;
  readonly type: string;
  /** A strong entity tag from the content, quoted. */
  readonly etag: string;
}

/** An entity tag of some bytes (content-addressed, so a new swagger-ui-dist version never matches an old tag). */
export function etagOf(bytes: Buffer | string): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
}

/**
 * The installed swagger-ui-dist: its folder and version. It is an optional peer dependency of rest.uws,
 * found when the plugin is set up so a missing package stops `build()` with what to install.
 */
export class SwaggerUiDist {
  private readonly cache = new Map<string, Promise<Asset>>();

  private constructor(
    readonly folder: string,
    readonly version: string,
  ) {}

  /** Finds swagger-ui-dist from the app's point of view (`resolve` is `require.resolve` unless a test swaps it). */
  static locate(resolve: (id: string) => string = require.resolve): SwaggerUiDist {
    let manifest: string;
    try {
      manifest = resolve('swagger-ui-dist/package.json');
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code === 'MODULE_NOT_FOUND') {
        throw errors.RU_ERR_MISSING_PACKAGE(
          'swaggerUi() serves the files of the package swagger-ui-dist, which is not installed: npm install swagger-ui-dist',
        );
      }
      throw err;
    }
    const version = (require(manifest) as { version?: unknown }).version;
    return new SwaggerUiDist(path.dirname(manifest), typeof version === 'string' ? version : '0');
  }

  /** Whether `name` is one of the files served. */
  static serves(name: string): boolean {
    return Object.hasOwn(ASSET_TYPES, name);
  }

  /** A served file, read once and kept (undefined for a name not on the list). */
  asset(name: string): Promise<Asset> | undefined {
    if (!SwaggerUiDist.serves(name)) return undefined;
    let pending = this.cache.get(name);
    if (pending === undefined) {
      pending = readFile(path.join(this.folder, name)).then((body) => ({
        body,
        type: ASSET_TYPES[name]!,
        etag: etagOf(body),
      }));
      // A failed read (a file missing from a broken install) is tried again on the next request.
      pending.catch(() => this.cache.delete(name));
      this.cache.set(name, pending);
    }
    return pending;
  }
}
