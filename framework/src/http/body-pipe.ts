import { Buffer } from 'node:buffer';
import type { Duplex } from 'node:stream';

/** What `write` and `end` take: text (sent as UTF-8) or bytes. */
export type ResponseChunk = string | Buffer | Uint8Array | ArrayBuffer;

/** What a send hook is told about the body on its way out. */
export interface SentBody {
  /** True for a streamed body (`write`, `tryEnd`): the hook sees no bytes and cannot replace them, but may pipe them (`streamBodyThrough`). */
  readonly streamed: boolean;
  /** The streamed body's total length when the writer announced one (`tryEnd`), else undefined. */
  readonly length: number | undefined;
}

/** The body given to `end(body)` (or none): complete, replaceable. */
export const COMPLETE_BODY: SentBody = Object.freeze({ streamed: false, length: undefined });
/** A body written in chunks of unknown total length. */
export const STREAMED_BODY: SentBody = Object.freeze({ streamed: true, length: undefined });

/** What a pipe needs of the response it writes to (the uWebSockets.js side, corked). */
export interface PipeTarget {
  /** Writes transformed bytes to the client; false when the socket backs up. */
  writeOut(chunk: Buffer): boolean;
  /**
   * Calls `listener` once the socket can take more, after uWebSockets.js's writable callback returned: writes made
   * from within it (a microtask it runs) registered an onWritable that uWebSockets.js then never called.
   */
  whenWritable(listener: () => void): void;
  /** Ends the response after the last transformed bytes. */
  endOut(): void;
  /** The transform failed mid-body: the connection is closed (the head is gone). */
  fail(error: unknown): void;
  /** The client left. */
  gone(): boolean;
}

/**
 * A response body sent through a Transform (a zlib stream): what the writer gives goes in, what comes
 * out goes to the client, with backpressure at both ends. When the socket backs up the transform is
 * paused; its buffers then fill and `write` returns false, so the writer waits (`onWritable`) instead of
 * piling up bytes: memory stays bounded by the writer's chunk, the transform's buffers and one output chunk.
 * Offsets the writer sees count its own bytes (what went in), so `tryEnd` writers resume correctly.
 */
export class BodyPipe {
  private accepted = 0;
  private waiting: ((offset: number) => boolean) | null = null;
  private inputEnded = false;

  constructor(
    private readonly transform: Duplex,
    private readonly target: PipeTarget,
  ) {
    transform.on('data', (out: Buffer) => {
      if (target.gone()) return;
      if (target.writeOut(out)) return;
      transform.pause();
      target.whenWritable(() => transform.resume());
    });
    transform.on('end', () => {
      if (!target.gone()) target.endOut();
    });
    transform.on('error', (error) => target.fail(error));
    transform.on('drain', () => this.wake());
  }

  /** Bytes the writer has given so far. */
  offset(): number {
    return this.accepted;
  }

  /** Takes a chunk (copied: writers reuse their buffers); false when the writer should wait for `onWritable`. */
  write(chunk: ResponseChunk): boolean {
    if (this.inputEnded) return false;
    const bytes = copyOf(chunk);
    if (bytes.length === 0) return !this.transform.writableNeedDrain;
    this.accepted += bytes.length;
    return this.transform.write(bytes);
  }

  /** The last chunk, if any: the transform flushes, and the response ends after its last bytes. */
  end(chunk?: ResponseChunk): void {
    if (this.inputEnded) return;
    if (chunk !== undefined) this.write(chunk);
    this.inputEnded = true;
    this.transform.end();
  }

  /** `tryEnd` for a writer of known total length: `[ok, done]`, done once `total` bytes went in. */
  tryEnd(chunk: ResponseChunk, total: number): [boolean, boolean] {
    const ok = this.write(chunk);
    if (this.accepted < total) return [ok, false];
    this.end();
    return [true, true];
  }

  /** The writer waits: `handler(offset)` runs once the transform can take more; returning false waits again. */
  onWritable(handler: (offset: number) => boolean): void {
    this.waiting = handler;
    // Drained already (the writer registers after an await): no 'drain' is coming.
    if (!this.transform.writableNeedDrain) queueMicrotask(() => this.wake());
  }

  /** The client left or the response was closed: free the transform (zlib's memory) at once. */
  destroy(): void {
    this.waiting = null;
    this.transform.destroy();
  }

  private wake(): void {
    const handler = this.waiting;
    if (handler === null || this.target.gone()) return;
    this.waiting = null;
    if (!handler(this.accepted) && this.waiting === null) this.waiting = handler;
  }
}

/** A copy the transform may keep while the writer reuses its own buffer (`Buffer.from` of a view copies). */
function copyOf(chunk: ResponseChunk): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return Buffer.from(chunk instanceof ArrayBuffer ? new Uint8Array(chunk) : chunk);
}
