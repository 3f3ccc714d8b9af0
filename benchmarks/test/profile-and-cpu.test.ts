/** The profile summary attributes self time to the right areas, and CPU time is read from /proc. */
import test from 'ava';
import { areaOf, summarizeProfile } from '../src/profile/cpu-profile-summary';
import { readCpuSeconds } from '../src/runner/cpu-time';

test('frames are grouped by rest.uws folder, npm package, Node internals and V8 pseudo-frames', (t) => {
  t.is(areaOf('file:///work/main/framework/dist/src/http/response.js', 'writeHead'), 'rest.uws http');
  t.is(areaOf('file:///work/main/framework/dist/src/rest-builder.js', 'build'), 'rest.uws rest-builder');
  t.is(areaOf('file:///work/main/node_modules/@nestjs/core/router/router-explorer.js', 'x'), '@nestjs/core');
  t.is(areaOf('file:///work/main/node_modules/fastify/node_modules/find-my-way/index.js', 'find'), 'find-my-way');
  t.is(areaOf('node:internal/streams/writable', 'write'), 'node internals');
  t.is(areaOf('', '(garbage collector)'), '(garbage collector)');
});

test('self time is summed per function and area, idle time left out of the shares', (t) => {
  const frame = (id: number, functionName: string, url: string) => ({
    id,
    callFrame: { functionName, url, lineNumber: 9 },
  });
  const summary = summarizeProfile({
    nodes: [
      frame(1, '(root)', ''),
      frame(2, '(idle)', ''),
      frame(3, 'find', 'file:///x/framework/dist/src/routing/trie-router.js'),
      frame(4, 'write', 'file:///x/framework/dist/src/io/writers.js'),
    ],
    samples: [2, 3, 4, 4, 4, 2],
    timeDeltas: [1000, 1000, 1000, 1000, 1000, 5000],
  });
  t.is(summary.busyMs, 4);
  t.is(summary.idleMs, 6);
  t.deepEqual(
    summary.areas.map((a) => [a.name, a.percent]),
    [
      ['rest.uws io', 75],
      ['rest.uws routing', 25],
    ],
  );
  t.is(summary.functions[0].name, 'write io/writers.js:10');
});

test('the CPU time of a busy process grows, and a missing process reads as NaN', (t) => {
  const before = readCpuSeconds(process.pid);
  t.true(before > 0);
  // Burn CPU until 50 ms of it show (a shared machine may give this process only part of a core).
  const deadline = Date.now() + 5000;
  let after = before;
  while (after - before < 0.05 && Date.now() < deadline) {
    for (let i = 0; i < 1e5; i++) Math.sqrt(i);
    after = readCpuSeconds(process.pid);
  }
  t.true(after - before >= 0.05, `CPU seconds went from ${before} to ${after} in 5 s of busy looping`);
  t.true(Number.isNaN(readCpuSeconds(2 ** 22 + 12345)));
});
