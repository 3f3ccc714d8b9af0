/** Runs one interval of wrk with a soak script (lua/soak/) and reads the script's SOAK_RESULT line. */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { LUA_DIR } from '../paths';
import { trackChild } from '../runner/child-processes';
import type { WrkIntervalCounts } from './soak-results';

export const SOAK_LUA_DIR = path.join(LUA_DIR, 'soak');

/** How a target loads its server with wrk (the same for every interval). */
export interface WrkPlan {
  /** File name in lua/soak/. */
  script: string;
  /** Base URL (http://127.0.0.1:port); the scripts build their paths. */
  url: string;
  threads: number;
  connections: number;
  /** Requests written at once per connection (1 = one at a time). */
  pipeline: number;
  /** Overall request rate the script holds itself to with wrk's delay(); undefined = as fast as possible. */
  requestsPerSecLimit: number | undefined;
  /** key=value arguments for the script (after `--`); duration= and state= are added by the runner. */
  scriptArgs: string[];
  /** File the script keeps its state in between intervals (ids, tokens), or undefined. */
  stateFile: string | undefined;
}

const RESULT_PREFIX = 'SOAK_RESULT ';

export function soakWrkArguments(plan: WrkPlan, durationSec: number): string[] {
  const args = [...plan.scriptArgs, `duration=${durationSec}`];
  if (plan.stateFile) args.push(`state=${plan.stateFile}`);
  if (plan.requestsPerSecLimit)
    args.push(`delay_ms=${((plan.connections * 1000) / plan.requestsPerSecLimit).toFixed(2)}`);
  return [
    `-t${plan.threads}`,
    `-c${plan.connections}`,
    `-d${durationSec}s`,
    '--timeout',
    '5s',
    '-s',
    path.join(SOAK_LUA_DIR, plan.script),
    plan.url,
    '--',
    ...args,
  ];
}

interface RawResult {
  requests: number;
  duration_us: number;
  socket_errors: WrkIntervalCounts['socketErrorDetail'];
  status_errors: number;
  latency_us: WrkIntervalCounts['latencyUs'];
  sent: Record<string, number>;
  ok: Record<string, number>;
  refused: Record<string, number>;
  failed: Record<string, number>;
  samples: string[];
}

export function parseSoakResult(stdout: string): WrkIntervalCounts | undefined {
  const line = stdout.split('\n').find((candidate) => candidate.startsWith(RESULT_PREFIX));
  if (!line) return undefined;
  const raw = JSON.parse(line.slice(RESULT_PREFIX.length)) as RawResult;
  const socket = raw.socket_errors;
  return {
    requests: raw.requests,
    durationSec: raw.duration_us / 1e6,
    socketErrors: socket.connect + socket.read + socket.write + socket.timeout,
    socketErrorDetail: socket,
    wrkStatusErrors: raw.status_errors,
    sent: raw.sent,
    ok: raw.ok,
    refused: raw.refused,
    failed: raw.failed,
    samples: raw.samples,
    latencyUs: raw.latency_us,
    scriptErrors: [],
  };
}

export function runSoakWrk(plan: WrkPlan, durationSec: number, cpu: number | undefined): Promise<WrkIntervalCounts> {
  const args = soakWrkArguments(plan, durationSec);
  const [command, commandArgs] = cpu === undefined ? ['wrk', args] : ['taskset', ['-c', String(cpu), 'wrk', ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    trackChild(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', (error) => reject(new Error(`wrk could not start: ${error.message}`)));
    child.once('exit', (code, signal) => {
      const result = code === 0 ? parseSoakResult(stdout) : undefined;
      if (!result) {
        const why = (stderr || stdout).trim().split('\n').slice(-3).join(' | ').slice(0, 400);
        reject(new Error(`wrk ${args.join(' ')} exited with ${code ?? signal}: ${why}`));
        return;
      }
      // wrk prints Lua errors to stderr and carries on: a broken script must not pass for a clean interval.
      resolve({ ...result, scriptErrors: stderr.trim() ? stderr.trim().split('\n').slice(0, 10) : [] });
    });
  });
}
