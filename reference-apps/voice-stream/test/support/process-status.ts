import { readFileSync } from 'node:fs';

/** A field of /proc/<pid>/status as a number (VmRSS in kB, Threads...). */
function statusField(pid: number, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

/** Resident memory of a process in MB. */
export const residentMb = (pid: number) => statusField(pid, 'VmRSS') / 1024;

/** Threads of a process (a recognition worker is one). */
export const threadCount = (pid: number) => statusField(pid, 'Threads');
