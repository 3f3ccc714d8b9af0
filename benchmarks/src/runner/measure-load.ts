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
export async function measureLoad(pid: number, request: WrkRequest, warmupSec: number, beforeMeasuring?: () => Promise<void>): Promise<LoadMeasurement> {
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
