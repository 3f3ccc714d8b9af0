import {
  SetMetadata,
  byteLengthAtLeast,
  chooseCodings,
  errors,
  type ResponseChunk,
  type RestPlugin,
  type RoutingContext,
  type SentBody,
} from '../../plugin';
import { isCompressibleType } from './compressible-types';
import { compressNow, compressStream, type Coding, type EncoderSettings } from './encoders';

/** What `compression()` compresses, and how hard: codings, threshold, types, levels, the synchronous limit. */
export interface CompressionOptions {
  /** The codings offered, in the server's order of preference (default `['br', 'gzip']`). */
  encodings?: readonly Coding[];
  /** Bodies smaller than this many bytes go out as they are (default 1024: below it, headers outweigh the gain). */
  threshold?: number;
  /** Which content types are compressed (default: text, JSON, XML, JavaScript, SVG...; never event streams). */
  compressible?: (contentType: string) => boolean;
  /** gzip level, 1 (fastest) to 9 (smallest); default 6, zlib's own. */
  gzipLevel?: number;
  /** brotli quality, 0 to 11; default 4, most of brotli's gain at a small part of quality 11's cost. */
  brotliQuality?: number;
  /**
   * Complete bodies up to this many bytes are compressed at once on the event loop (default 64 KiB); larger
   * ones, and streamed bodies (files), through a zlib stream in the thread pool, with backpressure.
   */
  syncLimit?: number;
}

/** Metadata key of `@NoCompression`. */
const NO_COMPRESSION = Symbol('rest.uws:no-compression');

/** Answers of this route (or of every route of this class) are never compressed. */
export function NoCompression(): ClassDecorator & MethodDecorator {
  return SetMetadata(NO_COMPRESSION, true);
}

function checkRange(value: number | undefined, fallback: number, min: number, max: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max)
    throw errors.RU_ERR_COMPRESSION_OPTIONS(
      `rest.uws: compression ${what} must be a whole number from ${min} to ${max}, got ${value}`,
    );
  return value;
}

/**
 * Compresses answers with brotli or gzip (`node:zlib`), as `Accept-Encoding` asks (q-values, `*`,
 * `identity;q=0`): bodies of at least `threshold` bytes of a compressible type, with `Vary: Accept-Encoding`.
 * Never 206 answers, HEAD answers, bodies already encoded (precompressed files) or event streams. A strong
 * ETag becomes weak (the compressed bytes differ from the file's). Each route gets a send hook unless it is
 * marked `@NoCompression()`.
 *
 * ```ts
 * new RestBuilder().use(compression({ threshold: 2048 }))
 * ```
 */
export function compression(options: CompressionOptions = {}): RestPlugin {
  if (options === null || typeof options !== 'object')
    throw errors.RU_ERR_COMPRESSION_OPTIONS('rest.uws: compression takes an options object');
  const encodings = [...(options.encodings ?? ['br', 'gzip'])];
  if (encodings.length === 0 || encodings.some((e) => e !== 'br' && e !== 'gzip'))
    throw errors.RU_ERR_COMPRESSION_OPTIONS(
      `rest.uws: compression encodings must be 'br' and/or 'gzip', got ${JSON.stringify(options.encodings)}`,
    );
  const threshold = checkRange(options.threshold, 1024, 0, Number.MAX_SAFE_INTEGER, 'threshold');
  const syncLimit = checkRange(options.syncLimit, 64 * 1024, 0, Number.MAX_SAFE_INTEGER, 'syncLimit');
  const settings: EncoderSettings = {
    gzipLevel: checkRange(options.gzipLevel, 6, 1, 9, 'gzipLevel'),
    brotliQuality: checkRange(options.brotliQuality, 4, 0, 11, 'brotliQuality'),
  };
  const compressible = options.compressible ?? isCompressibleType;
  if (typeof compressible !== 'function')
    throw errors.RU_ERR_COMPRESSION_OPTIONS(
      'rest.uws: compression compressible must be a function of the content type',
    );

  // Clients send the same few Accept-Encoding and Content-Type values over and over: both decisions are cached.
  const chosen = new Map<string, Coding | null>();
  const codingFor = (header: string | undefined): Coding | null => {
    if (header === undefined) return null;
    let coding = chosen.get(header);
    if (coding === undefined) {
      coding = (chooseCodings(header, encodings).codings[0] as Coding | undefined) ?? null;
      if (chosen.size >= 256) chosen.clear();
      chosen.set(header, coding);
    }
    return coding;
  };
  const types = new Map<string, boolean>();
  const isCompressible = (type: string): boolean => {
    let yes = types.get(type);
    if (yes === undefined) {
      yes = compressible(type) === true;
      if (types.size >= 256) types.clear();
      types.set(type, yes);
    }
    return yes;
  };

  const onSend = (ctx: RoutingContext, body: ResponseChunk | undefined, sent: SentBody): ResponseChunk | undefined => {
    const response = ctx.response;
    // The size first: most small answers stop here, before any header is read.
    const size = sent.streamed ? sent.length : body === undefined ? 0 : byteLengthAtLeast(body, threshold);
    if (size !== undefined && size < threshold) return undefined;
    if (response.isHead) return undefined;
    const status = response.getStatusCode();
    if (status < 200 || status === 204 || status === 206 || status === 304) return undefined;
    if (response.hasHeader('content-encoding') || response.hasHeader('content-range')) return undefined;
    const type = response.getHeader('content-type');
    if (type === undefined || !isCompressible(type)) return undefined;
    response.putHeader('Vary', 'Accept-Encoding');
    const coding = codingFor(ctx.request.getHeader('accept-encoding'));
    if (coding === null) return undefined;
    response.putHeader('Content-Encoding', coding);
    // The compressed bytes are another representation: a strong validator of the original no longer names them.
    const etag = response.getHeader('etag');
    if (etag !== undefined && !etag.startsWith('W/')) response.putHeader('ETag', `W/${etag}`);
    response.removeHeader('Accept-Ranges');
    if (!sent.streamed && size !== undefined && size <= syncLimit) return compressNow(coding, body!, settings);
    response.streamBodyThrough(compressStream(coding, settings, size));
    return undefined;
  };

  return {
    name: 'compression',
    setup(app) {
      // WebSocket upgrades too: a refused upgrade's answer is compressed like any other (a 101 has no body).
      app.route((route) =>
        route.definition.extensions.get(NO_COMPRESSION) !== true ? { onSend, onSendMinBytes: threshold } : undefined,
      );
    },
  };
}
