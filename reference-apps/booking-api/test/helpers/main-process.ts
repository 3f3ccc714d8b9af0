import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

const DIST = path.resolve(__dirname, '..', '..', 'src');

export interface RunningMain {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/** Starts `node dist/src/main.js` as `npm start -w booking-api` would, and waits for its start line. */
export function startMain(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningMain> {
  const child = spawn(process.execPath, [path.join(DIST, 'main.js'), ...args], { env: { ...process.env, ...env } });
  let output = '';
  // 'close', not 'exit': it comes after the output pipes are drained, so output() is complete once stopped.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    // Generous: on a loaded CI machine several test files start processes at once.
    const timer = setTimeout(() => reject(new Error(`main did not start within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
      if (match && output.includes('links under')) {
        clearTimeout(timer);
        resolve({
          child,
          url: `http://127.0.0.1:${match[1]}`,
          output: () => output,
          stop: (signal) => {
            child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`main exited with ${code} before it started:\n${output}`));
    });
  });
}

/** Runs a CLI of the app (dist/src/<file>) to completion. */
export function runCli(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(DIST, file), ...args], { env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}
