import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';

export interface ChildServer {
  child: ChildProcess;
  port: number;
  /** Every JSON log line printed so far. */
  logs: any[];
  /** Resolves with the first log line matching. */
  waitForLog(match: (line: any) => boolean, timeoutMs?: number): Promise<any>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const FIXTURE = path.join(__dirname, 'fixtures', 'serve-app.js');

/** Runs the fixture app in a child process and waits until it listens. */
export async function startChild(env: Record<string, string>): Promise<ChildServer> {
  const server = spawnChild(env);
  try {
    const listening = await server.waitForLog((l) => l.msg === 'listening');
    return { ...server, port: listening.port };
  } catch (error) {
    // A child that never got up must not outlive its test (its pipes would keep the test worker alive).
    server.child.kill('SIGKILL');
    throw error;
  }
}

/** Runs the fixture app in a child process. */
export function spawnChild(env: Record<string, string>): Omit<ChildServer, 'port'> {
  const child = spawn(process.execPath, [FIXTURE], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: any[] = [];
  const waiters: Array<{ match: (l: any) => boolean; resolve: (l: any) => void }> = [];
  let buffered = '';
  child.stdout!.on('data', (d: Buffer) => {
    buffered += d.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const text = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      let line: any;
      try {
        line = JSON.parse(text);
      } catch {
        line = { text };
      }
      logs.push(line);
      for (const w of [...waiters])
        if (w.match(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
    }
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  // 'close', not 'exit': it comes after the last output was read.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  // Generous: a child and its workers each load the framework, which takes seconds on a loaded 2-core machine.
  const waitForLog = (match: (l: any) => boolean, timeoutMs = 45_000) =>
    new Promise<any>((resolve, reject) => {
      const found = logs.find(match);
      if (found) return resolve(found);
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no matching log line within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}; logs: ${JSON.stringify(logs).slice(-2000)}`,
            ),
          ),
        timeoutMs,
      );
      waiters.push({
        match,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
      });
    });
  return { child, logs, waitForLog, exited };
}

/** GET on a fresh connection (no keep-alive), so the kernel spreads them over the workers. */
export function freshGet(port: number, path: string, timeoutMs = 10_000): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, agent: false, headers: { connection: 'close' }, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: any = text;
          try {
            body = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, body });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
  });
}
