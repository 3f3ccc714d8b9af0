/** The raw record of one benchmark run: every measurement of every round, kept as JSON next to the report. */
import type { ScenarioId } from '../scenarios/scenario';

export type Mode = 'plain' | 'pipelined';
export const ALL_MODES: Mode[] = ['plain', 'pipelined'];

/** One slice of a sliced round (`--slice`): what its own wrk run measured. */
export interface SliceMeasurement {
  requestsPerSec: number;
  cpuUsPerRequest: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms?: number;
}

export interface Measurement {
  server: string;
  scenario: ScenarioId;
  mode: Mode;
  round: number;
  requestsPerSec: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** wrk's 99.9th percentile (absent from runs recorded before it was kept). */
  p999Ms?: number;
  /** Server CPU time (user + system) per answered request, in microseconds. */
  cpuUsPerRequest: number;
  /** Server CPU time over wall time while wrk ran: near 100% the server is the bottleneck, well below it wrk is. */
  serverCpuPercent: number;
  /** Highest VmRSS sampled while wrk ran. */
  peakRssMB: number;
  /** Non-2xx/3xx answers, and socket errors and timeouts, as wrk counted them (a clean run has 0). */
  statusErrors: number;
  socketErrors: number;
  /** The slices this row adds up, in the order taken, when the round was sliced (absent otherwise). */
  slices?: SliceMeasurement[];
}

export interface StartupRecord {
  server: string;
  round: number;
  bootMs: number;
  startupMs: number;
  /** Peak RSS over the server's whole life in the round (VmHWM, read just before stopping it). */
  lifetimePeakRssMB: number;
}

export interface Failure {
  server: string;
  scenario?: ScenarioId;
  mode?: Mode;
  round: number;
  message: string;
}

export interface RunSettings {
  servers: string[];
  scenarios: ScenarioId[];
  modes: Mode[];
  rounds: number;
  durationSec: number;
  warmupSec: number;
  /**
   * Seconds per slice when a round hands the measured time to the servers in turn (0: each server alone for the
   * whole duration). Absent in runs recorded before slices existed, which ran each server alone.
   */
  sliceSec?: number;
  connections: number;
  pipeline: number;
  serverCpu: number | undefined;
  clientCpu: number | undefined;
}

export interface MachineInfo {
  cpuModel: string;
  cpuCount: number;
  node: string;
  kernel: string;
  wrk: string;
  /** 1-minute load average when the run started: other work on the machine shows here. */
  loadAverageAtStart: number;
}

/** Whether the rounds are cut into slices (a slice as long as the duration is no slicing). */
export function isSliced(settings: RunSettings): boolean {
  const slice = settings.sliceSec ?? 0;
  return slice > 0 && slice < settings.durationSec;
}

/** The discarded warm-up each turn of a sliced round starts with. */
export function turnWarmupSec(settings: RunSettings): number {
  return Math.min(1, settings.warmupSec);
}

export interface BenchmarkRun {
  startedAt: string;
  finishedAt: string;
  settings: RunSettings;
  machine: MachineInfo;
  /** Servers asked for that could not run here, with why. */
  unavailable: { server: string; reason: string }[];
  measurements: Measurement[];
  startups: StartupRecord[];
  failures: Failure[];
}
