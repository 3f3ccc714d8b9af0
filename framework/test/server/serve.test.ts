import test from 'ava';
import { connect } from '../websocket/ws-client';
import { freshGet, spawnChild, startChild, type ChildServer } from './child-server';

/** Waits until the server logged that `count` slow requests started. */
async function inFlight(server: ChildServer, count: number): Promise<void> {
  await server.waitForLog(() => server.logs.filter((l) => l.msg === 'slow request started').length >= count);
}

test('serve: two workers share one port and over many connections both answer', async (t) => {
  const server = await startChild({ WORKERS: '2' });
  t.teardown(() => server.child.kill('SIGKILL'));
  t.is(server.logs.filter((l) => l.msg === 'worker listening').length, 2);
  const seen = new Map<number, number>();
  for (let i = 0; i < 80; i++) {
    const { status, body } = await freshGet(server.port, '/whoami');
    t.is(status, 200);
    seen.set(body.threadId, (seen.get(body.threadId) ?? 0) + 1);
  }
  t.is(seen.size, 2, `answers by thread: ${JSON.stringify([...seen])}`);
  server.child.kill('SIGTERM');
  t.deepEqual(await server.exited, { code: 0, signal: null });
});

test('serve: a worker that dies is logged and replaced; the port keeps answering', async (t) => {
  const server = await startChild({ WORKERS: '2' });
  t.teardown(() => server.child.kill('SIGKILL'));
  const before = new Set<number>();
  for (let i = 0; i < 40; i++) before.add((await freshGet(server.port, '/whoami')).body.threadId);
  const crashed = (await freshGet(server.port, '/crash')).body.crashing;
  const restart = await server.waitForLog((l) => l.msg === 'worker exited unexpectedly; restarting it');
  t.is(restart.threadId, crashed);
  t.is(restart.exitCode, 1);
  t.truthy(
    server.logs.find(
      (l) =>
        l.msg === 'uncaught error in a serve worker; it exits and is replaced' && l.err?.message === 'crash requested',
    ),
  );
  await server.waitForLog((l) => l.msg === 'worker listening' && !before.has(l.threadId));
  const after = new Set<number>();
  for (let i = 0; i < 60; i++) {
    const { status, body } = await freshGet(server.port, '/whoami');
    t.is(status, 200);
    after.add(body.threadId);
  }
  t.false(after.has(crashed), 'the dead worker answers nothing');
  t.is(after.size, 2, 'the replacement answers along with the survivor');
  server.child.kill('SIGTERM');
  t.is((await server.exited).code, 0);
});

test('SIGTERM: requests in flight finish, WebSockets close with 1001, new connections are refused, exit 0', async (t) => {
  const server = await startChild({ WORKERS: '2', SHUTDOWN_MS: '5000' });
  t.teardown(() => server.child.kill('SIGKILL'));
  const sockets = await Promise.all([1, 2, 3, 4].map(() => connect(`ws://127.0.0.1:${server.port}/live`)));
  const slow = [freshGet(server.port, '/slow?ms=700'), freshGet(server.port, '/slow?ms=900')];
  await inFlight(server, 2);
  const signalled = Date.now();
  server.child.kill('SIGTERM');
  for (const s of sockets) t.is((await s.closed).code, 1001);
  await new Promise((r) => setTimeout(r, 100));
  await t.throwsAsync(freshGet(server.port, '/whoami', 1000), undefined, 'no new connection after the signal');
  for (const r of await Promise.all(slow)) {
    t.is(r.status, 200);
    t.true(r.body.done);
  }
  t.deepEqual(await server.exited, { code: 0, signal: null });
  t.true(Date.now() - signalled < 5000, 'exit did not wait for the deadline');
  const stopped = server.logs.filter((l) => l.msg === 'worker stopped');
  t.is(stopped.length, 2);
  t.is(
    stopped.reduce((n, l) => n + l.webSockets, 0),
    4,
  );
  t.is(
    stopped.reduce((n, l) => n + l.inFlight, 0),
    2,
  );
  t.is(
    stopped.reduce((n, l) => n + l.unfinished, 0),
    0,
  );
  // Each worker was told the shared port and its index, and closed its own resources before exiting.
  t.deepEqual(
    server.logs
      .filter((l) => l.msg === 'building the app')
      .map((l) => [l.port, l.worker])
      .sort(),
    [
      [server.port, 0],
      [server.port, 1],
    ],
  );
  t.deepEqual(
    server.logs
      .filter((l) => l.msg === 'app resources closed')
      .map((l) => l.worker)
      .sort(),
    [0, 1],
  );
});

test('SIGINT with a request longer than the deadline: it is cut at the deadline and the process still exits 0', async (t) => {
  const server = await startChild({ WORKERS: '1', SHUTDOWN_MS: '300' });
  t.teardown(() => server.child.kill('SIGKILL'));
  const stuck = freshGet(server.port, '/slow?ms=20000');
  await inFlight(server, 1);
  const signalled = Date.now();
  server.child.kill('SIGINT');
  await t.throwsAsync(stuck);
  t.deepEqual(await server.exited, { code: 0, signal: null });
  t.true(Date.now() - signalled < 3000);
  const stopped = server.logs.find((l) => l.msg === 'worker stopped');
  t.is(stopped.unfinished, 1);
  t.truthy(
    server.logs.find((l) => l.msg === 'shutdown deadline passed; closing the connections of unfinished requests'),
  );
});

for (const workers of ['0', '1']) {
  test(`serve (workers: ${workers}): a signal sent the moment 'listening' is logged is handled (exit 0): the line comes after the handlers`, async (t) => {
    const server = spawnChild({ WORKERS: workers, SHUTDOWN_MS: '2000' });
    t.teardown(() => server.child.kill('SIGKILL'));
    await server.waitForLog((l) => l.msg === 'listening');
    server.child.kill('SIGTERM');
    t.deepEqual(await server.exited, { code: 0, signal: null });
    t.truthy(server.logs.find((l) => l.msg === 'shutting down gracefully'));
  });
}

test('workers: 0 serves in the main thread and shuts down the same way', async (t) => {
  const server = await startChild({ WORKERS: '0', SHUTDOWN_MS: '2000' });
  t.teardown(() => server.child.kill('SIGKILL'));
  const { body } = await freshGet(server.port, '/whoami');
  t.is(body.threadId, 0);
  const slow = freshGet(server.port, '/slow?ms=400');
  await inFlight(server, 1);
  server.child.kill('SIGTERM');
  t.is((await slow).status, 200);
  t.deepEqual(await server.exited, { code: 0, signal: null });
  t.deepEqual(
    server.logs.filter((l) => l.msg === 'app resources closed').map((l) => l.worker),
    [0],
  );
});

test('serve: a worker that cannot build the app stops the start (logged, non-zero exit) instead of restarting forever', async (t) => {
  const server = spawnChild({ WORKERS: '2', BROKEN: '1' });
  t.teardown(() => server.child.kill('SIGKILL'));
  const exit = await server.exited;
  t.not(exit.code, 0);
  const failure = server.logs.find((l) => l.msg === 'worker could not start');
  t.is(failure?.err?.message, 'cannot build: missing DATABASE_URL');
  t.false(server.logs.some((l) => l.msg === 'listening' || l.msg === 'worker exited unexpectedly; restarting it'));
});
