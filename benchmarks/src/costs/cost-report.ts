/**
 * The cost table: per row and mode, the median server CPU per request, the marginal cost against the row's
 * reference (the median over rounds of the difference measured in the same round), and the share of raw
 * uWebSockets.js's throughput a saturated core would give (raw's CPU per request over the row's, same round).
 */
import type { Mode } from '../runner/results';
import { median } from '../report/statistics';
import { type Column, renderMarkdownTable } from '../report/text-table';
import { NO_WORK_LIMIT_US, RAW_ROW } from './cost-rows';
import type { CostMeasurement, CostRun, CostVariant } from './cost-results';

export interface CostLine {
  row: string;
  feature: string;
  request: string;
  inherentWork: boolean;
  mode: Mode;
  rounds: number;
  cpuUs: number;
  /** Marginal µs per request over the reference row (undefined for the raw row and the reference itself). */
  overUs: number | undefined;
  against: string;
  ratioToRaw: number | undefined;
  before?: { cpuUs: number; overUs: number | undefined; ratioToRaw: number | undefined };
  errors: number;
  /** For features without inherent work: is the marginal cost within the goal? */
  verdict: 'ok' | 'over' | '';
}

function pick(run: CostRun, row: string, variant: CostVariant, mode: Mode): Map<number, CostMeasurement> {
  return new Map(
    run.measurements.filter((m) => m.row === row && m.variant === variant && m.mode === mode).map((m) => [m.round, m]),
  );
}

function pairedMedian(
  a: Map<number, CostMeasurement>,
  b: Map<number, CostMeasurement>,
  combine: (x: number, y: number) => number,
): number | undefined {
  const values = [...a]
    .filter(([round]) => b.has(round))
    .map(([round, m]) => combine(m.cpuUsPerRequest, b.get(round)!.cpuUsPerRequest));
  return values.length ? median(values) : undefined;
}

function figures(run: CostRun, row: CostRun['rows'][number], variant: CostVariant, mode: Mode) {
  const own = pick(run, row.id, variant, mode);
  const reference = row.id === row.against ? undefined : pick(run, row.against, variant, mode);
  // Raw uWebSockets.js runs once per round (it has no before and after).
  const raw = pick(run, RAW_ROW, 'after', mode);
  return {
    own,
    cpuUs: median([...own.values()].map((m) => m.cpuUsPerRequest)),
    overUs: reference === undefined ? undefined : pairedMedian(own, reference, (x, y) => x - y),
    ratioToRaw: row.id === RAW_ROW ? 1 : pairedMedian(raw, own, (x, y) => x / y),
  };
}

export function summarizeCosts(run: CostRun): CostLine[] {
  const lines: CostLine[] = [];
  for (const mode of run.settings.modes) {
    for (const row of run.rows) {
      const after = figures(run, row, 'after', mode);
      if (after.own.size === 0) continue;
      const before = run.baseline !== undefined && row.id !== RAW_ROW ? figures(run, row, 'before', mode) : undefined;
      lines.push({
        row: row.id,
        feature: row.feature,
        request: row.request,
        inherentWork: row.inherentWork,
        mode,
        rounds: after.own.size,
        cpuUs: after.cpuUs,
        overUs: after.overUs,
        against: row.against,
        ratioToRaw: after.ratioToRaw,
        before:
          before && before.own.size > 0
            ? { cpuUs: before.cpuUs, overUs: before.overUs, ratioToRaw: before.ratioToRaw }
            : undefined,
        errors: [...after.own.values()].reduce((sum, m) => sum + m.errors, 0),
        verdict:
          row.inherentWork || after.overUs === undefined || row.id === row.against
            ? ''
            : after.overUs <= NO_WORK_LIMIT_US
              ? 'ok'
              : 'over',
      });
    }
  }
  return lines;
}

const us = (value: number | undefined, signed = false) =>
  value === undefined || !Number.isFinite(value) ? '—' : `${signed && value >= 0 ? '+' : ''}${value.toFixed(2)}`;
const percent = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '—' : `${(value * 100).toFixed(0)}%`;

export function costColumns(withBaseline: boolean): Column<CostLine>[] {
  const columns: Column<CostLine>[] = [
    { header: 'feature', align: 'left', value: (line) => line.feature },
    { header: 'request', align: 'left', value: (line) => line.request },
    {
      header: 'inherent work',
      align: 'left',
      value: (line) => (line.row === RAW_ROW || line.row === line.against ? '' : line.inherentWork ? 'yes' : 'no'),
    },
    { header: 'CPU µs/req', align: 'right', value: (line) => us(line.cpuUs) },
    {
      header: 'µs over reference',
      align: 'right',
      value: (line) =>
        line.overUs === undefined
          ? ''
          : `${us(line.overUs, true)}${line.against === 'bare' ? '' : ` (vs ${line.against})`}`,
    },
    { header: '% of raw', align: 'right', value: (line) => percent(line.ratioToRaw) },
  ];
  if (withBaseline) {
    columns.push(
      { header: 'before: CPU µs/req', align: 'right', value: (line) => us(line.before?.cpuUs) },
      {
        header: 'before: µs over ref.',
        align: 'right',
        value: (line) => (line.before?.overUs === undefined ? '' : us(line.before.overUs, true)),
      },
      { header: 'before: % of raw', align: 'right', value: (line) => percent(line.before?.ratioToRaw) },
    );
  }
  columns.push(
    {
      header: `goal (<= ${NO_WORK_LIMIT_US} µs without inherent work)`,
      align: 'left',
      value: (line) => line.verdict.toUpperCase(),
    },
    { header: 'errors', align: 'right', value: (line) => String(line.errors) },
  );
  return columns;
}

const MODE_TITLES: Record<Mode, string> = { plain: 'Plain keep-alive', pipelined: 'Pipelined' };

export function costModeTitle(mode: Mode, pipeline: number): string {
  return mode === 'plain' ? MODE_TITLES.plain : `${MODE_TITLES.pipelined} (${pipeline} requests per write)`;
}

/** The command that reproduces the run. */
export function costCommand(run: CostRun): string {
  const s = run.settings;
  const baseline = run.baseline === undefined ? '' : ` --baseline ${run.baseline}`;
  return `npm run bench -- --costs --modes ${s.modes.join(',')} --rounds ${s.rounds} --duration ${s.durationSec} --warmup ${s.warmupSec}${baseline}`;
}

export function renderCostSection(run: CostRun, note: string | undefined): string {
  const lines = summarizeCosts(run);
  const machine = run.machine;
  const out: string[] = [`### Cost table of ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC`, ''];
  if (note) out.push(`> ${note}`, '');
  out.push(
    `- Settings: ${run.settings.rounds} rounds interleaving the apps; ${run.settings.durationSec} s measured after ${run.settings.warmupSec} s of warm-up per row; ` +
      `${run.settings.connections} connections, 1 wrk thread; server on CPU ${run.settings.serverCpu ?? 'any'}, wrk on CPU ${run.settings.clientCpu ?? 'any'}.`,
    `- Machine: ${machine.cpuCount} × ${machine.cpuModel}; ${machine.kernel}; Node ${machine.node}; ${machine.wrk}; 1-min load average at start ${machine.loadAverageAtStart.toFixed(2)}.`,
    `- Command: \`${costCommand(run)}\``,
    '',
  );
  for (const mode of run.settings.modes) {
    const modeLines = lines.filter((line) => line.mode === mode);
    if (modeLines.length === 0) continue;
    out.push(
      `#### ${costModeTitle(mode, run.settings.pipeline)}`,
      '',
      renderMarkdownTable(costColumns(run.baseline !== undefined), modeLines),
      '',
    );
  }
  if (run.failures.length) {
    out.push('#### Failures (not measured)', '');
    for (const failure of run.failures)
      out.push(
        `- ${failure.row} ${failure.variant}${failure.mode ? ` ${failure.mode}` : ''} round ${failure.round}: ${failure.message.split('\n')[0]}`,
      );
    out.push('');
  }
  return out.join('\n');
}
