import type { Catalog } from '../storage/catalog';
import type { ElementRow } from '../storage/element-query/element-row';
import { transformFolder, transformedFilename, type ImageTransform } from '../domain/assets/image-transforms';

/** Characters a URL path segment keeps as they are (encodeURIComponent leaves them alone too, and `/` separates segments). */
const PLAIN_PATH = /^[A-Za-z0-9\-_.!~*'()/]*$/;

/** A path's segments percent-encoded; most paths need nothing, and are returned without splitting them. */
function encodePath(path: string): string {
  return PLAIN_PATH.test(path) ? path : path.split('/').map(encodeURIComponent).join('/');
}

/**
 * Public URLs of elements and files. `@web` in site and volume URLs stands for the server's public address. The
 * base of each site and volume is worked out once (every element and asset URL of an answer starts with one).
 */
export class UrlBuilder {
  private readonly siteBases = new Map<number, string>();
  private readonly volumeBases = new Map<number, string>();

  constructor(
    private readonly catalog: Catalog,
    private readonly publicUrl: string,
  ) {}

  resolve(url: string): string {
    return url.replace(/^@web/, this.publicUrl.replace(/\/+$/, ''));
  }

  elementUrl(row: ElementRow): string | null {
    if (!row.uri) return null;
    let base = this.siteBases.get(row.siteId);
    if (base === undefined) {
      const site = this.catalog.sitesById.get(row.siteId);
      if (!site) return null;
      base = this.resolve(site.baseUrl);
      this.siteBases.set(row.siteId, base);
    }
    return row.uri === '__home__' ? `${base}/` : `${base}/${encodePath(row.uri)}`;
  }

  assetUrl(row: ElementRow, transform: ImageTransform | null): string | null {
    let base = this.volumeBases.get(row.volumeId!);
    if (base === undefined) {
      const volume = this.catalog.volumesById.get(row.volumeId!);
      if (!volume) return null;
      base = this.resolve(volume.url);
      this.volumeBases.set(row.volumeId!, base);
    }
    const folder = (row.folderPath ?? '').split('/').filter(Boolean).map(encodeURIComponent).join('/');
    const prefix = `${base}/${folder ? `${folder}/` : ''}`;
    if (!transform) return prefix + encodeURIComponent(row.filename!);
    return `${prefix}${transformFolder(transform)}/${encodeURIComponent(transformedFilename(row.filename!, transform))}`;
  }
}
