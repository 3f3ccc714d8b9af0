/**
 * The TechEmpower run's figures: per test type and variant, median req/s over rounds, the ratios to raw
 * uWebSockets.js and to Fastify with the same driver and pool (paired by round and slice), the tail (p99, p99.9, and
 * p99 as a multiple of raw's), server CPU per request; and issue 38's acceptance lines for rest.uws.
 */
import type { BenchmarkRun, Measurement } from '../runner/results';
import type { ScenarioId } from '../scenarios/scenario';
import { formatMs, formatPercent, formatRps, formatSpread } from '../report/format';
import { median, spreadPercent } from '../report/statistics';
import { pairedRatio } from '../report/summarize';
import type { Column } from '../report/text-table';
import {
  FASTIFY_IMPLEMENTATION,
  RAW_IMPLEMENTATION,
  REST_UWS_IMPLEMENTATION,
  parseVariantId,
  variantLabel,
} from './registry';
import { TEST_TYPE_KEYS } from './test-types';

export interface TechEmpowerRow {
  server: string;
  type: ScenarioId;
  mode: Measurement['mode'];
  rounds: number;
  rpsMedian: number;
  spreadPct: number;
  ratioToRaw: number | undefined;
  ratioToFastify: number | undefined;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  p99ToRaw: number | undefined;
  cpuUsPerRequest: number;
  errors: number;
}

/** The same implementation's twin with this variant's driver and pool. */
export function twinOf(server: string, implementation: string): string {
  const { driver, pool } = parseVariantId(server);
  return `${implementation}:${driver}:${pool}`;
}

export function summarizeTechEmpower(run: BenchmarkRun): TechEmpowerRow[] {
  const rows: TechEmpowerRow[] = [];
  for (const type of run.settings.scenarios)
    for (const server of run.settings.servers) {
      const own = run.measurements.filter((m) => m.server === server && m.scenario === type);
      if (own.length === 0) continue;
      const mode = own[0]!.mode;
      const against = (implementation: string, value?: (m: Measurement) => number) => {
        const twin = twinOf(server, implementation);
        if (twin === server) return 1;
        return run.settings.servers.includes(twin)
          ? pairedRatio(run.measurements, server, twin, type, mode, value)
          : undefined;
      };
      const rps = own.map((m) => m.requestsPerSec);
      rows.push({
        server,
        type,
        mode,
        rounds: own.length,
        rpsMedian: median(rps),
        spreadPct: spreadPercent(rps),
        ratioToRaw: against(RAW_IMPLEMENTATION),
        ratioToFastify: against(FASTIFY_IMPLEMENTATION),
        p50Ms: median(own.map((m) => m.p50Ms)),
        p99Ms: median(own.map((m) => m.p99Ms)),
        p999Ms: median(own.map((m) => m.p999Ms ?? Number.NaN)),
        p99ToRaw: mode === 'plain' ? against(RAW_IMPLEMENTATION, (m) => m.p99Ms) : undefined,
        cpuUsPerRequest: median(own.map((m) => m.cpuUsPerRequest)),
        errors: own.reduce((sum, m) => sum + m.statusErrors + m.socketErrors, 0),
      });
    }
  return rows;
}

const typeName = (type: ScenarioId) => `${type} ${TEST_TYPE_KEYS[type - 1]}`;
const latency = (row: TechEmpowerRow, value: number) => (row.mode === 'pipelined' ? '—' : formatMs(value));
const times = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(2)}x`;

export const TECHEMPOWER_COLUMNS: Column<TechEmpowerRow>[] = [
  { header: 'test', align: 'left', value: (row) => typeName(row.type) },
  { header: 'server, driver × pool', align: 'left', value: (row) => variantLabel(row.server) },
  { header: 'req/s (median)', align: 'right', value: (row) => formatRps(row.rpsMedian) },
  { header: 'spread', align: 'right', value: (row) => (row.rounds > 1 ? formatSpread(row.spreadPct) : '—') },
  { header: 'vs raw uWS', align: 'right', value: (row) => formatPercent(row.ratioToRaw) },
  { header: 'vs Fastify', align: 'right', value: (row) => times(row.ratioToFastify) },
  { header: 'p50 ms', align: 'right', value: (row) => latency(row, row.p50Ms) },
  { header: 'p99 ms', align: 'right', value: (row) => latency(row, row.p99Ms) },
  { header: 'p99.9 ms', align: 'right', value: (row) => latency(row, row.p999Ms) },
  { header: 'p99 vs raw', align: 'right', value: (row) => times(row.p99ToRaw) },
  {
    header: 'server CPU µs/req',
    align: 'right',
    value: (row) => (Number.isFinite(row.cpuUsPerRequest) ? row.cpuUsPerRequest.toFixed(1) : '—'),
  },
  { header: 'errors', align: 'right', value: (row) => String(row.errors) },
];

export interface AcceptanceLine {
  status: 'PASS' | 'FAIL' | 'SKIP';
  text: string;
}

/** Issue 38's acceptance for every rest.uws variant measured beside raw and Fastify with its driver and pool. */
export function acceptanceLines(rows: TechEmpowerRow[]): AcceptanceLine[] {
  const lines: AcceptanceLine[] = [];
  for (const row of rows.filter(
    (candidate) => parseVariantId(candidate.server).implementation === REST_UWS_IMPLEMENTATION,
  )) {
    const key = TEST_TYPE_KEYS[row.type - 1]!;
    const floor = key === 'json' || key === 'plaintext' ? 0.9 : 0.95;
    const check = (text: string, value: number | undefined, pass: (value: number) => boolean, shown: string) =>
      lines.push(
        value === undefined || !Number.isFinite(value)
          ? { status: 'SKIP', text: `${text}: not measured beside it` }
          : { status: pass(value) ? 'PASS' : 'FAIL', text: `${text}: ${shown}` },
      );
    const name = `${variantLabel(row.server)} ${key}`;
    check(`${name} >= ${floor * 100}% of raw uWS`, row.ratioToRaw, (v) => v >= floor, formatPercent(row.ratioToRaw, 1));
    check(`${name} >= 1.5x Fastify`, row.ratioToFastify, (v) => v >= 1.5, times(row.ratioToFastify));
    if (row.mode === 'plain') check(`${name} p99 <= 1.25x raw`, row.p99ToRaw, (v) => v <= 1.25, times(row.p99ToRaw));
  }
  return lines;
}
