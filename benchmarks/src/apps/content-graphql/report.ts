/** Tables and ratios of a content-graphql benchmark run, as console text and as the Markdown section of the doc. */
import { formatMB, formatMs, formatRps } from '../../report/format';
import { median, spreadPercent } from '../../report/statistics';
import { renderMarkdownTable, renderTextTable, type Column } from '../../report/text-table';
import type { MachineInfo } from '../../runner/results';
import type { VariantMeasurement } from './measure';
import { CACHED_CPU_TARGET_US, type Ratio, type Variant } from './variants';

export interface ContentBenchRun {
  startedAt: string;
  settings: {
    rounds: number;
    durationSec: number;
    warmupSec: number;
    connections: number;
    serverCpu: number | undefined;
    clientCpu: number | undefined;
    database: string;
  };
  machine: MachineInfo;
  /** The servers measured, in the order of the table, and the ratios reported between them. */
  variants: Array<Pick<Variant, 'id' | 'label'>>;
  ratios: Ratio[];
  measurements: VariantMeasurement[];
  failures: string[];
  /** Whether every server gave the same answer body, byte for byte. */
  sameAnswers: boolean;
}

interface Row {
  label: string;
  rounds: number;
  rps: number;
  spread: number;
  cpuUs: number;
  busy: number;
  p50: number;
  p99: number;
  rss: number;
  errors: number;
}

function rows(run: ContentBenchRun): Row[] {
  return run.variants.flatMap((variant) => {
    const own = run.measurements.filter((m) => m.variant === variant.id);
    if (!own.length) return [];
    return [
      {
        label: variant.label,
        rounds: own.length,
        rps: median(own.map((m) => m.requestsPerSec)),
        spread: spreadPercent(own.map((m) => m.requestsPerSec)),
        cpuUs: median(own.map((m) => m.cpuUsPerRequest)),
        busy: median(own.map((m) => m.serverCpuPercent)),
        p50: median(own.map((m) => m.p50Ms)),
        p99: median(own.map((m) => m.p99Ms)),
        rss: Math.max(...own.map((m) => m.peakRssMB)),
        errors: own.reduce((sum, m) => sum + m.errors, 0),
      },
    ];
  });
}

const COLUMNS: Column<Row>[] = [
  { header: 'server', align: 'left', value: (r) => r.label },
  { header: 'req/s (median)', align: 'right', value: (r) => formatRps(r.rps) },
  {
    header: 'spread',
    align: 'right',
    value: (r) => (r.rounds > 1 && Number.isFinite(r.spread) ? `±${(r.spread / 2).toFixed(1)}%` : '—'),
  },
  { header: 'server CPU µs/req', align: 'right', value: (r) => (Number.isFinite(r.cpuUs) ? r.cpuUs.toFixed(1) : '—') },
  {
    header: 'server CPU busy',
    align: 'right',
    value: (r) => (Number.isFinite(r.busy) ? `${r.busy.toFixed(0)}%` : '—'),
  },
  { header: 'p50 ms', align: 'right', value: (r) => formatMs(r.p50) },
  { header: 'p99 ms', align: 'right', value: (r) => formatMs(r.p99) },
  { header: 'peak RSS MB', align: 'right', value: (r) => formatMB(r.rss) },
  { header: 'errors', align: 'right', value: (r) => String(r.errors) },
];

export interface RatioResult {
  name: string;
  rps: number | undefined;
  cpu: number | undefined;
  target: number;
  on: 'rps' | 'cpu';
  informational: boolean;
  met: boolean;
}

/** Median over rounds of the per-round ratio (drift that hits both servers of a round cancels out); CPU ratio is denominator / numerator. */
export function ratios(run: ContentBenchRun): RatioResult[] {
  const paired = (a: string, b: string, value: (m: VariantMeasurement) => number) => {
    const top = new Map(run.measurements.filter((m) => m.variant === a).map((m) => [m.round, value(m)]));
    const bottom = new Map(run.measurements.filter((m) => m.variant === b).map((m) => [m.round, value(m)]));
    const values = [...top].filter(([round]) => bottom.has(round)).map(([round, v]) => v / bottom.get(round)!);
    return values.length ? median(values) : undefined;
  };
  return run.ratios
    .map((ratio) => {
      const rps = paired(ratio.numerator, ratio.denominator, (m) => m.requestsPerSec);
      const cpuInverse = paired(ratio.denominator, ratio.numerator, (m) => m.cpuUsPerRequest);
      const measured = ratio.on === 'rps' ? rps : cpuInverse;
      return {
        name: ratio.name,
        rps,
        cpu: cpuInverse,
        target: ratio.target,
        on: ratio.on,
        informational: ratio.informational === true,
        met: measured !== undefined && measured >= ratio.target,
      };
    })
    .filter((ratio) => ratio.rps !== undefined || ratio.cpu !== undefined);
}

/** The cached path's CPU per request (median over rounds) against its absolute target, when it was measured. */
function cachedCpuLine(run: ContentBenchRun): string | undefined {
  const own = run.measurements.filter((m) => m.variant === 'rest-uws-cached');
  if (!own.length) return undefined;
  const cpu = median(own.map((m) => m.cpuUsPerRequest));
  return `cached, server CPU per request: ${cpu.toFixed(1)} µs; target under ${CACHED_CPU_TARGET_US} µs: ${cpu < CACHED_CPU_TARGET_US ? 'met' : 'MISSED'}`;
}

function ratioLine(ratio: RatioResult): string {
  const x = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(2)}x`);
  const measured = `${ratio.name}: ${x(ratio.rps)} the requests per second (${x(ratio.cpu)} less CPU per request)`;
  if (ratio.informational) return `${measured}; no target (a check, within the run's noise)`;
  const target = `target ${ratio.target}x ${ratio.on === 'rps' ? 'the requests per second' : 'less CPU per request'}`;
  return `${measured}; ${target}: ${ratio.met ? 'met' : 'MISSED'}`;
}

export function renderConsole(run: ContentBenchRun): string {
  const lines = [renderTextTable(COLUMNS, rows(run)), '', 'ratios (median of per-round ratios):'];
  for (const ratio of ratios(run)) lines.push(`  ${ratioLine(ratio)}`);
  const cached = cachedCpuLine(run);
  if (cached) lines.push(`  ${cached}`);
  lines.push(`answers byte for byte identical across servers: ${run.sameAnswers ? 'yes' : 'NO'}`);
  for (const failure of run.failures) lines.push(`FAILED: ${failure}`);
  return lines.join('\n');
}

export function renderMarkdown(run: ContentBenchRun, note?: string): string {
  const s = run.settings;
  const m = run.machine;
  const lines = [
    `Run of ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC: ${s.rounds} round(s) interleaving the ${run.variants.length} servers, ${s.durationSec} s measured after ${s.warmupSec} s of warm-up, ` +
      `${s.connections} keep-alive connections, 1 wrk thread; server on CPU ${s.serverCpu ?? 'any'}, wrk on CPU ${s.clientCpu ?? 'any'}; database ${s.database}. ` +
      `Machine: ${m.cpuCount} × ${m.cpuModel}, Node ${m.node}, 1-min load average at start ${m.loadAverageAtStart.toFixed(2)}.`,
    '',
  ];
  if (note) lines.push(`> ${note}`, '');
  lines.push(renderMarkdownTable(COLUMNS, rows(run)), '');
  for (const ratio of ratios(run)) lines.push(`- ${ratioLine(ratio)}`);
  const cached = cachedCpuLine(run);
  if (cached) lines.push(`- ${cached}`);
  lines.push(`- Answers byte for byte identical across the servers: ${run.sameAnswers ? 'yes' : 'no'}.`);
  for (const failure of run.failures) lines.push(`- Failed: ${failure}`);
  return lines.join('\n');
}
