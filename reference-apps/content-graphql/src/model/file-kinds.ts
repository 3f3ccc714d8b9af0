import { extname } from 'node:path';

/** File kinds by extension, as the CMS names them. */
const KINDS: Record<string, string[]> = {
  image: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'svg', 'tif', 'tiff', 'bmp'],
  pdf: ['pdf'],
  text: ['txt', 'md', 'csv'],
  json: ['json'],
  html: ['html', 'htm'],
  audio: ['mp3', 'wav', 'ogg', 'flac', 'm4a'],
  video: ['mp4', 'webm', 'mov', 'avi'],
  compressed: ['zip', 'gz', 'tgz', 'bz2', '7z'],
  word: ['doc', 'docx', 'odt'],
  excel: ['xls', 'xlsx', 'ods'],
};

const MIME_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  html: 'text/html',
  htm: 'text/html',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  zip: 'application/zip',
};

export function extensionOf(filename: string): string {
  return extname(filename).slice(1).toLowerCase();
}

export function fileKind(filename: string): string {
  const ext = extensionOf(filename);
  for (const [kind, extensions] of Object.entries(KINDS)) if (extensions.includes(ext)) return kind;
  return 'unknown';
}

export function mimeTypeOf(filename: string): string | null {
  return MIME_TYPES[extensionOf(filename)] ?? null;
}

/** Image formats sharp can read (svg only through librsvg, which sharp ships). */
export function isTransformable(filename: string): boolean {
  return ['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'tif', 'tiff'].includes(extensionOf(filename));
}
