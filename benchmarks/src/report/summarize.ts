/**
 * Turns the rounds of a run into report rows: median requests per second with the spread across rounds,
 * median latencies, peak RSS, and the ratio to raw uWebSockets.js (the median of the per-round ratios,
 * so drift that hits both servers of a round cancels out).
 */
import type { BenchmarkRun, Measurement, Mode } from '../runner/results';
import type { ScenarioId } from '../scenarios/scenario';
import { BASELINE_SUFFIX, RAW_SERVER_ID, SERVERS } from '../servers/registry';
import { maximum, median, minimum, spreadPercent } from './statistics';

export interface ResultRow {
  server: string;
  serverLabel: string;
  scenario: ScenarioId;
  mode: Mode;
  rounds: number;
  rpsMedian: number;
  rpsMin: number;
  rpsMax: number;
  spreadPct: number;
  p50Ms: number;
  p99Ms: number;
  /** Median 99.9th percentile (NaN for runs recorded before it was kept). */
  p999Ms: number;
  /** Median server CPU µs per request, and its ratio to raw uWebSockets.js's (median of per-round ratios). */
  cpuUsPerRequest: number;
  cpuRatioToRaw: number | undefined;
  serverCpuPercent: number;
  peakRssMB: number;
  /** Median over rounds of this server's req/s divided by raw uWebSockets.js's in the same round. */
  ratioToRaw: number | undefined;
  errors: number;
}

export interface StartupRow {
  server: string;
  serverLabel: string;
  rounds: number;
  bootMs: number;
  startupMs: number;
  lifetimePeakRssMB: number;
}

export function serverLabel(id: string): string {
  const base = id.endsWith(BASELINE_SUFFIX) ? id.slice(0, -BASELINE_SUFFIX.length) : id;
  const label = SERVERS.find((server) => server.id === base)?.label ?? base;
  return base === id ? label : `${label} (before)`;
}

/**
 * Median over the rounds both servers ran of `numerator`'s value divided by `denominator`'s. In a sliced round
 * (both rows with as many slices) each slice is paired with the other server's slice of the same turn, taken
 * seconds apart: a change of the machine's speed within the round then spoils one pair, not the round's ratio.
 */
export function pairedRatio(
  measurements: Measurement[],
  numerator: string,
  denominator: string,
  scenario: ScenarioId,
  mode: Mode,
  value: (measurement: Measurement) => number = (measurement) => measurement.requestsPerSec,
): number | undefined {
  const pick = (server: string) =>
    new Map(
      measurements
        .filter((m) => m.server === server && m.scenario === scenario && m.mode === mode)
        .map((m) => [m.round, m]),
    );
  const top = pick(numerator);
  const bottom = pick(denominator);
  const ratios: number[] = [];
  for (const [round, upper] of top) {
    const lower = bottom.get(round);
    if (lower === undefined) continue;
    const slices = upper.slices;
    const lowerSlices = lower.slices;
    if (
      slices !== undefined &&
      lowerSlices !== undefined &&
      slices.length > 1 &&
      slices.length === lowerSlices.length
    ) {
      slices.forEach((slice, i) =>
        ratios.push(value({ ...upper, ...slice }) / value({ ...lower, ...lowerSlices[i]! })),
      );
    } else {
      ratios.push(value(upper) / value(lower));
    }
  }
  return ratios.length ? median(ratios) : undefined;
}

export function summarize(run: BenchmarkRun): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const mode of run.settings.modes) {
    for (const scenario of run.settings.scenarios) {
      for (const server of run.settings.servers) {
        const own = run.measurements.filter((m) => m.server === server && m.scenario === scenario && m.mode === mode);
        if (own.length === 0) continue;
        const rps = own.map((m) => m.requestsPerSec);
        rows.push({
          server,
          serverLabel: serverLabel(server),
          scenario,
          mode,
          rounds: own.length,
          rpsMedian: median(rps),
          rpsMin: minimum(rps),
          rpsMax: maximum(rps),
          spreadPct: spreadPercent(rps),
          p50Ms: median(own.map((m) => m.p50Ms)),
          p99Ms: median(own.map((m) => m.p99Ms)),
          p999Ms: median(own.map((m) => m.p999Ms ?? Number.NaN)),
          cpuUsPerRequest: median(own.map((m) => m.cpuUsPerRequest)),
          cpuRatioToRaw:
            server === RAW_SERVER_ID
              ? 1
              : pairedRatio(run.measurements, server, RAW_SERVER_ID, scenario, mode, (m) => m.cpuUsPerRequest),
          serverCpuPercent: median(own.map((m) => m.serverCpuPercent)),
          peakRssMB: maximum(own.map((m) => m.peakRssMB)),
          ratioToRaw:
            server === RAW_SERVER_ID ? 1 : pairedRatio(run.measurements, server, RAW_SERVER_ID, scenario, mode),
          errors: own.reduce((sum, m) => sum + m.statusErrors + m.socketErrors, 0),
        });
      }
    }
  }
  return rows;
}

export function summarizeStartups(run: BenchmarkRun): StartupRow[] {
  return run.settings.servers
    .map((server) => {
      const own = run.startups.filter((record) => record.server === server);
      return {
        server,
        serverLabel: serverLabel(server),
        rounds: own.length,
        bootMs: median(own.map((record) => record.bootMs)),
        startupMs: median(own.map((record) => record.startupMs)),
        lifetimePeakRssMB: maximum(own.map((record) => record.lifetimePeakRssMB)),
      };
    })
    .filter((row) => row.rounds > 0);
}
