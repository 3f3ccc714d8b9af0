import { Buffer } from 'node:buffer';

/**
 * A copy of a request body chunk, which uWebSockets.js neuters when its callback returns. Copied into a
 * Buffer from Node's pool (small chunks share a slab, as Buffer.concat's results already do): a fifth of the
 * cost of `Buffer.from(chunk.slice(0))`, which allocates a new ArrayBuffer per chunk. WebSocket messages
 * keep an ArrayBuffer of their own, since handlers may transfer `message.buffer` to a worker.
 */
export function copyChunk(chunk: ArrayBuffer): Buffer {
  const copy = Buffer.allocUnsafe(chunk.byteLength);
  copy.set(new Uint8Array(chunk));
  return copy;
}
