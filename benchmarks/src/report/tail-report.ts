/**
 * The tail against raw uWebSockets.js: for every scenario measured with one request per write, each server's p99 and
 * p99.9 as a multiple of raw's, paired by round (slice by slice in sliced rounds) like the throughput ratios.
 * Pipelined rows have none: wrk times batches there.
 */
import type { BenchmarkRun } from '../runner/results';
import { pairedRatio, serverLabel } from './summarize';

export interface TailRow {
  server: string;
  scenario: number;
  p99Ratio: number | undefined;
  p999Ratio: number | undefined;
}

export function tailRatios(run: BenchmarkRun, rawServer: string): TailRow[] {
  const rows: TailRow[] = [];
  if (!run.settings.servers.includes(rawServer)) return rows;
  for (const scenario of run.settings.scenarios)
    for (const server of run.settings.servers) {
      if (server === rawServer) continue;
      if (!run.measurements.some((m) => m.server === server && m.scenario === scenario && m.mode === 'plain')) continue;
      rows.push({
        server,
        scenario,
        p99Ratio: pairedRatio(run.measurements, server, rawServer, scenario, 'plain', (m) => m.p99Ms),
        p999Ratio: pairedRatio(run.measurements, server, rawServer, scenario, 'plain', (m) => m.p999Ms ?? Number.NaN),
      });
    }
  return rows;
}

const times = (ratio: number | undefined) =>
  ratio === undefined || !Number.isFinite(ratio) ? '—' : `${ratio.toFixed(2)}x`;

export function tailLines(run: BenchmarkRun, rawServer: string, label = serverLabel): string[] {
  return tailRatios(run, rawServer).map(
    (row) =>
      `#${row.scenario} ${label(row.server).padEnd(34)} p99 ${times(row.p99Ratio).padStart(6)}   p99.9 ${times(row.p999Ratio).padStart(6)}`,
  );
}
