/**
 * One measurement: wrk processes (one per target URL, the connections split between them) load the running app
 * processes after a discarded warm-up, while their CPU time and RSS are read from /proc. Requests per second add up
 * over the wrk processes; the load average is read before and after, since other work on the machine shows there.
 */
import * as os from 'node:os';
import { readCpuSeconds } from '../../runner/cpu-time';
import { sampleMemory } from '../../runner/memory-sampler';
import type { AppProcess } from './app-process';
import { runBookingWrk, type BookingWrkResult } from './booking-wrk';

export type Scenario = 'read' | 'create-capture';

export interface LoadSettings {
  durationSec: number;
  warmupSec: number;
  /** Connections in all, split over the wrk processes. */
  connections: number;
  /** Core of the wrk processes (undefined: not pinned). */
  clientCpu: number | undefined;
  key: string;
  bodyFile: string;
  idsFile: string;
}

export interface Measurement {
  scenario: Scenario;
  layout: string;
  round: number;
  requestsPerSec: number;
  requests: number;
  /** create-capture: bookings created and captured per second (each is two requests). */
  capturesPerSec?: number;
  createsPerSec?: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU (all app processes, all threads) per request, and over wall time (100% = one core). */
  cpuUsPerRequest: number;
  serverCpuPercent: number;
  peakRssMB: number;
  /** Non-2xx answers and socket errors (wrk), and flow answers of the wrong kind (script). */
  errors: number;
  firstFailure?: string;
  loadAverageBefore: number;
  loadAverageAfter: number;
}

function wrkRequests(scenario: Scenario, targets: string[], load: LoadSettings, durationSec: number) {
  const perTarget = Math.max(1, Math.floor(load.connections / targets.length));
  return targets.map((url) => ({
    script: scenario === 'read' ? ('read-booking.lua' as const) : ('create-capture.lua' as const),
    url,
    scriptArgs:
      scenario === 'read' ? [`key=${load.key}`, `ids=${load.idsFile}`] : [`key=${load.key}`, `body=${load.bodyFile}`],
    connections: perTarget,
    durationSec,
    cpu: load.clientCpu,
  }));
}

export async function measure(
  scenario: Scenario,
  layout: string,
  round: number,
  apps: AppProcess[],
  targets: string[],
  load: LoadSettings,
): Promise<Measurement> {
  if (load.warmupSec > 0) await Promise.all(wrkRequests(scenario, targets, load, load.warmupSec).map(runBookingWrk));
  const loadAverageBefore = os.loadavg()[0]!;
  const samplers = apps.map((app) => sampleMemory(app.pid));
  const cpuBefore = apps.reduce((sum, app) => sum + readCpuSeconds(app.pid), 0);
  let results: BookingWrkResult[];
  let peakRssMB: number;
  try {
    results = await Promise.all(wrkRequests(scenario, targets, load, load.durationSec).map(runBookingWrk));
  } finally {
    peakRssMB = samplers.reduce((sum, sampler) => sum + sampler.stop(), 0);
  }
  const cpuSeconds = apps.reduce((sum, app) => sum + readCpuSeconds(app.pid), 0) - cpuBefore;
  for (const app of apps)
    if (!app.alive()) throw new Error(`an app process exited during the load:\n${app.output().slice(-2000)}`);
  const durationSec = Math.max(...results.map((result) => result.durationSec));
  const requests = results.reduce((sum, result) => sum + result.requests, 0);
  const wrkErrors = results.reduce((sum, result) => sum + Object.values(result.errors).reduce((a, b) => a + b, 0), 0);
  const flows = results.map((result) => result.flow).filter((flow) => flow !== undefined);
  const captured = flows.reduce((sum, flow) => sum + flow.captured, 0);
  const created = flows.reduce((sum, flow) => sum + flow.created, 0);
  const flowFailed = flows.reduce((sum, flow) => sum + flow.failed, 0);
  const firstFailure = flows.find((flow) => flow.firstFailure)?.firstFailure;
  // Latency percentiles of the first wrk process (all targets are loaded alike).
  const latency = results[0]!.latencyUs;
  return {
    scenario,
    layout,
    round,
    requestsPerSec: requests / durationSec,
    requests,
    ...(scenario === 'create-capture'
      ? { capturesPerSec: captured / durationSec, createsPerSec: created / durationSec }
      : {}),
    p50Ms: latency.p50 / 1000,
    p99Ms: latency.p99 / 1000,
    cpuUsPerRequest: requests > 0 ? (cpuSeconds * 1e6) / requests : NaN,
    serverCpuPercent: (cpuSeconds / durationSec) * 100,
    peakRssMB,
    errors: wrkErrors + flowFailed,
    ...(firstFailure ? { firstFailure } : {}),
    loadAverageBefore,
    loadAverageAfter: os.loadavg()[0]!,
  };
}
