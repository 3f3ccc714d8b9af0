/**
 * One measurement of one variant: start its server pinned to a core, check that it answers the example right
 * (and byte for byte like the other servers), warm up, load it with wrk while reading its CPU time and RSS, stop it.
 */
import { readCpuSeconds } from '../../runner/cpu-time';
import { sampleMemory } from '../../runner/memory-sampler';
import { startServer } from '../../runner/server-process';
import { runWrk } from '../../runner/wrk';
import { exampleRequestBody, wrongAnswer } from './example-query';
import { benchServerEnvironment } from './server-settings';
import type { BenchDatabase } from './bench-database';
import type { Variant } from './variants';

export interface LoadSettings {
  durationSec: number;
  warmupSec: number;
  connections: number;
  serverCpu: number | undefined;
  clientCpu: number | undefined;
  bodyFile: string;
  /** Folder for `node --cpu-prof` output, when profiling. */
  profileDir?: string;
}

export interface VariantMeasurement {
  variant: string;
  round: number;
  requestsPerSec: number;
  requests: number;
  cpuUsPerRequest: number;
  serverCpuPercent: number;
  p50Ms: number;
  p99Ms: number;
  peakRssMB: number;
  errors: number;
  /** The answer body the server gave to the check request. */
  answer: string;
}

export async function measureVariant(
  variant: Variant,
  round: number,
  database: BenchDatabase,
  load: LoadSettings,
): Promise<VariantMeasurement> {
  const nodeFlags = load.profileDir ? ['--cpu-prof', '--cpu-prof-dir', `${load.profileDir}/${variant.id}`] : [];
  const server = await startServer(variant.server, {
    cpu: load.serverCpu,
    nodeFlags,
    timeoutMs: 60_000,
    env: benchServerEnvironment({
      databaseUrl: database.databaseUrl,
      assetsRoot: database.assetsRoot,
      caching: variant.caching,
    }),
  });
  try {
    const url = `${server.baseUrl}/api`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: exampleRequestBody(),
    });
    const answer = await response.text();
    if (response.status !== 200)
      throw new Error(`${variant.id}: the check request got ${response.status}: ${answer.slice(0, 300)}`);
    const wrong = wrongAnswer(JSON.parse(answer));
    if (wrong) throw new Error(`${variant.id}: wrong answer to the example query: ${wrong}`);
    const request = {
      url,
      method: 'POST' as const,
      headers: { 'Content-Type': 'application/json' },
      bodyFile: load.bodyFile,
      pipeline: 1,
      connections: load.connections,
      durationSec: load.warmupSec,
      cpu: load.clientCpu,
    };
    if (load.warmupSec > 0) await runWrk(request);
    const sampler = sampleMemory(server.pid);
    const cpuBefore = readCpuSeconds(server.pid);
    let peakRssMB: number;
    let result: Awaited<ReturnType<typeof runWrk>>;
    try {
      result = await runWrk({ ...request, durationSec: load.durationSec });
    } finally {
      peakRssMB = sampler.stop();
    }
    const cpuSeconds = readCpuSeconds(server.pid) - cpuBefore;
    if (!server.alive()) throw new Error(`${variant.id}: the server exited during the load\n${server.stderrTail()}`);
    const { errors } = result;
    return {
      variant: variant.id,
      round,
      requestsPerSec: result.requestsPerSec,
      requests: result.requests,
      cpuUsPerRequest: result.requests > 0 ? (cpuSeconds * 1e6) / result.requests : NaN,
      serverCpuPercent: (cpuSeconds / result.durationSec) * 100,
      p50Ms: result.latencyUs.p50 / 1000,
      p99Ms: result.latencyUs.p99 / 1000,
      peakRssMB,
      errors: errors.connect + errors.read + errors.write + errors.status + errors.timeout,
      answer,
    };
  } finally {
    await server.stop();
  }
}
