/** `--baseline`: this build's rest.uws against another commit's, paired by round (same load, same noise). */
import type { BenchmarkRun } from '../runner/results';
import { BASELINE_SERVER_ID, REST_UWS_SERVER_ID } from '../servers/registry';
import { pairedRatio } from './summarize';

/** One line per scenario and mode: req/s and CPU per request of rest.uws over the baseline's (median of per-round ratios). */
export function baselineComparisonLines(run: BenchmarkRun): string[] {
  const lines: string[] = [];
  for (const mode of run.settings.modes) {
    for (const scenario of run.settings.scenarios) {
      const rps = pairedRatio(run.measurements, REST_UWS_SERVER_ID, BASELINE_SERVER_ID, scenario, mode);
      if (rps === undefined) continue;
      const cpu = pairedRatio(run.measurements, REST_UWS_SERVER_ID, BASELINE_SERVER_ID, scenario, mode, (m) => m.cpuUsPerRequest);
      const perRound = run.measurements
        .filter((m) => m.scenario === scenario && m.mode === mode && (m.server === REST_UWS_SERVER_ID || m.server === BASELINE_SERVER_ID))
        .sort((a, b) => a.round - b.round || a.server.localeCompare(b.server))
        .map((m) => `r${m.round} ${m.server === REST_UWS_SERVER_ID ? 'this' : 'base'} ${Math.round(m.requestsPerSec)}`)
        .join(', ');
      lines.push(`#${scenario} ${mode.padEnd(9)} req/s ${(rps * 100).toFixed(1)}% of baseline, CPU/request ${cpu === undefined ? '-' : `${(cpu * 100).toFixed(1)}%`} (${perRound})`);
    }
  }
  return lines;
}
