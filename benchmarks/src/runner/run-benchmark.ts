/**
 * One benchmark run: rounds interleave the servers (A B C ... A B C ...) so machine drift spreads over all
 * of them. Per round and server: start the process, check every scenario answers right, then per scenario
 * and mode warm up (discarded) and measure with wrk while sampling the server's RSS; then stop it.
 */
import * as path from 'node:path';
import type { Scenario } from '../scenarios/scenario';
import { type ServerDefinition, unavailableReason } from '../servers/registry';
import { describeMachine } from './machine-info';
import { measureLoad } from './measure-load';
import type { BenchmarkRun, Failure, Measurement, Mode, RunSettings, StartupRecord } from './results';
import { readProcessStatus } from './process-status';
import { type RunningServer, startServer } from './server-process';
import type { WrkRequest } from './wrk';

export interface RunInput {
  settings: RunSettings;
  servers: ServerDefinition[];
  scenarios: Scenario[];
  staticDir: string;
  /** When set, every server runs under `node --cpu-prof`, writing into <profileDir>/<server>/. */
  profileDir?: string;
  log: (line: string) => void;
}

function modesFor(scenario: Scenario, modes: Mode[]): Mode[] {
  return modes.filter((mode) => mode === 'plain' || scenario.pipelined);
}

/** Seconds the run will take, roughly (server start-up not counted). */
export function estimateSeconds(settings: RunSettings, servers: number, scenarios: Scenario[]): number {
  const measured = scenarios.reduce((sum, scenario) => sum + modesFor(scenario, settings.modes).length, 0);
  return settings.rounds * servers * measured * (settings.durationSec + settings.warmupSec);
}

async function measure(
  server: RunningServer,
  scenario: Scenario,
  mode: Mode,
  round: number,
  settings: RunSettings,
): Promise<Measurement> {
  const request: WrkRequest = {
    url: `${server.baseUrl}${scenario.path}`,
    method: scenario.method,
    headers: scenario.headers,
    bodyFile: scenario.bodyFile,
    pipeline: mode === 'pipelined' ? settings.pipeline : 1,
    connections: settings.connections,
    durationSec: settings.durationSec,
    cpu: settings.clientCpu,
  };
  let stateBefore: unknown;
  const load = await measureLoad(server.pid, request, settings.warmupSec, async () => {
    stateBefore = await scenario.stateBeforeLoad?.(server.baseUrl);
  });
  if (!server.alive()) throw new Error(`the server exited during the load\n${server.stderrTail()}`);
  const result = load.result;
  await scenario.checkAfterLoad?.(server.baseUrl, result.requests, stateBefore);
  const errors = result.errors;
  return {
    server: server.definition.id,
    scenario: scenario.id,
    mode,
    round,
    requestsPerSec: result.requestsPerSec,
    requests: result.requests,
    cpuUsPerRequest: load.cpuUsPerRequest,
    serverCpuPercent: load.serverCpuPercent,
    p50Ms: result.latencyUs.p50 / 1000,
    p99Ms: result.latencyUs.p99 / 1000,
    peakRssMB: load.peakRssMB,
    statusErrors: errors.status,
    socketErrors: errors.connect + errors.read + errors.write + errors.timeout,
  };
}

export async function runBenchmark(input: RunInput): Promise<BenchmarkRun> {
  const { settings, scenarios, log } = input;
  const startedAt = new Date().toISOString();
  const machine = describeMachine();
  const unavailable: BenchmarkRun['unavailable'] = [];
  const servers = input.servers.filter((server) => {
    const reason = unavailableReason(server);
    if (reason) {
      unavailable.push({ server: server.id, reason });
      log(`skip ${server.id}: ${reason}`);
    }
    return !reason;
  });
  const measurements: Measurement[] = [];
  const startups: StartupRecord[] = [];
  const failures: Failure[] = [];

  for (let round = 1; round <= settings.rounds; round++) {
    for (const definition of servers) {
      let server: RunningServer;
      try {
        const nodeFlags = input.profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.join(input.profileDir, definition.id)] : [];
        server = await startServer(definition, { cpu: settings.serverCpu, nodeFlags, env: { BENCH_STATIC_DIR: input.staticDir }, timeoutMs: 30_000 });
      } catch (error) {
        failures.push({ server: definition.id, round, message: (error as Error).message });
        log(`round ${round} ${definition.id}: FAILED to start: ${(error as Error).message}`);
        continue;
      }
      const startup: StartupRecord = { server: definition.id, round, bootMs: server.bootMs, startupMs: server.startupMs, lifetimePeakRssMB: NaN };
      startups.push(startup);
      try {
        for (const scenario of scenarios) {
          try {
            await scenario.check(server.baseUrl);
          } catch (error) {
            failures.push({ server: definition.id, scenario: scenario.id, round, message: `wrong answer: ${(error as Error).message}` });
            log(`round ${round} ${definition.id} #${scenario.id} ${scenario.key}: WRONG ANSWER, not measured: ${(error as Error).message}`);
            continue;
          }
          for (const mode of modesFor(scenario, settings.modes)) {
            try {
              const measurement = await measure(server, scenario, mode, round, settings);
              measurements.push(measurement);
              const errors = measurement.statusErrors + measurement.socketErrors;
              log(
                `round ${round} ${definition.id.padEnd(19)} #${scenario.id} ${scenario.key.padEnd(7)} ${mode.padEnd(9)} ` +
                  `${Math.round(measurement.requestsPerSec).toString().padStart(8)} req/s  cpu ${measurement.cpuUsPerRequest.toFixed(1)} µs/req (${measurement.serverCpuPercent.toFixed(0)}%)  p99 ${measurement.p99Ms.toFixed(2)} ms  ` +
                  `rss ${measurement.peakRssMB.toFixed(0)} MB${errors ? `  ERRORS ${errors}` : ''}`,
              );
            } catch (error) {
              failures.push({ server: definition.id, scenario: scenario.id, mode, round, message: (error as Error).message });
              log(`round ${round} ${definition.id} #${scenario.id} ${mode}: FAILED: ${(error as Error).message}`);
              if (!server.alive()) break;
            }
          }
          if (!server.alive()) break;
        }
      } finally {
        startup.lifetimePeakRssMB = readProcessStatus(server.pid)?.hwmMB ?? NaN;
        await server.stop();
      }
    }
  }

  return { startedAt, finishedAt: new Date().toISOString(), settings, machine, unavailable, measurements, startups, failures };
}
