/**
 * The generated part of docs/benchmarks/results.md: settings, machine, result tables per mode, start-up, targets,
 * servers that could not run and measurements that failed. It replaces the block between the two markers
 * of the run's machine type in the doc (report/doc-blocks.ts), so the hand-written method and analysis around it stay.
 */
import { type BenchmarkRun, type Mode, type RunSettings, isSliced } from '../runner/results';
import type { Scenario } from '../scenarios/scenario';
import { resultColumns, startupColumns } from './result-columns';
import { summarize, summarizeStartups } from './summarize';
import { formatTargetLine, type TargetResult } from './targets';
import { renderMarkdownTable } from './text-table';

const MODE_TITLES: Record<Mode, string> = {
  plain: 'Plain keep-alive (one request per write)',
  pipelined: 'Pipelined (10 requests per write)',
};

export interface MarkdownInput {
  run: BenchmarkRun;
  scenarios: Scenario[];
  targets: TargetResult[];
  /** Chart files per mode, as links relative to the doc. */
  chartLinks: Partial<Record<Mode, string>>;
  /** Said above the tables (e.g. "the machine was shared by other work"). */
  note?: string;
}

function sliceText(settings: RunSettings): string {
  return isSliced(settings)
    ? `the servers of a round running at once, taking the measured time in turns of ${settings.sliceSec} s (A B C, C B A, ...)`
    : 'each server alone for its whole duration, one after the other';
}

export function renderResultsSection(input: MarkdownInput): string {
  const { run, scenarios } = input;
  const settings = run.settings;
  const machine = run.machine;
  const rows = summarize(run);
  const lines: string[] = [];
  lines.push(`### Run of ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC`);
  lines.push('');
  if (input.note) lines.push(`> ${input.note}`, '');
  lines.push(
    `- Settings: ${settings.rounds} round(s) interleaving the servers; ${settings.durationSec} s measured after ${settings.warmupSec} s of discarded warm-up; ` +
      `${sliceText(settings)}; ` +
      `${settings.connections} keep-alive connections, 1 wrk thread; pipelined mode writes ${settings.pipeline} requests at once.`,
  );
  lines.push(
    `- Pinning: server on CPU ${settings.serverCpu ?? 'any'}, wrk on CPU ${settings.clientCpu ?? 'any'} (taskset). ` +
      `Machine: ${machine.cpuCount} × ${machine.cpuModel}; ${machine.kernel}; Node ${machine.node}; ${machine.wrk}; 1-min load average at start ${machine.loadAverageAtStart.toFixed(2)}.`,
  );
  lines.push(
    `- Command: \`npm run bench -- --servers ${settings.servers.join(',')} --scenarios ${settings.scenarios.join(',')} --modes ${settings.modes.join(',')} --rounds ${settings.rounds} --duration ${settings.durationSec} --warmup ${settings.warmupSec} --slice ${settings.sliceSec ?? 0}\``,
  );
  lines.push('');
  for (const mode of settings.modes) {
    const modeRows = rows.filter((row) => row.mode === mode);
    if (modeRows.length === 0) continue;
    lines.push(`#### ${MODE_TITLES[mode]}`, '');
    const chart = input.chartLinks[mode];
    if (chart) lines.push(`![${MODE_TITLES[mode]}](${chart})`, '');
    lines.push(renderMarkdownTable(resultColumns(scenarios), modeRows), '');
  }
  const startups = summarizeStartups(run);
  if (startups.length) {
    lines.push('#### Start-up with 1,000 routes', '');
    lines.push(renderMarkdownTable(startupColumns, startups), '');
  }
  lines.push('#### Targets for rest.uws', '', '```', ...input.targets.map(formatTargetLine), '```', '');
  if (run.unavailable.length) {
    lines.push('#### Not run', '');
    for (const entry of run.unavailable) lines.push(`- ${entry.server}: ${entry.reason}`);
    lines.push('');
  }
  if (run.failures.length) {
    lines.push('#### Failures (not measured)', '');
    for (const failure of run.failures) {
      const where = [
        failure.server,
        failure.scenario ? `#${failure.scenario}` : '',
        failure.mode ?? '',
        `round ${failure.round}`,
      ]
        .filter(Boolean)
        .join(' ');
      lines.push(`- ${where}: ${failure.message.split('\n')[0]}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
