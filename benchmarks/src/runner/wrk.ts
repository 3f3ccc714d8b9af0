/** Runs Debian's wrk with the harness's Lua scripts, pinned to the load generator's core, and parses its result line. */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { LUA_DIR } from '../paths';
import { trackChild } from './child-processes';

export interface WrkRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  bodyFile?: string;
  /** Requests written at once per connection; 1 = plain keep-alive. */
  pipeline: number;
  connections: number;
  durationSec: number;
  cpu: number | undefined;
}

export interface WrkResult {
  requests: number;
  durationSec: number;
  requestsPerSec: number;
  bytes: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  /** p999: the 99.9th percentile (absent from runs recorded before it was kept). */
  latencyUs: { mean: number; p50: number; p90: number; p99: number; p999: number; max: number };
}

const RESULT_PREFIX = 'BENCH_RESULT ';

export function wrkArguments(request: WrkRequest): string[] {
  const script = path.join(LUA_DIR, request.pipeline > 1 ? 'pipeline.lua' : 'request.lua');
  const scriptArgs = [`method=${request.method}`, `pipeline=${request.pipeline}`];
  if (request.bodyFile) scriptArgs.push(`body=${request.bodyFile}`);
  for (const [name, value] of Object.entries(request.headers)) scriptArgs.push(`header=${name}: ${value}`);
  // wrk takes whole seconds only.
  const duration = `${Math.max(1, Math.round(request.durationSec))}s`;
  // One wrk thread: with two cores, one is the server's and the other the load generator's.
  return [
    '-t1',
    `-c${request.connections}`,
    `-d${duration}`,
    '--timeout',
    '5s',
    '-s',
    script,
    request.url,
    '--',
    ...scriptArgs,
  ];
}

export function runWrk(request: WrkRequest): Promise<WrkResult> {
  const args = wrkArguments(request);
  const [command, commandArgs] =
    request.cpu === undefined ? ['wrk', args] : ['taskset', ['-c', String(request.cpu), 'wrk', ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    trackChild(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', (error) => reject(new Error(`wrk could not start: ${error.message}`)));
    child.once('exit', (code) => {
      const line = stdout.split('\n').find((candidate) => candidate.startsWith(RESULT_PREFIX));
      if (code !== 0 || !line) {
        reject(
          new Error(
            `wrk ${args.join(' ')} exited with ${code}: ${(stderr || stdout).trim().split('\n')[0].slice(0, 300)}`,
          ),
        );
        return;
      }
      const raw = JSON.parse(line.slice(RESULT_PREFIX.length)) as {
        requests: number;
        duration_us: number;
        bytes: number;
        errors: WrkResult['errors'];
        latency_us: WrkResult['latencyUs'];
      };
      const durationSec = raw.duration_us / 1e6;
      resolve({
        requests: raw.requests,
        durationSec,
        requestsPerSec: raw.requests / durationSec,
        bytes: raw.bytes,
        errors: raw.errors,
        latencyUs: raw.latency_us,
      });
    });
  });
}
