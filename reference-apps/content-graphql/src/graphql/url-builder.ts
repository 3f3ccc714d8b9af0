import type { Catalog } from '../content/catalog';
import type { ElementRow } from '../query/element-row';
import { transformFolder, transformedFilename, type ImageTransform } from '../assets/image-transforms';

/** Public URLs of elements and files. `@web` in site and volume URLs stands for the server's public address. */
export class UrlBuilder {
  constructor(private readonly catalog: Catalog, private readonly publicUrl: string) {}

  resolve(url: string): string {
    return url.replace(/^@web/, this.publicUrl.replace(/\/+$/, ''));
  }

  elementUrl(row: ElementRow): string | null {
    if (!row.uri) return null;
    const site = this.catalog.sitesById.get(row.siteId);
    if (!site) return null;
    const base = this.resolve(site.baseUrl);
    return row.uri === '__home__' ? `${base}/` : `${base}/${row.uri.split('/').map(encodeURIComponent).join('/')}`;
  }

  assetUrl(row: ElementRow, transform: ImageTransform | null): string | null {
    const volume = this.catalog.volumesById.get(row.volumeId!);
    if (!volume) return null;
    const folder = (row.folderPath ?? '').split('/').filter(Boolean).map(encodeURIComponent).join('/');
    const prefix = `${this.resolve(volume.url)}/${folder ? `${folder}/` : ''}`;
    if (!transform) return prefix + encodeURIComponent(row.filename!);
    return `${prefix}${transformFolder(transform)}/${encodeURIComponent(transformedFilename(row.filename!, transform))}`;
  }
}
