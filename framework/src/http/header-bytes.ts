import { Buffer } from 'node:buffer';
import type { RecognizedString } from 'uWebSockets.js';

/**
 * uWebSockets.js takes the keys of header reads (and header names and values, status lines) as strings or as
 * bytes. A string costs it a UTF-8 copy into memory it allocates and frees on every call (about 300
 * instructions each, measured with callgrind); bytes are read where they are. The names of request headers the
 * framework reads natively again and again are kept here as bytes. (A response's head goes as one text per answer,
 * composed in JavaScript: http/default-head.ts and `HttpServerResponse.writeHead`.) The table is bounded, so texts
 * that are not constants after all cannot grow it without end.
 *
 * The bytes are kept as an ArrayBuffer, not a Uint8Array: uWebSockets.js asks V8 for the backing store of what
 * it is given, and a typed array costs it one step more (its buffer first). Timed with sampling (perf, scenario 2
 * of the bench, 7 texts passed per request): 0.58 µs per request in V8's GetBackingStore with Uint8Arrays,
 * 0.37 µs with ArrayBuffers; strings cost as much as Uint8Arrays (UTF-8 length, copy, malloc and free).
 */
const kept = new Map<string, ArrayBuffer>();

/** Entries the table takes at most; later texts are passed as strings. */
const MAX_KEPT = 1024;

/** The text's bytes, keeping them for the next time (a text known to come back: a constant of the code or of registration). */
export function keptBytes(text: string): RecognizedString {
  let bytes = kept.get(text);
  if (bytes === undefined) {
    if (kept.size >= MAX_KEPT || !isAscii(text)) return text;
    // A buffer of its own (a Buffer may be a view of a shared pool). ASCII only: its bytes are the same whoever encodes it.
    const encoded = Buffer.from(text, 'latin1');
    bytes = encoded.buffer.slice(encoded.byteOffset, encoded.byteOffset + encoded.byteLength) as ArrayBuffer;
    kept.set(text, bytes);
  }
  return bytes;
}

/** Whether every character is ASCII (then its Latin-1 bytes are the UTF-8 that uWebSockets.js would write). */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
