import koffi from 'koffi';

type Exit = (status: number) => void;
let exitNow: Exit | null | undefined;

/**
 * Ends the process at once with `status` (libc `_exit`): no exit handlers, no waiting for threads.
 * `process.exit()` cannot do this while a recognition worker is inside a native PocketSphinx call: Node
 * terminates the worker's isolate, koffi then fails to throw into it and aborts the process (exit 134).
 * Writes to stdout/stderr are already done (they are synchronous for files and pipes on Linux).
 * Falls back to `process.exit` where there is no glibc.
 */
export function exitImmediately(status: number): never {
  if (exitNow === undefined) {
    try {
      exitNow = koffi.load('libc.so.6').func('void _exit(int status)') as Exit;
    } catch {
      exitNow = null;
    }
  }
  if (exitNow) exitNow(status);
  process.exit(status);
}
