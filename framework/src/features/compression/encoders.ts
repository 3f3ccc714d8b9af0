import { Buffer } from 'node:buffer';
import * as zlib from 'node:zlib';
import type { ResponseChunk } from '../../plugin';

/** The codings this plugin produces. */
export type Coding = 'br' | 'gzip';

/** Compression settings, checked once. */
export interface EncoderSettings {
  gzipLevel: number;
  brotliQuality: number;
}

/** Compresses a complete body at once (small bodies: no thread-pool round trip). */
export function compressNow(coding: Coding, body: ResponseChunk, settings: EncoderSettings): Buffer {
  const input =
    typeof body === 'string' ? Buffer.from(body, 'utf8') : body instanceof ArrayBuffer ? new Uint8Array(body) : body;
  if (coding === 'gzip') return zlib.gzipSync(input, { level: settings.gzipLevel });
  return zlib.brotliCompressSync(input, { params: brotliParams(settings, input.byteLength) });
}

/**
 * A compressing stream for a body of unknown or large size: zlib works in its thread pool and its memory is
 * bounded (brotli's window is sized to the body when its length is known, 1 MiB at most otherwise).
 */
export function compressStream(
  coding: Coding,
  settings: EncoderSettings,
  length: number | undefined,
): zlib.Gzip | zlib.BrotliCompress {
  if (coding === 'gzip') return zlib.createGzip({ level: settings.gzipLevel });
  return zlib.createBrotliCompress({ params: brotliParams(settings, length) });
}

function brotliParams(settings: EncoderSettings, length: number | undefined): Record<number, number> {
  const params: Record<number, number> = {
    [zlib.constants.BROTLI_PARAM_QUALITY]: settings.brotliQuality,
    // A window no larger than the body (16 to 20 bits): the encoder's ring buffer is that size.
    [zlib.constants.BROTLI_PARAM_LGWIN]:
      length === undefined ? 20 : Math.min(20, Math.max(16, Math.ceil(Math.log2(Math.max(1, length))))),
  };
  if (length !== undefined) params[zlib.constants.BROTLI_PARAM_SIZE_HINT] = length;
  return params;
}
