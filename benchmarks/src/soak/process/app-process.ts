/**
 * A reference app started the way an operator starts it (`node <app>/dist/src/main.js --host --port --database`),
 * in its own process, pinned to a core when asked. The port (0 = any free one) is read back from the app's
 * start-up line "<app>: listening on http://127.0.0.1:<port>, ...". Stopped with SIGTERM (the apps stop
 * gracefully on it), SIGKILL after a grace period.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { trackChild } from '../../runner/child-processes';

export interface AppProcess {
  pid: number;
  port: number;
  baseUrl: string;
  /** Process spawn to the listening line. */
  startupMs: number;
  alive(): boolean;
  /** The last lines the process wrote to stderr (empty when it wrote none). */
  stderrTail(): string;
  /** Lines written to stderr so far. */
  stderrLines(): number;
  /** Exit code or signal, once it exited. */
  exitStatus(): string | undefined;
  stop(): Promise<void>;
}

export interface AppStartOptions {
  /** What the process is called in messages. */
  name: string;
  /** The script and its arguments, run with this Node. */
  args: string[];
  /** Extra node flags (e.g. --heapsnapshot-signal=SIGUSR2). */
  nodeFlags?: string[];
  env?: Record<string, string>;
  cpu: number | undefined;
  /** Reads the port from one line of stdout, or undefined when the line is not the listening one. */
  portFromLine: (line: string) => number | undefined;
  timeoutMs: number;
  cwd?: string;
}

/** The listening line the reference apps print (app-support's describeServerConfig). */
export function listeningPort(line: string): number | undefined {
  const match = /listening on https?:\/\/[^\s:/]+:(\d+)/.exec(line);
  return match ? Number(match[1]) : undefined;
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

export function startAppProcess(options: AppStartOptions): Promise<AppProcess> {
  const nodeArgs = [...(options.nodeFlags ?? []), ...options.args];
  const [command, args] =
    options.cpu === undefined
      ? [process.execPath, nodeArgs]
      : ['taskset', ['-c', String(options.cpu), process.execPath, ...nodeArgs]];
  const spawnedAt = performance.now();
  // taskset execs node, so the child's pid is the server's (what /proc sampling needs).
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackChild(child);
  let stderr = '';
  let stderrLineCount = 0;
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderrLineCount += chunk.split('\n').length - 1;
    stderr = (stderr + chunk).slice(-6000);
  });
  const stderrTail = () => stderr.trim().split('\n').slice(-12).join('\n');
  const exitStatus = () =>
    child.exitCode !== null
      ? `exit code ${child.exitCode}`
      : child.signalCode !== null
        ? `signal ${child.signalCode}`
        : undefined;

  return new Promise((resolve, reject) => {
    let stdout = '';
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${options.name}: ${message}${stderrTail() ? `\n${stderrTail()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`no listening line within ${options.timeoutMs} ms`), options.timeoutMs);
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => fail(`exited before listening (code ${code}, signal ${signal})`));
    // Keep reading stdout for the process's whole life: a full pipe would block a process that logs.
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      if (settled) return;
      stdout += chunk;
      const port = stdout
        .split('\n')
        .map(options.portFromLine)
        .find((found) => found !== undefined);
      if (port === undefined) {
        stdout = stdout.slice(-4000);
        return;
      }
      settled = true;
      clearTimeout(timer);
      resolve({
        pid: child.pid!,
        port,
        baseUrl: `http://127.0.0.1:${port}`,
        startupMs: performance.now() - spawnedAt,
        alive: () => child.exitCode === null && child.signalCode === null,
        stderrTail,
        stderrLines: () => stderrLineCount,
        exitStatus,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          if (!(await waitForExit(child, 15_000))) {
            child.kill('SIGKILL');
            await waitForExit(child, 5000);
          }
        },
      });
    });
  });
}
