/**
 * `npm run bench -- --costs`: the marginal server CPU per request of each feature against the bare route.
 * Rounds interleave the apps (a fresh process each, pinned like the scenario runs); in each app every row is
 * checked, every row is loaded once (a warm-up pass), then each row is warmed up and measured in turn, starting
 * at a different row each round. With `--baseline`, every app also runs from the other checkout,
 * right after the same app of this one, so before and after share each round's conditions.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeMachine } from '../runner/machine-info';
import { measureLoad } from '../runner/measure-load';
import { runWrk, type WrkRequest } from '../runner/wrk';
import type { Mode } from '../runner/results';
import { type RunningServer, startServer } from '../runner/server-process';
import { baselineServer, findServer, type ServerDefinition } from '../servers/registry';
import { COST_APPS, type CostApp, type CostRow } from './cost-rows';
import type { CostMeasurement, CostRun, CostSettings, CostVariant } from './cost-results';

export interface CostRunInput {
  settings: CostSettings;
  rows: CostRow[];
  /** Another checkout to run every rest.uws app from as well (`--baseline`). */
  baseline: string | undefined;
  dataDir: string;
  log: (line: string) => void;
}

function appServer(app: CostApp): ServerDefinition {
  if (app === 'raw') return findServer('raw-uws');
  return { id: `costs-${app}`, label: `costs server (${app})`, file: '../costs/costs-server.js' };
}

function modesOf(row: CostRow, modes: Mode[]): Mode[] {
  return modes.filter((mode) => mode === 'plain' || row.pipelined);
}

/** Seconds of load the run will take (start-up and checks not counted). */
export function estimateCostSeconds(settings: CostSettings, rows: CostRow[], withBaseline: boolean): number {
  const copies = (row: CostRow) => (withBaseline && row.app !== 'raw' ? 2 : 1);
  const measured = rows.reduce((sum, row) => sum + modesOf(row, settings.modes).length * copies(row), 0);
  // Plus the warm-up pass over every row of an app before its measurements.
  return (
    settings.rounds *
    (measured * (settings.durationSec + settings.warmupSec) +
      rows.reduce((sum, row) => sum + copies(row), 0) * settings.warmupSec)
  );
}

function bodyFile(dataDir: string, row: CostRow): string | undefined {
  if (row.body === undefined) return undefined;
  const file = path.join(dataDir, `cost-${row.id}.body`);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, row.body);
  return file;
}

function wrkRequest(
  server: RunningServer,
  row: CostRow,
  mode: Mode,
  durationSec: number,
  input: CostRunInput,
): WrkRequest {
  return {
    url: `${server.baseUrl}${row.path}`,
    method: row.method,
    headers: row.headers,
    bodyFile: bodyFile(input.dataDir, row),
    pipeline: mode === 'pipelined' ? input.settings.pipeline : 1,
    connections: input.settings.connections,
    durationSec,
    cpu: input.settings.clientCpu,
  };
}

/** Round r measures the app's rows starting at the r-th: a row is not always measured early or late in its process. */
function rotated<T>(items: T[], round: number): T[] {
  const start = (round - 1) % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}

async function measureApp(
  server: RunningServer,
  rows: CostRow[],
  variant: CostVariant,
  round: number,
  input: CostRunInput,
  out: CostRun,
): Promise<void> {
  const { settings, log } = input;
  const checked: CostRow[] = [];
  for (const row of rows) {
    try {
      await row.check(server.baseUrl);
      checked.push(row);
    } catch (error) {
      out.failures.push({ row: row.id, variant, round, message: `wrong answer: ${(error as Error).message}` });
      log(`round ${round} ${variant} ${row.id}: WRONG ANSWER, not measured: ${(error as Error).message}`);
    }
  }
  // Every route of the app runs before any is measured: the shared request path's code is then as optimized (and
  // as polymorphic) for the first row measured as for the last, instead of the rows measured later paying more.
  if (settings.warmupSec > 0 && checked.length > 1) {
    for (const row of checked)
      await runWrk(wrkRequest(server, row, modesOf(row, settings.modes)[0] ?? 'plain', settings.warmupSec, input));
  }
  for (const row of rotated(checked, round)) {
    for (const mode of modesOf(row, settings.modes)) {
      try {
        const load = await measureLoad(
          server.pid,
          wrkRequest(server, row, mode, settings.durationSec, input),
          settings.warmupSec,
        );
        if (!server.alive()) throw new Error(`the server exited during the load\n${server.stderrTail()}`);
        const errors = load.result.errors;
        const measurement: CostMeasurement = {
          row: row.id,
          variant,
          mode,
          round,
          requestsPerSec: load.result.requestsPerSec,
          cpuUsPerRequest: load.cpuUsPerRequest,
          serverCpuPercent: load.serverCpuPercent,
          errors: errors.status + errors.connect + errors.read + errors.write + errors.timeout,
        };
        out.measurements.push(measurement);
        log(
          `round ${round} ${variant.padEnd(6)} ${row.id.padEnd(20)} ${mode.padEnd(9)} ${Math.round(measurement.requestsPerSec).toString().padStart(8)} req/s  ` +
            `cpu ${measurement.cpuUsPerRequest.toFixed(2)} µs/req (${measurement.serverCpuPercent.toFixed(0)}%)${measurement.errors ? `  ERRORS ${measurement.errors}` : ''}`,
        );
      } catch (error) {
        out.failures.push({ row: row.id, variant, mode, round, message: (error as Error).message });
        log(`round ${round} ${variant} ${row.id} ${mode}: FAILED: ${(error as Error).message}`);
        if (!server.alive()) return;
      }
    }
  }
}

export async function runCosts(input: CostRunInput): Promise<CostRun> {
  const { settings, rows, log } = input;
  const out: CostRun = {
    startedAt: new Date().toISOString(),
    finishedAt: '',
    settings,
    machine: describeMachine(),
    baseline: input.baseline,
    rows,
    measurements: [],
    failures: [],
  };
  const apps = COST_APPS.filter((app) => rows.some((row) => row.app === app));
  for (let round = 1; round <= settings.rounds; round++) {
    for (const app of apps) {
      const appRows = rows.filter((row) => row.app === app);
      const variants: Array<[CostVariant, ServerDefinition]> = [['after', appServer(app)]];
      if (input.baseline !== undefined && app !== 'raw')
        variants.push(['before', baselineServer(appServer(app), input.baseline)]);
      for (const [variant, definition] of variants) {
        let server: RunningServer;
        try {
          server = await startServer(definition, {
            cpu: settings.serverCpu,
            env: { BENCH_COSTS_APP: app, BENCH_STATIC_DIR: input.dataDir },
            timeoutMs: 30_000,
          });
        } catch (error) {
          out.failures.push({ row: app, variant, round, message: `could not start: ${(error as Error).message}` });
          log(`round ${round} ${variant} ${app}: FAILED to start: ${(error as Error).message}`);
          continue;
        }
        try {
          await measureApp(server, appRows, variant, round, input, out);
        } finally {
          await server.stop();
        }
      }
    }
  }
  out.finishedAt = new Date().toISOString();
  return out;
}
