/**
 * Compares two heap snapshots of the same server (after warm-up and at the end of a soak): which kinds of
 * objects grew, by count and bytes. `node benchmarks/dist/src/soak/heap/heap-diff.js before.heapsnapshot after.heapsnapshot [top]`
 */
import { summarizeSnapshotFile, type HeapSummary } from './heap-snapshot-summary';

export interface HeapGrowth {
  group: string;
  countBefore: number;
  countAfter: number;
  bytesBefore: number;
  bytesAfter: number;
}

export function heapGrowth(before: HeapSummary, after: HeapSummary): HeapGrowth[] {
  const names = new Set([...before.groups.keys(), ...after.groups.keys()]);
  return [...names]
    .map((group) => ({
      group,
      countBefore: before.groups.get(group)?.count ?? 0,
      countAfter: after.groups.get(group)?.count ?? 0,
      bytesBefore: before.groups.get(group)?.selfBytes ?? 0,
      bytesAfter: after.groups.get(group)?.selfBytes ?? 0,
    }))
    .sort((a, b) => b.bytesAfter - b.bytesBefore - (a.bytesAfter - a.bytesBefore));
}

export function formatHeapGrowth(before: HeapSummary, after: HeapSummary, top = 15): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  const lines = [
    `heap: ${(before.totalBytes / 1048576).toFixed(1)} MB in ${before.nodeCount.toLocaleString('en-US')} objects -> ` +
      `${(after.totalBytes / 1048576).toFixed(1)} MB in ${after.nodeCount.toLocaleString('en-US')} objects`,
    'grew most (self size):',
  ];
  for (const growth of heapGrowth(before, after).slice(0, top)) {
    lines.push(
      `  ${growth.group.slice(0, 60).padEnd(60)} ${(growth.bytesAfter - growth.bytesBefore >= 0 ? '+' : '') + kb(growth.bytesAfter - growth.bytesBefore)}`.padEnd(
        80,
      ) + `  ${growth.countBefore.toLocaleString('en-US')} -> ${growth.countAfter.toLocaleString('en-US')} objects`,
    );
  }
  return lines.join('\n');
}

if (require.main === module) {
  const [beforeFile, afterFile, top] = process.argv.slice(2);
  if (!beforeFile || !afterFile) {
    console.error('usage: heap-diff.js <before.heapsnapshot> <after.heapsnapshot> [how many lines]');
    process.exit(2);
  }
  console.log(
    formatHeapGrowth(summarizeSnapshotFile(beforeFile), summarizeSnapshotFile(afterFile), top ? Number(top) : 15),
  );
}
