/** The columns of the results and start-up tables, shared by the console and the Markdown report. */
import type { Scenario } from '../scenarios/scenario';
import { formatMB, formatMs, formatPercent, formatRps, formatSpread } from './format';
import type { ResultRow, StartupRow } from './summarize';
import type { Column } from './text-table';

/** "2.41 (2.7x)": CPU µs per request, with the multiple of raw uWebSockets.js's. */
function formatCpu(us: number, ratio: number | undefined): string {
  if (!Number.isFinite(us)) return '—';
  return ratio === undefined || ratio === 1 ? us.toFixed(2) : `${us.toFixed(2)} (${ratio.toFixed(1)}x)`;
}

export function resultColumns(scenarios: Scenario[]): Column<ResultRow>[] {
  const scenarioName = (row: ResultRow) => {
    const scenario = scenarios.find((candidate) => candidate.id === row.scenario);
    return `#${row.scenario} ${scenario?.key ?? ''}`;
  };
  // wrk's latency figures are per batch of pipelined requests and incomplete, so pipelined rows show none.
  const latency = (row: ResultRow, value: number) => (row.mode === 'pipelined' ? '—' : formatMs(value));
  return [
    { header: 'scenario', align: 'left', value: scenarioName },
    { header: 'server', align: 'left', value: (row) => row.serverLabel },
    { header: 'req/s (median)', align: 'right', value: (row) => formatRps(row.rpsMedian) },
    { header: 'spread', align: 'right', value: (row) => (row.rounds > 1 ? formatSpread(row.spreadPct) : '—') },
    { header: 'vs raw uWS', align: 'right', value: (row) => formatPercent(row.ratioToRaw) },
    { header: 'p50 ms', align: 'right', value: (row) => latency(row, row.p50Ms) },
    { header: 'p99 ms', align: 'right', value: (row) => latency(row, row.p99Ms) },
    { header: 'p99.9 ms', align: 'right', value: (row) => latency(row, row.p999Ms) },
    { header: 'server CPU µs/req', align: 'right', value: (row) => formatCpu(row.cpuUsPerRequest, row.cpuRatioToRaw) },
    {
      header: 'server CPU busy',
      align: 'right',
      value: (row) => (Number.isFinite(row.serverCpuPercent) ? `${row.serverCpuPercent.toFixed(0)}%` : '—'),
    },
    { header: 'peak RSS MB', align: 'right', value: (row) => formatMB(row.peakRssMB) },
    { header: 'errors', align: 'right', value: (row) => String(row.errors) },
  ];
}

export const startupColumns: Column<StartupRow>[] = [
  { header: 'server', align: 'left', value: (row) => row.serverLabel },
  { header: 'build app, 1,000+ routes (ms)', align: 'right', value: (row) => formatMs(row.bootMs) },
  { header: 'process start to listening (ms)', align: 'right', value: (row) => formatMs(row.startupMs) },
  { header: 'peak RSS over the run (VmHWM) MB', align: 'right', value: (row) => formatMB(row.lifetimePeakRssMB) },
  { header: 'rounds', align: 'right', value: (row) => String(row.rounds) },
];
