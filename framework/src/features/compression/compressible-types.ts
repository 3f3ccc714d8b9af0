import { mediaEssence } from '../../plugin';

/**
 * Whether a content type is worth compressing by default: text (but not event streams, whose events must go
 * out at once), JSON, XML, JavaScript, SVG, WebAssembly and uncompressed fonts. Images, audio, video, archives
 * and WOFF fonts are compressed already; `application/octet-stream` is unknown bytes.
 */
export function isCompressibleType(contentType: string): boolean {
  const essence = mediaEssence(contentType);
  if (essence.startsWith('text/')) return essence !== 'text/event-stream';
  if (essence.endsWith('+json') || essence.endsWith('+xml')) return true;
  return COMPRESSIBLE.has(essence);
}

const COMPRESSIBLE = new Set([
  'application/json',
  'application/x-ndjson',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/xml',
  'application/wasm',
  'application/graphql',
  'application/x-www-form-urlencoded',
  'font/ttf',
  'font/otf',
  'image/bmp',
  'image/x-icon',
]);
