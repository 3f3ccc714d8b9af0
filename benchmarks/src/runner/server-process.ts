/**
 * Starts one benchmark server in its own process, pinned to a core with taskset, waits for its READY line,
 * samples its memory from /proc, and stops it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { trackChild } from './child-processes';
import { READY_PREFIX, type ReadyMessage } from '../servers/support/server-environment';
import { type ServerDefinition, serverEntryPath } from '../servers/registry';

export interface RunningServer {
  definition: ServerDefinition;
  pid: number;
  port: number;
  baseUrl: string;
  /** App construction to ready, measured inside the server. */
  bootMs: number;
  /** Process spawn to READY, measured by the runner (includes Node start and module loading). */
  startupMs: number;
  /** Whether the process is still running. */
  alive(): boolean;
  /** The last lines the server wrote to stderr, for failure messages. */
  stderrTail(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  cpu: number | undefined;
  /** Extra flags for node (e.g. --cpu-prof). */
  nodeFlags?: string[];
  env: Record<string, string>;
  timeoutMs: number;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export function startServer(definition: ServerDefinition, options: StartOptions): Promise<RunningServer> {
  const nodeArgs = [...(options.nodeFlags ?? []), serverEntryPath(definition)];
  const [command, args] =
    options.cpu === undefined
      ? [process.execPath, nodeArgs]
      : ['taskset', ['-c', String(options.cpu), process.execPath, ...nodeArgs]];
  const spawnedAt = performance.now();
  // taskset execs node, so the child's pid is the server's pid (what /proc sampling needs).
  // NODE_ENV=production, as Express's production guide asks (https://expressjs.com/en/advanced/best-practice-performance.html).
  const child = spawn(command, args, {
    env: { NODE_ENV: 'production', ...process.env, ...options.env, ...definition.env, BENCH_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackChild(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const stderrTail = () => stderr.trim().split('\n').slice(-8).join('\n');

  return new Promise((resolve, reject) => {
    let stdout = '';
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${definition.id}: ${message}${stderrTail() ? `\n${stderrTail()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`no READY line within ${options.timeoutMs} ms`), options.timeoutMs);
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => fail(`exited before READY (code ${code}, signal ${signal})`));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      if (settled) return;
      stdout += chunk;
      const line = stdout.split('\n').find((candidate) => candidate.startsWith(READY_PREFIX));
      if (!line) return;
      settled = true;
      clearTimeout(timer);
      const ready = JSON.parse(line.slice(READY_PREFIX.length)) as ReadyMessage;
      resolve({
        definition,
        pid: child.pid!,
        port: ready.port,
        baseUrl: `http://127.0.0.1:${ready.port}`,
        bootMs: ready.bootMs,
        startupMs: performance.now() - spawnedAt,
        alive: () => child.exitCode === null && child.signalCode === null,
        stderrTail,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          if (!(await waitForExit(child, 3000))) {
            child.kill('SIGKILL');
            await waitForExit(child, 3000);
          }
        },
      });
    });
  });
}
