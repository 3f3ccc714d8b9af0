/** The soak's tables: per interval and per target, as console text and as the Markdown of docs/reliability/long-load.md. */
import { formatRps } from '../report/format';
import { renderMarkdownTable, renderTextTable, type Column } from '../report/text-table';
import type { IntervalSample, SoakRun, TargetRun } from './soak-results';

const fixed = (value: number | undefined, digits: number) =>
  value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : '—';

export function intervalColumns(run: TargetRun): Column<IntervalSample>[] {
  const columns: Column<IntervalSample>[] = [
    { header: 't (s)', align: 'right', value: (sample) => String(Math.round(sample.elapsedSec)) },
    { header: 'req/s', align: 'right', value: (sample) => formatRps(sample.requestsPerSec) },
    { header: 'errors', align: 'right', value: (sample) => String(sample.errors) },
    { header: 'RSS MB', align: 'right', value: (sample) => fixed(sample.rssMB, 1) },
    { header: 'peak RSS MB', align: 'right', value: (sample) => fixed(sample.peakRssMB, 1) },
    { header: 'server CPU', align: 'right', value: (sample) => `${fixed(sample.serverCpuPercent, 0)}%` },
    { header: 'load avg', align: 'right', value: (sample) => fixed(sample.loadAverage1m, 1) },
  ];
  if (run.samples.some((sample) => sample.streaming)) {
    columns.push(
      { header: 'sessions ok', align: 'right', value: (sample) => String(sample.streaming?.completed ?? 0) },
      { header: 'sessions failed', align: 'right', value: (sample) => String(sample.streaming?.failed ?? 0) },
      { header: 'phrases', align: 'right', value: (sample) => String(sample.streaming?.phrases ?? 0) },
      { header: 'translation p95 ms', align: 'right', value: (sample) => fixed(sample.streaming?.translationP95Ms, 0) },
    );
  }
  return columns;
}

export const summaryColumns: Column<TargetRun>[] = [
  { header: 'target', align: 'left', value: (run) => run.target },
  {
    header: 'minutes',
    align: 'right',
    value: (run) => fixed(run.samples.reduce((total, sample) => total + sample.wrk.durationSec, 0) / 60, 1),
  },
  { header: 'requests', align: 'right', value: (run) => run.totalRequests.toLocaleString('en-US') },
  { header: 'mean req/s', align: 'right', value: (run) => formatRps(run.meanRequestsPerSec) },
  { header: 'errors', align: 'right', value: (run) => String(run.verdict.errors) },
  { header: 'idle RSS MB', align: 'right', value: (run) => fixed(run.idleRssMB, 1) },
  {
    header: 'RSS after warm-up MB',
    align: 'right',
    value: (run) => `${fixed(run.verdict.rss.minMB, 1)}-${fixed(run.verdict.rss.maxMB, 1)}`,
  },
  { header: 'RSS slope MB/min', align: 'right', value: (run) => fixed(run.verdict.rss.slopeMBPerMin, 2) },
  { header: 'RSS largest rise MB', align: 'right', value: (run) => fixed(run.verdict.rss.riseMB, 1) },
  {
    header: 'load avg',
    align: 'right',
    value: (run) => `${fixed(run.loadAverage.min, 1)}-${fixed(run.loadAverage.max, 1)}`,
  },
  { header: 'verdict', align: 'left', value: (run) => (run.verdict.pass ? 'PASS' : 'FAIL') },
];

/** Requests sent per kind over the whole run, e.g. "list 12,345, create 3,210". */
export function mixSummary(run: TargetRun): string {
  const sent: Record<string, number> = {};
  const refused: Record<string, number> = {};
  for (const sample of run.samples) {
    for (const [kind, count] of Object.entries(sample.wrk.sent)) sent[kind] = (sent[kind] ?? 0) + count;
    for (const [kind, count] of Object.entries(sample.wrk.refused)) refused[kind] = (refused[kind] ?? 0) + count;
  }
  const kinds = Object.keys(sent).sort((a, b) => sent[b] - sent[a]);
  if (kinds.length === 0) return '';
  return kinds
    .map(
      (kind) =>
        `${kind} ${sent[kind].toLocaleString('en-US')}${refused[kind] ? ` (${refused[kind].toLocaleString('en-US')} refused as expected)` : ''}`,
    )
    .join(', ');
}

function streamingSummary(run: TargetRun): string {
  const totals = run.samples.reduce(
    (total, sample) => ({
      completed: total.completed + (sample.streaming?.completed ?? 0),
      failed: total.failed + (sample.streaming?.failed ?? 0),
      phrases: total.phrases + (sample.streaming?.phrases ?? 0),
    }),
    { completed: 0, failed: 0, phrases: 0 },
  );
  if (!run.samples.some((sample) => sample.streaming)) return '';
  const p95s = run.samples.map((sample) => sample.streaming?.translationP95Ms ?? NaN).filter(Number.isFinite);
  return (
    `WebSocket sessions: ${totals.completed} completed, ${totals.failed} failed, ${totals.phrases} translated phrases` +
    (p95s.length
      ? `; per-interval p95 from end of phrase to its translation ${Math.min(...p95s).toFixed(0)}-${Math.max(...p95s).toFixed(0)} ms`
      : '')
  );
}

export function renderConsoleReport(soak: SoakRun): string {
  const parts: string[] = [];
  for (const run of soak.targets) {
    parts.push(`\n${run.target}: ${run.label}\n${run.description}\n`);
    parts.push(renderTextTable(intervalColumns(run), run.samples));
    const mix = mixSummary(run);
    if (mix) parts.push(`\nrequests sent: ${mix}`);
    const streaming = streamingSummary(run);
    if (streaming) parts.push(streaming);
    if (run.serverStderrTail) parts.push(`\nserver stderr (last lines):\n${run.serverStderrTail}`);
    parts.push('');
    parts.push(...run.verdict.lines);
  }
  parts.push(`\nSummary\n\n${renderTextTable(summaryColumns, soak.targets)}`);
  return parts.join('\n');
}

/** The generated block of one target in docs/reliability/long-load.md. */
export function renderTargetMarkdown(soak: SoakRun, run: TargetRun, chartLink: string): string {
  const when = run.startedAt.replace('T', ' ').replace(/:\d\d\.\d+Z$/, ' UTC');
  const pinning = run.serverCpu === undefined ? 'server not pinned' : `server on CPU ${run.serverCpu}`;
  const wrk =
    `wrk ${run.wrk.threads} thread(s), ${run.wrk.connections} connection(s)` +
    (run.wrk.pipeline > 1 ? `, ${run.wrk.pipeline} requests per write` : '') +
    (run.wrk.requestsPerSecLimit ? `, at most ${run.wrk.requestsPerSecLimit} req/s` : ', as fast as answered') +
    (run.clientCpu === undefined ? '' : ` on CPU ${run.clientCpu}`);
  const lines = [
    `#### ${run.target}: ${run.label}`,
    '',
    `Run of ${when}: ${run.description}. ${wrk}; ${pinning}. Machine: ${soak.machine.cpuCount} × ${soak.machine.cpuModel}, Node ${soak.machine.node}, ` +
      `${soak.machine.wrk}; 1-minute load average ${run.loadAverage.min.toFixed(1)}-${run.loadAverage.max.toFixed(1)} during the run.`,
    '',
    `Command: \`${soak.command}\``,
    '',
    `![${run.target}: RSS and requests per second over time](${chartLink})`,
    '',
    renderMarkdownTable(summaryColumns, [run]),
    '',
  ];
  const mix = mixSummary(run);
  if (mix) lines.push(`Requests sent: ${mix}.`, '');
  const streaming = streamingSummary(run);
  if (streaming) lines.push(`${streaming}.`, '');
  if (run.abortedReason) lines.push(`Stopped early: ${run.abortedReason}`, '');
  if (run.thresholdsReason)
    lines.push(
      `RSS criterion of this target: slope at most ${run.thresholds.maxSlopeMBPerMin} MB/min, rise at most ${run.thresholds.maxRiseMB} MB: ${run.thresholdsReason}`,
      '',
    );
  lines.push('```', ...run.verdict.lines, '```', '');
  lines.push(
    '<details><summary>Every interval</summary>',
    '',
    renderMarkdownTable(intervalColumns(run), run.samples),
    '',
    '</details>',
  );
  return lines.join('\n');
}
