/**
 * A process's CPU time (user + system, all threads) from /proc/<pid>/stat. Divided by the requests answered,
 * it gives the server's CPU cost per request, which stays meaningful when the load generator, not the
 * server, is the bottleneck (then req/s ratios understate the difference between servers).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    const value = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim());
    ticksPerSecond = Number.isFinite(value) && value > 0 ? value : 100;
  }
  return ticksPerSecond;
}

/**
 * CPU seconds used so far by the process, or NaN when it cannot be read. Summed over its threads' schedstat
 * (nanoseconds), since /proc/<pid>/stat counts in clock ticks (10 ms): a short measurement of a server that got
 * little CPU (a busy machine) could read 0 there. Falls back to stat's ticks where schedstat is missing.
 */
export function readCpuSeconds(pid: number): number {
  const precise = readSchedstatSeconds(pid);
  return Number.isNaN(precise) ? readStatSeconds(pid) : precise;
}

function readSchedstatSeconds(pid: number): number {
  let threads: string[];
  try {
    threads = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return NaN;
  }
  let nanoseconds = 0;
  for (const thread of threads) {
    try {
      nanoseconds += Number(fs.readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read: its time is gone from schedstat either way.
    }
  }
  return Number.isFinite(nanoseconds) && threads.length > 0 ? nanoseconds / 1e9 : NaN;
}

function readStatSeconds(pid: number): number {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return NaN;
  }
  // Fields after the command name (which may hold spaces) start at field 3; utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond();
}
