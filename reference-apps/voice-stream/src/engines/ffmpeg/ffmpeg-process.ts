import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** Name or path of the ffmpeg binary (Debian package `ffmpeg`). */
export const FFMPEG_BINARY = process.env.VOICE_STREAM_FFMPEG ?? 'ffmpeg';

/**
 * One ffmpeg child with stdin/stdout pipes. Never throws from writes (a dead child only produces the
 * `exited` result), and keeps the last stderr lines to explain failures.
 */
export class FfmpegProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private stderrTail = '';
  private stdinOpen = true;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; spawnError?: Error }>;

  constructor(args: readonly string[], onStdout: (bytes: Buffer) => void) {
    this.child = spawn(FFMPEG_BINARY, ['-hide_banner', '-nostats', '-loglevel', 'error', ...args], { stdio: 'pipe' });
    this.child.stdout.on('data', onStdout);
    this.child.stderr.on('data', (bytes: Buffer) => {
      this.stderrTail = (this.stderrTail + bytes.toString('utf8')).slice(-2000);
    });
    // EPIPE after the child died is reported through `exited`, never as an uncaught error.
    this.child.stdin.on('error', () => {
      this.stdinOpen = false;
    });
    this.exited = new Promise((resolve) => {
      let spawnError: Error | undefined;
      this.child.on('error', (error) => {
        spawnError = error;
      });
      this.child.on('close', (code, signal) => resolve({ code, signal, spawnError }));
    });
  }

  write(bytes: Buffer): void {
    if (this.stdinOpen && !this.child.stdin.destroyed) this.child.stdin.write(bytes);
  }

  endInput(): void {
    if (this.stdinOpen) {
      this.stdinOpen = false;
      this.child.stdin.end();
    }
  }

  kill(): void {
    this.stdinOpen = false;
    this.child.stdin.destroy();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  /** ffmpeg's own explanation of a failure, one line. */
  get errorText(): string {
    const lines = this.stderrTail
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    return lines.slice(-2).join('; ') || 'no diagnostic output';
  }
}

/** Describes how a process ended, for error messages. */
export function describeExit(result: {
  code: number | null;
  signal: NodeJS.Signals | null;
  spawnError?: Error;
}): string {
  if (result.spawnError)
    return `could not start ${FFMPEG_BINARY}: ${result.spawnError.message} (install it: apt-get install -y ffmpeg)`;
  return result.signal ? `ffmpeg was stopped by ${result.signal}` : `ffmpeg exited with code ${result.code}`;
}
