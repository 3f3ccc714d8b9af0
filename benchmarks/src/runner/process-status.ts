/**
 * A process's memory and thread count from /proc/<pid>/status: RSS and its peak for the benchmark, the
 * anonymous/file split and threads for telling heap growth from mapped files and threads in the soak.
 */
import * as fs from 'node:fs';

export interface ProcessStatus {
  rssMB: number;
  /** Peak RSS of the process's whole life so far (VmHWM). */
  hwmMB: number;
  /** Anonymous memory: heaps (V8's and malloc's), stacks. */
  rssAnonMB: number;
  /** File-backed pages: code, mapped model files, the SQLite file when mapped. */
  rssFileMB: number;
  threads: number;
}

/** Undefined when the process is gone. */
export function readProcessStatus(pid: number): ProcessStatus | undefined {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return {
    rssMB: field('VmRSS') / 1024,
    hwmMB: field('VmHWM') / 1024,
    rssAnonMB: field('RssAnon') / 1024,
    rssFileMB: field('RssFile') / 1024,
    threads: field('Threads'),
  };
}
