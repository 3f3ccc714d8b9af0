/** The columns of the results and start-up tables, shared by the console and the Markdown report. */
import type { Scenario } from '../scenarios/scenario';
import { formatMB, formatMs, formatPercent, formatRps, formatSpread } from './format';
import type { ResultRow, StartupRow } from './summarize';
import type { Column } from './text-table';

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
    { header: 'peak RSS MB', align: 'right', value: (row) => formatMB(row.peakRssMB) },
    { header: 'errors', align: 'right', value: (row) => String(row.errors) },
  ];
}

export const startupColumns: Column<StartupRow>[] = [
  { header: 'server', align: 'left', value: (row) => row.serverLabel },
  { header: 'build app, 1,000+ routes (ms)', align: 'right', value: (row) => formatMs(row.bootMs) },
  { header: 'process start to listening (ms)', align: 'right', value: (row) => formatMs(row.startupMs) },
  { header: 'rounds', align: 'right', value: (row) => String(row.rounds) },
];
