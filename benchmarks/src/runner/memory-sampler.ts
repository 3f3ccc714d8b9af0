/** Samples a process's RSS while wrk loads it, to report the peak RSS under load of each measurement. */
import { readProcessStatus } from './process-status';

export interface MemorySampler {
  /** Stops sampling; the highest RSS seen (MB), or NaN when no sample could be read. */
  stop(): number;
}

export function sampleMemory(pid: number, intervalMs = 100): MemorySampler {
  let peakMB = NaN;
  const sample = () => {
    const memory = readProcessStatus(pid);
    if (memory && !(memory.rssMB <= peakMB)) peakMB = memory.rssMB;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peakMB;
    },
  };
}
