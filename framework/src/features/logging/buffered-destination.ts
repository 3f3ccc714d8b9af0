import pino from 'pino';
import type { LogDestination } from './create-logger';

/** Where a buffered destination writes, and how much it holds before writing at once. */
export interface BufferedDestinationOptions {
  /** A file descriptor (default 1, stdout) or a file path (appended to). */
  dest?: number | string;
  /** Bytes held before they are written at once, without waiting for the end of the event-loop turn (default 64 KiB). */
  maxBufferBytes?: number;
}

/** The synchronous writer underneath (pino's SonicBoom in sync mode: it retries EAGAIN on non-blocking pipes). */
interface SyncWriter {
  write(data: string): boolean;
}

const DEFAULT_MAX_BUFFER_BYTES = 64 * 1024;

/**
 * Log lines collected in memory and written together, synchronously, once per event-loop turn (or as soon as
 * `maxBufferBytes` are waiting): a line costs its serialisation and a string append instead of a `write`
 * system call (about 15 µs a line on stdout). Nothing is ever in flight: every write is synchronous, so
 * `flush()`, the process's `exit` (which `process.exit`, an uncaught exception and `serve`'s shutdown all go
 * through) and a worker thread's exit write every line logged. Lost: the lines of the current turn when the
 * process is killed (SIGKILL, or a signal it has no handler for).
 */
export class BufferedDestination implements LogDestination {
  private pending = '';
  private scheduled = false;
  private readonly sink: SyncWriter;
  private readonly maxBufferBytes: number;
  private readonly onTurnEnd = (): void => {
    this.scheduled = false;
    this.flushSync();
  };

  constructor(options: BufferedDestinationOptions = {}) {
    const max = options.maxBufferBytes ?? DEFAULT_MAX_BUFFER_BYTES;
    if (!Number.isInteger(max) || max < 0) throw new TypeError(`rest.uws: maxBufferBytes must be a whole number of bytes, got ${String(max)}`);
    this.maxBufferBytes = max;
    this.sink = pino.destination({ dest: options.dest ?? 1, sync: true }) as unknown as SyncWriter;
    flushedOnExit.add(new WeakRef(this));
    installExitFlush();
  }

  /** Takes one line; it is written at the end of this event-loop turn. */
  write(line: string): boolean {
    this.pending += line;
    if (this.pending.length >= this.maxBufferBytes) this.flushSync();
    else if (!this.scheduled) {
      this.scheduled = true;
      // Unreferenced: a process with nothing else to do exits, and its exit handler writes the lines.
      setImmediate(this.onTurnEnd).unref();
    }
    return true;
  }

  /** Writes every line held, now. */
  flushSync(): void {
    if (this.pending.length === 0) return;
    const text = this.pending;
    this.pending = '';
    this.sink.write(text);
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
