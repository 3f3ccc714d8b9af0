import { Buffer } from 'node:buffer';
import * as fs from 'node:fs';
import { errors } from '../../plugin';

/** Where lines go instead of stdout (`pino.destination(path)`, any stream with `write`). */
export interface LogDestination {
  /** Takes one JSON line (with its newline). */
  write(line: string): unknown;
}

/** Where a buffered destination writes, and how much it holds. */
export interface BufferedDestinationOptions {
  /** A file descriptor (default 1, stdout) or a file path (appended to). */
  dest?: number | string;
  /** Bytes held before they are written at once, without waiting for the end of the event-loop turn (default 64 KiB). */
  maxBufferBytes?: number;
  /**
   * Bytes held while the reader of a pipe falls behind (the pipe is full) before logging waits for it, as a
   * synchronous write would (default 16 MiB).
   */
  maxHeldBytes?: number;
}

const DEFAULT_MAX_BUFFER_BYTES = 64 * 1024;
const DEFAULT_MAX_HELD_BYTES = 16 * 1024 * 1024;
/** How long to wait before trying a full pipe again. */
const RETRY_MS = 5;
/** Longest wait for a full pipe's reader in one synchronous write (an exit, or too much held). */
const MAX_WAIT_MS = 10_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Log lines collected in memory and written together, synchronously, once per event-loop turn (or as soon as
 * `maxBufferBytes` are waiting): a line costs its serialisation and a string append instead of a `write` system
 * call of its own (about 15 µs a line to a pipe here).
 *
 * A full pipe (its reader, a log collector, falls behind) never stalls the event loop: what it does not take is
 * held and tried again a few milliseconds later, up to `maxHeldBytes`, past which the destination waits for the
 * reader as a synchronous write would. Nothing is ever in flight in another thread: `flush()`, the process's
 * `exit` (which `process.exit`, an uncaught exception and `serve`'s shutdown all go through) and a worker
 * thread's exit write every line, waiting for the reader if need be. Lost: the lines of the current turn when the
 * process is killed (SIGKILL, or a signal it has no handler for).
 */
export class BufferedDestination implements LogDestination {
  private readonly fd: number;
  private readonly maxBufferBytes: number;
  private readonly maxHeldBytes: number;
  /** Lines taken and not yet written. */
  private pending = '';
  /** What a full pipe did not take yet, oldest first; written before `pending`. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private scheduled = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly onTurnEnd = (): void => {
    this.scheduled = false;
    this.flushSoon();
  };
  private readonly onRetry = (): void => {
    this.retryTimer = null;
    this.flushSoon();
  };

  constructor(options: BufferedDestinationOptions = {}) {
    this.maxBufferBytes = wholeBytes(options.maxBufferBytes ?? DEFAULT_MAX_BUFFER_BYTES, 'maxBufferBytes');
    this.maxHeldBytes = wholeBytes(options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES, 'maxHeldBytes');
    const dest = options.dest ?? 1;
    this.fd = typeof dest === 'number' ? nonBlockingPipe(dest) : fs.openSync(dest, 'a');
    flushedOnExit.add(new WeakRef(this));
    installExitFlush();
  }

  /** Takes one line; it is written at the end of this event-loop turn. */
  write(line: string): boolean {
    this.pending += line;
    if (this.retryTimer !== null) {
      // A full pipe: the retry writes, unless its reader is so far behind that logging must wait for it.
      if (this.heldBytes + this.pending.length > this.maxHeldBytes) this.writeOut(true);
    } else if (this.pending.length >= this.maxBufferBytes) {
      this.flushSoon();
    } else if (!this.scheduled) {
      this.scheduled = true;
      // Unreferenced: a process with nothing else to do exits, and its exit handler writes the lines.
      setImmediate(this.onTurnEnd).unref();
    }
    return true;
  }

  /** Writes every line held, now, waiting for a full pipe's reader if need be (at most 10 s without progress). */
  flushSync(): void {
    this.writeOut(true);
  }

  /** Writes every line held, then calls back (pino's `logger.flush` and `serve`'s shutdown call it). */
  flush(callback?: (err?: Error) => void): void {
    try {
      this.flushSync();
    } catch (err) {
      callback?.(err as Error);
      return;
    }
    callback?.();
  }

  /** Writes what the pipe takes now; what it does not is tried again a few milliseconds later. */
  private flushSoon(): void {
    this.writeOut(this.heldBytes + this.pending.length > this.maxHeldBytes);
    if (this.heldBytes > 0 && this.retryTimer === null) {
      this.retryTimer = setTimeout(this.onRetry, RETRY_MS);
      this.retryTimer.unref();
    }
  }

  /** Writes held bytes, then pending lines, until done or (unless `wait`) the pipe is full. */
  private writeOut(wait: boolean): void {
    if (this.held.length === 0 && this.pending.length > 0 && this.writeText()) return;
    if (this.pending.length > 0) this.hold(Buffer.from(this.pending));
    let waitedMs = 0;
    while (this.held.length > 0) {
      const first = this.held[0]!;
      let written: number;
      try {
        written = fs.writeSync(this.fd, first);
      } catch (err) {
        if (!isFull(err)) throw err;
        // A reader that takes nothing for this long is stuck: the lines are given up rather than the process hung.
        if (!wait || waitedMs >= MAX_WAIT_MS) return;
        Atomics.wait(sleeper, 0, 0, 1); // the pipe is full: give its reader a millisecond
        waitedMs++;
        continue;
      }
      waitedMs = 0;
      this.heldBytes -= written;
      if (written === first.length) this.held.shift();
      else this.held[0] = first.subarray(written);
    }
  }

  /** The common case, nothing held: the pending text written as it is (no copy); false when the pipe took only part. */
  private writeText(): boolean {
    const text = this.pending;
    this.pending = '';
    let written = 0;
    try {
      written = fs.writeSync(this.fd, text);
    } catch (err) {
      if (!isFull(err)) throw err;
    }
    if (written === Buffer.byteLength(text)) return true;
    this.hold(Buffer.from(text).subarray(written));
    return false;
  }

  private hold(bytes: Buffer): void {
    this.pending = '';
    this.held.push(bytes);
    this.heldBytes += bytes.length;
  }
}

function isFull(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EAGAIN' || code === 'EWOULDBLOCK';
}

function nonBlockingPipe(fd: number): number {
  if (process.platform !== 'linux') return fd;
  try {
    if (!fs.fstatSync(fd).isFIFO()) return fd;
    return fs.openSync(`/proc/self/fd/${fd}`, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  } catch {
    return fd;
  }
}

function wholeBytes(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0)
    throw errors.RU_ERR_LOGGING_OPTIONS(`rest.uws: ${name} must be a whole number of bytes, got ${String(value)}`);
  return value;
}

const flushedOnExit = new Set<WeakRef<BufferedDestination>>();
let exitFlushInstalled = false;

/** One `exit` listener for every buffered destination of the thread (each worker thread has its own). */
function installExitFlush(): void {
  if (exitFlushInstalled) return;
  exitFlushInstalled = true;
  process.on('exit', () => {
    for (const ref of flushedOnExit) {
      try {
        ref.deref()?.flushSync();
      } catch {
        // The destination is closed (stdout gone): nothing more can be written.
      }
    }
  });
}
