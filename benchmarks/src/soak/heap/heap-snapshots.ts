/**
 * Heap snapshots of a soak's server, for finding what grows: the server runs with
 * `--heapsnapshot-signal=SIGUSR2` in a folder of its own, the runner sends the signal after warm-up and at the
 * end, waits for each file to be complete, and compares the two.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatHeapGrowth } from './heap-diff';
import { summarizeSnapshotFile } from './heap-snapshot-summary';

export const HEAP_SNAPSHOT_FLAG = '--heapsnapshot-signal=SIGUSR2';

function snapshots(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.heapsnapshot'))
    .sort();
}

/**
 * Asks the server for a snapshot and resolves with its path once it is written: Node writes it on the main
 * thread, so the first answer the server gives after the file appeared comes after the file is complete.
 */
export async function takeHeapSnapshot(
  pid: number,
  baseUrl: string,
  dir: string,
  timeoutMs = 180_000,
): Promise<string> {
  const before = new Set(snapshots(dir));
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const file = snapshots(dir).find((name) => !before.has(name));
    if (!file) continue;
    await fetch(`${baseUrl}/`, { signal: AbortSignal.timeout(Math.max(1000, deadline - Date.now())) }).then(
      (response) => response.arrayBuffer(),
    );
    return path.join(dir, file);
  }
  throw new Error(`no heap snapshot in ${dir} within ${timeoutMs} ms`);
}

export function compareSnapshots(before: string, after: string): string {
  return formatHeapGrowth(summarizeSnapshotFile(before), summarizeSnapshotFile(after));
}
