/** The run's figures: medians over rounds per scenario and layout, as a console table and as the docs' Markdown. */
import type { MachineInfo } from '../../runner/results';
import { describeLayout, type Layout } from './layouts';
import type { Measurement, Scenario } from './measure';

export interface BookingBenchRun {
  startedAt: string;
  finishedAt?: string;
  command: string;
  settings: {
    rounds: number;
    durationSec: number;
    warmupSec: number;
    connections: number;
    engine: string;
    serverCpu: number | undefined;
    clientCpu: number | undefined;
    seededBookings: number;
  };
  machine: MachineInfo;
  layouts: Layout[];
  measurements: Measurement[];
  failures: string[];
}

const SCENARIO_TITLES: Record<Scenario, string> = {
  read: 'GET /booking/{id}',
  'create-capture': 'create + capture (POST /booking, PUT /booking/{id})',
};

function median(values: number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface SummaryRow {
  scenario: Scenario;
  layout: Layout;
  rounds: number;
  requestsPerSec: number;
  capturesPerSec?: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerRequest: number;
  serverCpuPercent: number;
  peakRssMB: number;
  errors: number;
  loadAverages: number[];
  perRound: number[];
}

export function summarize(run: BookingBenchRun): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const scenario of ['read', 'create-capture'] as Scenario[]) {
    for (const layout of run.layouts) {
      const of = run.measurements.filter((m) => m.scenario === scenario && m.layout === layout.id);
      if (of.length === 0) continue;
      const key: (m: Measurement) => number =
        scenario === 'create-capture' ? (m) => m.capturesPerSec ?? NaN : (m) => m.requestsPerSec;
      rows.push({
        scenario,
        layout,
        rounds: of.length,
        requestsPerSec: median(of.map((m) => m.requestsPerSec)),
        ...(scenario === 'create-capture' ? { capturesPerSec: median(of.map((m) => m.capturesPerSec ?? NaN)) } : {}),
        p50Ms: median(of.map((m) => m.p50Ms)),
        p99Ms: median(of.map((m) => m.p99Ms)),
        cpuUsPerRequest: median(of.map((m) => m.cpuUsPerRequest)),
        serverCpuPercent: median(of.map((m) => m.serverCpuPercent)),
        peakRssMB: Math.max(...of.map((m) => m.peakRssMB)),
        errors: of.reduce((sum, m) => sum + m.errors, 0),
        loadAverages: of.flatMap((m) => [m.loadAverageBefore, m.loadAverageAfter]),
        perRound: of.map(key),
      });
    }
  }
  return rows;
}

const whole = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '-' : Math.round(value).toLocaleString('en-US');
const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const range = (values: number[]) => `${fixed(Math.min(...values))}–${fixed(Math.max(...values))}`;

export function renderConsole(run: BookingBenchRun): string {
  const lines = summarize(run).map((row) =>
    [
      SCENARIO_TITLES[row.scenario].padEnd(52),
      describeLayout(row.layout).padEnd(28),
      `${whole(row.requestsPerSec).padStart(7)} req/s`,
      row.capturesPerSec !== undefined ? `${whole(row.capturesPerSec).padStart(6)} bookings/s` : ''.padStart(17),
      `p99 ${fixed(row.p99Ms, 2)} ms`,
      `cpu ${fixed(row.cpuUsPerRequest)} µs/req`,
      `errors ${row.errors}`,
      `load ${range(row.loadAverages)}`,
    ].join('  '),
  );
  return [...lines, ...run.failures.map((failure) => `FAILED: ${failure}`)].join('\n');
}

export function renderMarkdown(run: BookingBenchRun, note?: string): string {
  const { settings, machine } = run;
  const rows = summarize(run);
  const table = [
    '| Scenario | Deployment | requests/s | bookings/s (create+capture) | p50 ms | p99 ms | server CPU µs/request | server CPU % | peak RSS MB | errors | load average (1 min) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${SCENARIO_TITLES[row.scenario]} | ${describeLayout(row.layout)} | ${whole(row.requestsPerSec)} | ${row.capturesPerSec !== undefined ? whole(row.capturesPerSec) : '-'} | ${fixed(row.p50Ms, 2)} | ${fixed(row.p99Ms, 2)} | ${fixed(row.cpuUsPerRequest)} | ${fixed(row.serverCpuPercent, 0)} | ${fixed(row.peakRssMB, 0)} | ${row.errors} | ${range(row.loadAverages)} |`,
    ),
  ];
  const perRound = rows.map(
    (row) => `${SCENARIO_TITLES[row.scenario]}, ${describeLayout(row.layout)}: ${row.perRound.map(whole).join(', ')}`,
  );
  const pinning =
    settings.serverCpu === undefined
      ? 'not pinned to cores'
      : `server on core ${settings.serverCpu}, wrk on core ${settings.clientCpu}`;
  return [
    ...(note ? [note, ''] : []),
    `Run ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC: \`${run.command}\``,
    `${machine.cpuCount} × ${machine.cpuModel}, Node ${machine.node}, ${machine.wrk}, ${settings.engine}; ${settings.rounds} round(s) of ${settings.durationSec} s after ${settings.warmupSec} s of warm-up, ${settings.connections} connections, one wrk thread, ${pinning}; medians over rounds; ${settings.seededBookings} bookings read at random (a third UNCAPTURED, the rest COMPLETED).`,
    '',
    ...table,
    '',
    `Per round: ${perRound.join('; ')}.`,
    ...(run.failures.length ? ['', `Failures: ${run.failures.join('; ')}`] : []),
  ].join('\n');
}
