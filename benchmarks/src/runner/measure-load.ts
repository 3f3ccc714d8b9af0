/**
 * One measurement under load: wrk's warm-up (discarded), then wrk again while the server's CPU time is read from
 * /proc before and after and its RSS sampled. Shared by the scenario runs and the cost table.
 */
import { readCpuSeconds } from './cpu-time';
import { sampleMemory } from './memory-sampler';
import { runWrk, type WrkRequest, type WrkResult } from './wrk';

export interface LoadMeasurement {
  result: WrkResult;
  /** Server CPU seconds (user + system) spent while wrk measured. */
  cpuSeconds: number;
  cpuUsPerRequest: number;
  serverCpuPercent: number;
  peakRssMB: number;
}

/** `request.durationSec` is the measured time; `warmupSec` of the same load runs before it. */
export async function measureLoad(
  pid: number,
  request: WrkRequest,
  warmupSec: number,
  beforeMeasuring?: () => Promise<void>,
): Promise<LoadMeasurement> {
  if (warmupSec > 0) await runWrk({ ...request, durationSec: warmupSec });
  await beforeMeasuring?.();
  const sampler = sampleMemory(pid);
  const cpuBefore = readCpuSeconds(pid);
  let result: WrkResult;
  let peakRssMB: number;
  try {
    result = await runWrk(request);
  } finally {
    peakRssMB = sampler.stop();
  }
  const cpuSeconds = readCpuSeconds(pid) - cpuBefore;
  return {
    result,
    cpuSeconds,
    cpuUsPerRequest: result.requests > 0 ? (cpuSeconds * 1e6) / result.requests : NaN,
    serverCpuPercent: (cpuSeconds / result.durationSec) * 100,
    peakRssMB,
  };
}

/**
 * Several measurements of one server and load taken as one (the slices of a round): requests, bytes, errors and
 * CPU time add up, RSS takes the peak, and latency percentiles are the slices' own weighted by their requests (an
 * approximation of the pooled percentile, close when the slices' distributions are alike).
 */
export function combineLoads(loads: readonly LoadMeasurement[]): LoadMeasurement {
  if (loads.length === 1) return loads[0]!;
  if (loads.length === 0) throw new Error('no slice was measured');
  const sum = (pick: (load: LoadMeasurement) => number) => loads.reduce((total, load) => total + pick(load), 0);
  const requests = sum((load) => load.result.requests);
  const durationSec = sum((load) => load.result.durationSec);
  const cpuSeconds = sum((load) => load.cpuSeconds);
  const weighted = (pick: (latency: WrkResult['latencyUs']) => number) =>
    requests > 0 ? sum((load) => pick(load.result.latencyUs) * load.result.requests) / requests : NaN;
  const error = (pick: (errors: WrkResult['errors']) => number) => sum((load) => pick(load.result.errors));
  return {
    result: {
      requests,
      durationSec,
      requestsPerSec: requests / durationSec,
      bytes: sum((load) => load.result.bytes),
      errors: {
        connect: error((errors) => errors.connect),
        read: error((errors) => errors.read),
        write: error((errors) => errors.write),
        status: error((errors) => errors.status),
        timeout: error((errors) => errors.timeout),
      },
      latencyUs: {
        mean: weighted((latency) => latency.mean),
        p50: weighted((latency) => latency.p50),
        p90: weighted((latency) => latency.p90),
        p99: weighted((latency) => latency.p99),
        p999: weighted((latency) => latency.p999),
        max: Math.max(...loads.map((load) => load.result.latencyUs.max)),
      },
    },
    cpuSeconds,
    cpuUsPerRequest: requests > 0 ? (cpuSeconds * 1e6) / requests : NaN,
    serverCpuPercent: (cpuSeconds / durationSec) * 100,
    peakRssMB: Math.max(...loads.map((load) => load.peakRssMB)),
  };
}
