/**
 * The booking API as it ships: `node reference-apps/booking-api/dist/src/main.js` in its own process, optionally
 * pinned to a core, on a port the kernel picks; its keys CLI for the partner key.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { REPOSITORY_ROOT } from '../../paths';
import { trackChild } from '../../runner/child-processes';

const APP_DIST = path.join(REPOSITORY_ROOT, 'reference-apps', 'booking-api', 'dist', 'src');
export const MAIN = path.join(APP_DIST, 'main.js');
const KEYS_CLI = path.join(APP_DIST, 'cli', 'keys-cli.js');

export interface AppProcess {
  pid: number;
  url: string;
  alive(): boolean;
  output(): string;
  stop(): Promise<void>;
}

function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Starts main.js with `args` (after --port 0 --host 127.0.0.1) and resolves once it prints where it listens. */
export function startApp(
  args: string[],
  cpu: number | undefined,
  env: Record<string, string> = {},
): Promise<AppProcess> {
  const nodeArgs = [MAIN, '--port', '0', '--host', '127.0.0.1', ...args];
  // taskset execs node, so the child's pid is the server's (what /proc sampling needs).
  const [command, commandArgs] =
    cpu === undefined ? [process.execPath, nodeArgs] : ['taskset', ['-c', String(cpu), process.execPath, ...nodeArgs]];
  const child = spawn(command, commandArgs, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  trackChild(child);
  let output = '';
  const read = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail('did not print its listening line within 60 s'), 60_000);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`booking-api ${why}\n${output.trim().split('\n').slice(-10).join('\n')}`));
    };
    child.once('exit', (code, signal) => fail(`exited before listening (code ${code}, signal ${signal})`));
    const check = () => {
      const port = /listening on http:\/\/[^:]+:(\d+)/.exec(output)?.[1];
      if (!port || !output.includes('links under')) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout!.off('data', check);
      resolve({
        pid: child.pid!,
        url: `http://127.0.0.1:${port}`,
        alive: () => child.exitCode === null && child.signalCode === null,
        output: () => output,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          if (!(await exited(child, 15_000))) {
            child.kill('SIGKILL');
            await exited(child, 3000);
          }
        },
      });
    };
    child.stdout!.on('data', check);
  });
}

/** `keys create <partner>` against the database; returns the key it printed once. */
export function createPartnerKey(databaseUrl: string, partner: string): Promise<string> {
  const child = spawn(process.execPath, [KEYS_CLI, 'create', partner, '--database', databaseUrl], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackChild(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const key = /API key: (\S+)/.exec(output)?.[1];
      if (code === 0 && key) resolve(key);
      else reject(new Error(`keys create exited with ${code}: ${output.trim()}`));
    });
  });
}
