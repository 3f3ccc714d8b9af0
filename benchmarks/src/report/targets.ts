/**
 * Issue 8's targets for rest.uws; issue 21's for the idiomatic server (written from the getting-started guide) and
 * for scenario 3; issue 20's for the server with every plugin registered and unused (within 3% of the bench app's
 * server on scenario 1): checked against a run, each prints PASS, FAIL, or SKIP (with why).
 */
import type { BenchmarkRun, Mode } from '../runner/results';
import type { ScenarioId } from '../scenarios/scenario';
import {
  FASTIFY_SERVER_ID,
  IDIOMATIC_SERVER_ID,
  PLUGINS_SERVER_ID,
  RAW_SERVER_ID,
  REST_UWS_SERVER_ID,
} from '../servers/registry';
import { maximum, median } from './statistics';
import { pairedRatio } from './summarize';

export interface TargetResult {
  target: string;
  status: 'PASS' | 'FAIL' | 'SKIP';
  detail: string;
}

const RSS_LIMIT_MB = 120;

/**
 * Below this share of a CPU (median over the rounds), a server was not what limited its throughput: wrk was (a host
 * busy with other work slows the client too). A ratio of req/s then compares the client's pace, not the servers.
 */
const CPU_BOUND_PERCENT = 95;

function medianBusy(run: BenchmarkRun, server: string, scenario: ScenarioId, mode: Mode): number {
  return median(
    run.measurements
      .filter((m) => m.server === server && m.scenario === scenario && m.mode === mode)
      .map((m) => m.serverCpuPercent),
  );
}

function ratioTarget(
  run: BenchmarkRun,
  target: string,
  versus: string,
  scenario: ScenarioId,
  mode: Mode,
  atLeast: number,
  server = REST_UWS_SERVER_ID,
): TargetResult {
  const ratio = pairedRatio(run.measurements, server, versus, scenario, mode);
  if (ratio === undefined)
    return { target, status: 'SKIP', detail: `no round measured both ${server} and ${versus} on #${scenario} ${mode}` };
  const show = (r: number) =>
    versus === RAW_SERVER_ID ? `${(r * 100).toFixed(1)}% of raw` : `${r.toFixed(2)}x ${versus}`;
  const busy = medianBusy(run, server, scenario, mode);
  const versusBusy = medianBusy(run, versus, scenario, mode);
  if (busy < CPU_BOUND_PERCENT || versusBusy < CPU_BOUND_PERCENT) {
    // What the servers would serve when each is the bottleneck: the inverse ratio of their CPU per request.
    const cpuRatio = pairedRatio(run.measurements, versus, server, scenario, mode, (m) => m.cpuUsPerRequest)!;
    const why = `not CPU-bound (${versus} busy ${versusBusy.toFixed(0)}%, ${server} ${busy.toFixed(0)}%), so judged by CPU per request: ${show(cpuRatio)}`;
    return { target, status: cpuRatio >= atLeast ? 'PASS' : 'FAIL', detail: `${show(ratio)} req/s, ${why}` };
  }
  return { target, status: ratio >= atLeast ? 'PASS' : 'FAIL', detail: show(ratio) };
}

export function evaluateTargets(run: BenchmarkRun): TargetResult[] {
  const results: TargetResult[] = [];
  for (const scenario of [1, 2] as ScenarioId[])
    results.push(
      ratioTarget(run, `plain #${scenario} >= 85% of raw uWS req/s`, RAW_SERVER_ID, scenario, 'plain', 0.85),
    );
  for (const scenario of [3, 5] as ScenarioId[])
    results.push(
      ratioTarget(run, `plain #${scenario} >= 75% of raw uWS req/s`, RAW_SERVER_ID, scenario, 'plain', 0.75),
    );
  for (const scenario of [1, 2, 3] as ScenarioId[])
    results.push(
      ratioTarget(run, `plain #${scenario} >= 1.7x Fastify req/s`, FASTIFY_SERVER_ID, scenario, 'plain', 1.7),
    );
  for (const scenario of [1, 2] as ScenarioId[])
    results.push(
      ratioTarget(run, `pipelined #${scenario} >= 60% of raw uWS req/s`, RAW_SERVER_ID, scenario, 'pipelined', 0.6),
    );
  for (const scenario of [1, 2] as ScenarioId[]) {
    results.push(
      ratioTarget(
        run,
        `idiomatic plain #${scenario} >= 90% of raw uWS req/s`,
        RAW_SERVER_ID,
        scenario,
        'plain',
        0.9,
        IDIOMATIC_SERVER_ID,
      ),
    );
  }
  results.push(ratioTarget(run, 'plain #3 >= 90% of raw uWS req/s', RAW_SERVER_ID, 3, 'plain', 0.9));
  results.push(ratioTarget(run, 'pipelined #3 >= 85% of raw uWS req/s', RAW_SERVER_ID, 3, 'pipelined', 0.85));
  for (const mode of ['plain', 'pipelined'] as Mode[]) {
    results.push(
      ratioTarget(
        run,
        `every plugin unused, ${mode} #1 >= 97% of rest.uws req/s`,
        REST_UWS_SERVER_ID,
        1,
        mode,
        0.97,
        PLUGINS_SERVER_ID,
      ),
    );
  }

  const p99Target = 'plain #1 p99 <= 1.25x raw uWS p99';
  const p99Ratio = pairedRatio(run.measurements, REST_UWS_SERVER_ID, RAW_SERVER_ID, 1, 'plain', (m) => m.p99Ms);
  results.push(
    p99Ratio === undefined
      ? { target: p99Target, status: 'SKIP', detail: 'no round measured both on #1 plain' }
      : { target: p99Target, status: p99Ratio <= 1.25 ? 'PASS' : 'FAIL', detail: `${p99Ratio.toFixed(2)}x raw` },
  );

  const rssTarget = `server RSS under load < ${RSS_LIMIT_MB} MB`;
  const peak = maximum(run.measurements.filter((m) => m.server === REST_UWS_SERVER_ID).map((m) => m.peakRssMB));
  results.push(
    Number.isNaN(peak)
      ? { target: rssTarget, status: 'SKIP', detail: `${REST_UWS_SERVER_ID} not measured` }
      : { target: rssTarget, status: peak < RSS_LIMIT_MB ? 'PASS' : 'FAIL', detail: `peak ${peak.toFixed(1)} MB` },
  );
  return results;
}

export function formatTargetLine(result: TargetResult): string {
  return `${result.status.padEnd(4)}  ${result.target}: ${result.detail}`;
}
