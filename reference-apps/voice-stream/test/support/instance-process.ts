import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The app's entry point, as `npm start -w voice-stream` runs it. */
const MAIN = path.resolve(__dirname, '..', '..', 'src', 'main.js');

/** The node flags `npm start -w voice-stream` runs it with (package.json `config.nodeFlags`). */
export const START_NODE_FLAGS: readonly string[] = (
  JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    config: { nodeFlags: string };
  }
).config.nodeFlags.split(/\s+/);

/** An instance of the voice server in a process of its own (what a second machine would run). */
export interface InstanceProcess {
  readonly pid: number;
  readonly port: number;
  readonly url: string;
  /** Everything it printed, for diagnostics. */
  output(): string;
  /** SIGTERM (graceful stop) or SIGKILL; resolves with the exit code or signal. */
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
}

/**
 * Starts `node dist/src/main.js` on a free port against `databaseUrl`; resolves once it says it listens (its
 * signal handlers are installed before that line).
 */
export function startInstanceProcess(
  databaseUrl: string,
  env: NodeJS.ProcessEnv = {},
  nodeArgs: readonly string[] = [],
): Promise<InstanceProcess> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [...nodeArgs, MAIN, '--port', '0', '--host', '127.0.0.1', '--database', databaseUrl],
    {
      env: { ...process.env, ...env },
      stdio: 'pipe',
    },
  );
  let output = '';
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the instance did not start within 60 s:\n${output}`));
    }, 60_000);
    const onOutput = (bytes: Buffer) => {
      output += bytes.toString('utf8');
      const listening = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
      if (listening && /voice-stream: sessions in/.test(output)) {
        clearTimeout(timer);
        const port = Number(listening[1]);
        resolve({
          pid: child.pid as number,
          port,
          url: `http://127.0.0.1:${port}`,
          output: () => output,
          stop: (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the instance exited (${code}) before listening:\n${output}`));
    });
  });
}
