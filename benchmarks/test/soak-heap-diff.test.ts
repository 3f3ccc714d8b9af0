/** The heap comparison names what grew: objects of a class kept alive between two real snapshots of this process. */
import test from 'ava';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { formatHeapGrowth, heapGrowth } from '../src/soak/heap/heap-diff';
import { summarizeSnapshotFile } from '../src/soak/heap/heap-snapshot-summary';

class KeptSessionRecord {
  constructor(
    readonly id: number,
    readonly payload: number[],
  ) {}
}

test('objects kept alive between two snapshots top the growth, by count and bytes', (t) => {
  t.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-heap-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const kept: KeptSessionRecord[] = [];
  const before = summarizeSnapshotFile(v8.writeHeapSnapshot(path.join(dir, 'before.heapsnapshot')));
  for (let id = 0; id < 20_000; id++) kept.push(new KeptSessionRecord(id, [id, id + 1]));
  const after = summarizeSnapshotFile(v8.writeHeapSnapshot(path.join(dir, 'after.heapsnapshot')));

  const growth = heapGrowth(before, after);
  const record = growth.find((entry) => entry.group === 'KeptSessionRecord');
  t.truthy(record);
  t.is(record!.countAfter - record!.countBefore, 20_000);
  t.true(record!.bytesAfter - record!.bytesBefore >= 20_000 * 16, `${record!.bytesAfter - record!.bytesBefore} bytes`);
  t.true(
    growth.slice(0, 5).some((entry) => entry.group === 'KeptSessionRecord'),
    growth
      .slice(0, 5)
      .map((entry) => entry.group)
      .join(', '),
  );
  t.regex(formatHeapGrowth(before, after), /KeptSessionRecord\s+\+\d+ KB\s+0 -> 20,000 objects/);
  t.is(kept.length, 20_000);
});
