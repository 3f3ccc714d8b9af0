import type { FileHandle } from 'node:fs/promises';
import type { HttpServerResponse } from '../http/response';

/**
 * Bytes read from disk per step: one buffer per transfer (never more than the file), reused, so
 * memory stays flat whatever the file size. Measured here: each read costs an event-loop round trip
 * (about 0.2-0.5 ms under uWebSockets.js), so 64 KiB steps cap a download near 100 MB/s while
 * 256 KiB steps reach about 1 GB/s on loopback.
 */
export const DEFAULT_CHUNK_SIZE = 256 * 1024;

/**
 * Full-size read buffers of finished transfers, kept for the next ones. Left to the garbage collector,
 * a 256 KiB buffer per download piled up as external memory between collections: under 64 concurrent
 * 1 MiB downloads the server allocated about 900 of them in 4 seconds and its RSS climbed by tens of MB.
 * Idle buffers are kept up to 16 MiB in all (64 at the default size); the ones in use are bounded by the
 * open transfers.
 */
const MAX_IDLE_BYTES = 16 * 1024 * 1024;
const idleBuffers = new Map<number, Buffer[]>();

function takeBuffer(size: number): Buffer {
  return idleBuffers.get(size)?.pop() ?? Buffer.allocUnsafeSlow(size);
}

/** Only once no read can still write into it. */
function giveBack(buffer: Buffer, chunkSize: number): void {
  if (buffer.length !== chunkSize) return; // a small file's buffer: not worth keeping
  let idle = idleBuffers.get(chunkSize);
  if (idle === undefined) idleBuffers.set(chunkSize, (idle = []));
  if ((idle.length + 1) * chunkSize <= MAX_IDLE_BYTES) idle.push(buffer);
}

/**
 * Sends `length` bytes of a file from `start` as the response body, with backpressure: each chunk
 * goes out through `tryEnd`; when the socket is full, the rest of that chunk waits for `onWritable`
 * and nothing more is read until it is sent. Resolves when the body is sent or the client left;
 * rejects on a read error (the caller's error handling closes the connection, the head being sent).
 */
export function streamFileBody(response: HttpServerResponse, file: FileHandle, start: number, length: number, chunkSize = DEFAULT_CHUNK_SIZE): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (response.aborted()) return resolve();
    const buffer = takeBuffer(Math.min(chunkSize, Math.max(length, 1)));
    let position = start;
    let remaining = length;
    let settled = false;
    /** Set while a chunk waits for the socket to drain. */
    let wake: ((more: boolean) => void) | null = null;
    const finish = (err?: unknown) => {
      if (settled) return;
      settled = true;
      if (err !== undefined) reject(err);
      else resolve();
    };
    response.onAborted(() => {
      finish();
      wake?.(false);
    });

    /** Waits until the unsent tail of `chunk` went out: true to read on, false when complete or gone. */
    const drained = (chunk: Buffer, base: number) =>
      new Promise<boolean>((resume) => {
        wake = (more) => {
          wake = null;
          resume(more);
        };
        response.onWritable((offset) => {
          if (wake === null) return true;
          const [ok, done] = response.tryEnd(chunk.subarray(offset - base), length);
          if (done) wake(false);
          else if (ok) wake(true);
          return ok;
        });
      });

    const pump = async (): Promise<void> => {
      while (!settled) {
        const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, remaining), position);
        if (settled) return;
        if (bytesRead === 0) throw new Error(`file ended ${remaining} bytes early (it shrank while being sent)`);
        position += bytesRead;
        remaining -= bytesRead;
        const chunk = buffer.subarray(0, bytesRead);
        const base = response.getWriteOffset();
        const [ok, done] = response.tryEnd(chunk, length);
        if (done) return finish();
        if (!ok && !(await drained(chunk, base))) return finish();
      }
    };
    pump()
      .catch((err) => finish(err))
      .finally(() => giveBack(buffer, chunkSize));
  });
}
