/** Describes the machine a run happened on, for the report. */
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import type { MachineInfo } from './results';

function wrkVersion(): string {
  const result = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  const text = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  return /wrk\s+\S+/.exec(text)?.[0] ?? 'wrk (version unknown)';
}

export function describeMachine(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpuCount: cpus.length,
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
    wrk: wrkVersion(),
    loadAverageAtStart: os.loadavg()[0],
  };
}
