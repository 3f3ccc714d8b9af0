/** `--baseline`: each rest.uws server of this build against the same server of another commit, paired by round, or slice by slice in sliced rounds (same load, same noise). */
import type { BenchmarkRun } from '../runner/results';
import { BASELINE_SUFFIX } from '../servers/registry';
import { pairedRatio, serverLabel } from './summarize';

/** One line per server, scenario and mode: req/s and CPU per request of this build over the baseline's (median of per-round ratios). */
export function baselineComparisonLines(run: BenchmarkRun): string[] {
  const lines: string[] = [];
  const pairs = run.settings.servers.filter((id) => run.settings.servers.includes(`${id}${BASELINE_SUFFIX}`));
  for (const server of pairs) {
    const baseline = `${server}${BASELINE_SUFFIX}`;
    for (const mode of run.settings.modes) {
      for (const scenario of run.settings.scenarios) {
        const rps = pairedRatio(run.measurements, server, baseline, scenario, mode);
        if (rps === undefined) continue;
        const cpu = pairedRatio(run.measurements, server, baseline, scenario, mode, (m) => m.cpuUsPerRequest);
        const perRound = run.measurements
          .filter((m) => m.scenario === scenario && m.mode === mode && (m.server === server || m.server === baseline))
          .sort((a, b) => a.round - b.round || (a.server === server ? -1 : 1))
          .map((m) => `r${m.round} ${m.server === server ? 'this' : 'base'} ${Math.round(m.requestsPerSec)}`)
          .join(', ');
        lines.push(
          `#${scenario} ${mode.padEnd(9)} ${serverLabel(server)}: req/s ${(rps * 100).toFixed(1)}% of baseline, CPU/request ${cpu === undefined ? '-' : `${(cpu * 100).toFixed(1)}%`} (${perRound})`,
        );
      }
    }
  }
  return lines;
}
