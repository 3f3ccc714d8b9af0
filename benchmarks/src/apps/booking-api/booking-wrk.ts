/**
 * wrk with this benchmark's own Lua scripts (the create+capture flow, random reads), one wrk thread pinned to the
 * load generator's core like the harness's runner/wrk.ts, and the same BENCH_RESULT line (lua/common.lua) parsed.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { BENCHMARKS_ROOT } from '../../paths';
import { trackChild } from '../../runner/child-processes';
import type { WrkResult } from '../../runner/wrk';

/** The Lua scripts live beside this file's source (tsc copies no .lua into dist). */
export const BOOKING_LUA_DIR = path.join(BENCHMARKS_ROOT, 'src', 'apps', 'booking-api', 'lua');

export interface BookingWrkRequest {
  script: 'create-capture.lua' | 'read-booking.lua';
  url: string;
  /** key=value arguments of the script. */
  scriptArgs: string[];
  connections: number;
  durationSec: number;
  cpu: number | undefined;
}

export interface FlowCounts {
  created: number;
  captured: number;
  failed: number;
  firstFailure: string;
}

export interface BookingWrkResult extends WrkResult {
  /** The create+capture script's own counts (undefined for reads). */
  flow?: FlowCounts;
}

export function runBookingWrk(request: BookingWrkRequest): Promise<BookingWrkResult> {
  const args = [
    '-t1',
    `-c${request.connections}`,
    `-d${Math.max(1, Math.round(request.durationSec))}s`,
    '--timeout',
    '5s',
    '-s',
    path.join(BOOKING_LUA_DIR, request.script),
    request.url,
    '--',
    ...request.scriptArgs,
  ];
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
      const line = (prefix: string) =>
        stdout
          .split('\n')
          .find((candidate) => candidate.startsWith(prefix))
          ?.slice(prefix.length);
      const result = line('BENCH_RESULT ');
      if (code !== 0 || !result) {
        reject(new Error(`wrk ${args.join(' ')} exited with ${code}: ${(stderr || stdout).trim().slice(0, 500)}`));
        return;
      }
      const raw = JSON.parse(result) as {
        requests: number;
        duration_us: number;
        bytes: number;
        errors: WrkResult['errors'];
        latency_us: WrkResult['latencyUs'];
      };
      const durationSec = raw.duration_us / 1e6;
      const flow = line('BOOKING_FLOW ');
      resolve({
        requests: raw.requests,
        durationSec,
        requestsPerSec: raw.requests / durationSec,
        bytes: raw.bytes,
        errors: raw.errors,
        latencyUs: raw.latency_us,
        ...(flow ? { flow: JSON.parse(flow) as FlowCounts } : {}),
      });
    });
  });
}
