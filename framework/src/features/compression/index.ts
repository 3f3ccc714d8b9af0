/** Compression as a plugin: brotli and gzip negotiated from Accept-Encoding, complete and streamed bodies. */
export { compression, NoCompression, type CompressionOptions } from './compression-plugin';
export { isCompressibleType } from './compressible-types';
export type { Coding } from './encoders';
