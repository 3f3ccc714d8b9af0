/** The raw record of a cost-table run, kept as JSON beside the scenario runs' results. */
import type { MachineInfo, Mode } from '../runner/results';
import type { CostRow } from './cost-rows';

/** `after`: this checkout; `before`: the checkout given with `--baseline`. */
export type CostVariant = 'after' | 'before';

export interface CostSettings {
  rounds: number;
  durationSec: number;
  warmupSec: number;
  modes: Mode[];
  connections: number;
  pipeline: number;
  serverCpu: number | undefined;
  clientCpu: number | undefined;
}

export interface CostMeasurement {
  row: string;
  variant: CostVariant;
  mode: Mode;
  round: number;
  requestsPerSec: number;
  cpuUsPerRequest: number;
  serverCpuPercent: number;
  errors: number;
}

export interface CostRun {
  startedAt: string;
  finishedAt: string;
  settings: CostSettings;
  machine: MachineInfo;
  baseline: string | undefined;
  rows: Array<Omit<CostRow, 'check'>>;
  measurements: CostMeasurement[];
  failures: Array<{ row: string; variant: CostVariant; mode?: Mode; round: number; message: string }>;
}
