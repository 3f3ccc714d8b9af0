/**
 * One benchmark run: rounds interleave the servers (A B C ... A B C ...) so machine drift spreads over all
 * of them. By default (`--slice S`) a round runs every server at once and, per scenario and mode, hands the
 * measured time to them in slices taken in turn (roundBySlices); with `--slice 0` each server runs alone for
 * the round: start it, check every scenario answers right, warm up and measure each, stop it (roundByServer).
 * Either way wrk measures while the server's CPU time is read from /proc and its RSS sampled.
 */
import * as path from 'node:path';
import type { Scenario } from '../scenarios/scenario';
import { type ServerDefinition, unavailableReason } from '../servers/registry';
import { describeMachine } from './machine-info';
import { combineLoads, type LoadMeasurement, measureLoad } from './measure-load';
import {
  type BenchmarkRun,
  type Failure,
  type Measurement,
  type Mode,
  type RunSettings,
  type StartupRecord,
  isSliced,
  turnWarmupSec,
} from './results';
import { readProcessStatus } from './process-status';
import { type RunningServer, startServer } from './server-process';
import { runWrk, type WrkRequest } from './wrk';

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
  if (scenario.modes) return scenario.modes;
  return modes.filter((mode) => mode === 'plain' || scenario.pipelined);
}

/** Seconds the run will take, roughly (server start-up not counted). */
export function estimateSeconds(settings: RunSettings, servers: number, scenarios: Scenario[]): number {
  const measured = scenarios.reduce((sum, scenario) => sum + modesFor(scenario, settings.modes).length, 0);
  const turns = isSliced(settings) ? sliceDurations(settings.durationSec, settings.sliceSec!).length : 0;
  return (
    settings.rounds * servers * measured * (settings.durationSec + settings.warmupSec + turns * turnWarmupSec(settings))
  );
}

function wrkRequest(
  server: RunningServer,
  scenario: Scenario,
  mode: Mode,
  settings: RunSettings,
  durationSec: number,
): WrkRequest {
  return {
    url: `${server.baseUrl}${scenario.path}`,
    method: scenario.method,
    headers: scenario.headers,
    bodyFile: scenario.bodyFile,
    pipeline: mode === 'pipelined' ? settings.pipeline : 1,
    connections: settings.connections,
    durationSec,
    cpu: settings.clientCpu,
  };
}

function toMeasurement(
  server: RunningServer,
  scenario: Scenario,
  mode: Mode,
  round: number,
  load: LoadMeasurement,
): Measurement {
  const result = load.result;
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
    p999Ms: result.latencyUs.p999 / 1000,
    peakRssMB: load.peakRssMB,
    statusErrors: errors.status,
    socketErrors: errors.connect + errors.read + errors.write + errors.timeout,
  };
}

function logMeasurement(
  log: (line: string) => void,
  round: number,
  scenario: Scenario,
  measurement: Measurement,
): void {
  const errors = measurement.statusErrors + measurement.socketErrors;
  log(
    `round ${round} ${measurement.server.padEnd(19)} #${scenario.id} ${scenario.key.padEnd(7)} ${measurement.mode.padEnd(9)} ` +
      `${Math.round(measurement.requestsPerSec).toString().padStart(8)} req/s  cpu ${measurement.cpuUsPerRequest.toFixed(1)} µs/req (${measurement.serverCpuPercent.toFixed(0)}%)  p99 ${measurement.p99Ms.toFixed(2)} ms  ` +
      `rss ${measurement.peakRssMB.toFixed(0)} MB${errors ? `  ERRORS ${errors}` : ''}`,
  );
}

async function measure(
  server: RunningServer,
  scenario: Scenario,
  mode: Mode,
  round: number,
  settings: RunSettings,
): Promise<Measurement> {
  let stateBefore: unknown;
  const load = await measureLoad(
    server.pid,
    wrkRequest(server, scenario, mode, settings, settings.durationSec),
    settings.warmupSec,
    async () => {
      stateBefore = await scenario.stateBeforeLoad?.(server.baseUrl);
    },
  );
  if (!server.alive()) throw new Error(`the server exited during the load\n${server.stderrTail()}`);
  await scenario.checkAfterLoad?.(server.baseUrl, load.result.requests, stateBefore);
  return toMeasurement(server, scenario, mode, round, load);
}

/** What one round shares: where measurements, start-ups and failures go. */
interface RoundContext {
  input: RunInput;
  round: number;
  measurements: Measurement[];
  startups: StartupRecord[];
  failures: Failure[];
}

interface Started {
  server: RunningServer;
  startup: StartupRecord;
}

async function start(context: RoundContext, definition: ServerDefinition): Promise<Started | undefined> {
  const { input, round } = context;
  try {
    const nodeFlags = input.profileDir
      ? ['--cpu-prof', '--cpu-prof-dir', path.join(input.profileDir, definition.id)]
      : [];
    const server = await startServer(definition, {
      cpu: input.settings.serverCpu,
      nodeFlags,
      env: { BENCH_STATIC_DIR: input.staticDir },
      timeoutMs: 30_000,
    });
    const startup: StartupRecord = {
      server: definition.id,
      round,
      bootMs: server.bootMs,
      startupMs: server.startupMs,
      lifetimePeakRssMB: NaN,
    };
    context.startups.push(startup);
    return { server, startup };
  } catch (error) {
    context.failures.push({ server: definition.id, round, message: (error as Error).message });
    input.log(`round ${round} ${definition.id}: FAILED to start: ${(error as Error).message}`);
    return undefined;
  }
}

async function stop(started: Started): Promise<void> {
  started.startup.lifetimePeakRssMB = readProcessStatus(started.server.pid)?.hwmMB ?? NaN;
  await started.server.stop();
}

/** The scenario's answer check; a server that answers wrongly is recorded and not measured on it. */
async function answersRight(context: RoundContext, server: RunningServer, scenario: Scenario): Promise<boolean> {
  try {
    await scenario.check(server.baseUrl);
    return true;
  } catch (error) {
    const id = server.definition.id;
    context.failures.push({
      server: id,
      scenario: scenario.id,
      round: context.round,
      message: `wrong answer: ${(error as Error).message}`,
    });
    context.input.log(
      `round ${context.round} ${id} #${scenario.id} ${scenario.key}: WRONG ANSWER, not measured: ${(error as Error).message}`,
    );
    return false;
  }
}

function recordFailure(
  context: RoundContext,
  server: RunningServer,
  scenario: Scenario,
  mode: Mode,
  error: unknown,
): void {
  const id = server.definition.id;
  context.failures.push({
    server: id,
    scenario: scenario.id,
    mode,
    round: context.round,
    message: (error as Error).message,
  });
  context.input.log(`round ${context.round} ${id} #${scenario.id} ${mode}: FAILED: ${(error as Error).message}`);
}

/** One server at a time: start it, measure every scenario and mode for the whole duration, stop it. */
async function roundByServer(context: RoundContext, servers: ServerDefinition[]): Promise<void> {
  const { settings, scenarios, log } = context.input;
  for (const definition of servers) {
    const started = await start(context, definition);
    if (started === undefined) continue;
    const { server } = started;
    try {
      for (const scenario of scenarios) {
        if (!(await answersRight(context, server, scenario))) continue;
        for (const mode of modesFor(scenario, settings.modes)) {
          try {
            const measurement = await measure(server, scenario, mode, context.round, settings);
            context.measurements.push(measurement);
            logMeasurement(log, context.round, scenario, measurement);
          } catch (error) {
            recordFailure(context, server, scenario, mode, error);
            if (!server.alive()) break;
          }
        }
        if (!server.alive()) break;
      }
    } finally {
      await stop(started);
    }
  }
}

/** The measured seconds cut into slices of `sliceSec` (the last one takes the remainder). */
export function sliceDurations(durationSec: number, sliceSec: number): number[] {
  const slices: number[] = [];
  for (let left = durationSec; left > 0; left -= sliceSec) slices.push(Math.min(sliceSec, left));
  if (slices.length > 1 && slices[slices.length - 1]! < sliceSec) slices[slices.length - 2]! += slices.pop()!;
  return slices;
}

/**
 * Every server at once, idle but for the one under load: per scenario and mode, each is warmed, then the measured
 * time is cut into slices that the servers take in turn, forwards then backwards (A B C, C B A, ...), each turn
 * after a second of discarded warm-up of its own. A server and the servers it is compared with are then measured
 * seconds apart, not minutes, so a slow phase of the machine (on shared VMs they last tens of seconds) falls on
 * all of them alike instead of deciding a ratio.
 */
async function roundBySlices(context: RoundContext, servers: ServerDefinition[]): Promise<void> {
  const { settings, scenarios, log } = context.input;
  const running: Started[] = [];
  try {
    for (const definition of servers) {
      const started = await start(context, definition);
      if (started !== undefined) running.push(started);
    }
    const slices = sliceDurations(settings.durationSec, settings.sliceSec!);
    for (const scenario of scenarios) {
      const ready: RunningServer[] = [];
      for (const { server } of running)
        if (server.alive() && (await answersRight(context, server, scenario))) ready.push(server);
      for (const mode of modesFor(scenario, settings.modes)) {
        const states = new Map<RunningServer, unknown>();
        const loads = new Map<RunningServer, LoadMeasurement[]>();
        const failed = new Set<RunningServer>();
        const attempt = async (server: RunningServer, step: () => Promise<void>) => {
          if (failed.has(server)) return;
          try {
            await step();
            if (!server.alive()) throw new Error(`the server exited during the load\n${server.stderrTail()}`);
          } catch (error) {
            failed.add(server);
            recordFailure(context, server, scenario, mode, error);
          }
        };
        for (const server of ready) {
          await attempt(server, async () => {
            if (settings.warmupSec > 0) await runWrk(wrkRequest(server, scenario, mode, settings, settings.warmupSec));
            states.set(server, await scenario.stateBeforeLoad?.(server.baseUrl));
            loads.set(server, []);
          });
        }
        for (let slice = 0; slice < slices.length; slice++) {
          const order = slice % 2 === 0 ? ready : [...ready].reverse();
          for (const server of order) {
            await attempt(server, async () => {
              // A server idle while the others took their turns runs slower for a moment (seen in every round of the first
              // sliced runs, in its first slice most): each turn starts with a second of the same load, discarded.
              const load = await measureLoad(
                server.pid,
                wrkRequest(server, scenario, mode, settings, slices[slice]!),
                turnWarmupSec(settings),
              );
              loads.get(server)!.push(load);
              log(
                `  slice ${slice + 1}/${slices.length} ${server.definition.id.padEnd(19)} #${scenario.id} ${mode.padEnd(9)} ${Math.round(load.result.requestsPerSec).toString().padStart(8)} req/s  cpu ${load.cpuUsPerRequest.toFixed(1)} µs/req`,
              );
            });
          }
        }
        for (const server of ready) {
          await attempt(server, async () => {
            const load = combineLoads(loads.get(server)!);
            await scenario.checkAfterLoad?.(server.baseUrl, load.result.requests, states.get(server));
            const measurement = toMeasurement(server, scenario, mode, context.round, load);
            measurement.slices = loads.get(server)!.map((slice) => ({
              requestsPerSec: slice.result.requestsPerSec,
              cpuUsPerRequest: slice.cpuUsPerRequest,
              p50Ms: slice.result.latencyUs.p50 / 1000,
              p99Ms: slice.result.latencyUs.p99 / 1000,
              p999Ms: slice.result.latencyUs.p999 / 1000,
            }));
            context.measurements.push(measurement);
            logMeasurement(log, context.round, scenario, measurement);
          });
        }
      }
    }
  } finally {
    for (const started of running) await stop(started);
  }
}

export async function runBenchmark(input: RunInput): Promise<BenchmarkRun> {
  const { settings, log } = input;
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
  const sliced = isSliced(settings);
  for (let round = 1; round <= settings.rounds; round++) {
    const context: RoundContext = { input, round, measurements, startups, failures };
    if (sliced) await roundBySlices(context, servers);
    else await roundByServer(context, servers);
  }
  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    settings,
    machine,
    unavailable,
    measurements,
    startups,
    failures,
  };
}
