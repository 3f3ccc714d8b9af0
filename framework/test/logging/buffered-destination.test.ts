import test from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { BufferedDestination, createLogger } from '../../src/index';

function tempFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rest-uws-buffered-')), 'log.jsonl');
}

const read = (file: string): string => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

test('lines wait in memory during the turn and are written together at its end, in order', async (t) => {
  const file = tempFile();
  const logger = createLogger({ level: 'info', base: null }, new BufferedDestination({ dest: file }));
  for (let i = 0; i < 5; i++) logger.info({ i }, 'line');
  t.is(read(file), '', 'nothing written while the turn runs');
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  const lines = read(file)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  t.deepEqual(
    lines.map((l) => l.i),
    [0, 1, 2, 3, 4],
  );
});

test('past maxBufferBytes the lines are written at once; flush() writes the rest and calls back', async (t) => {
  const file = tempFile();
  // Lines of about 100 bytes: the third one passes 250 and writes the three; the last two wait.
  const destination = new BufferedDestination({ dest: file, maxBufferBytes: 250 });
  const logger = createLogger({ level: 'info', base: null }, destination);
  for (let i = 0; i < 5; i++) logger.info({ i, pad: 'x'.repeat(40) }, 'line');
  t.is(read(file).trim().split('\n').length, 3, 'written before the turn ended');
  await new Promise<void>((resolve, reject) => logger.flush((err?: Error) => (err ? reject(err) : resolve())));
  t.is(read(file).trim().split('\n').length, 5);
  t.throws(() => new BufferedDestination({ maxBufferBytes: -1 }), { message: /maxBufferBytes/ });
  t.throws(() => new BufferedDestination({ maxHeldBytes: 1.5 }), { message: /maxHeldBytes/ });
});

/** Runs the fixture and returns the JSON lines of its stdout. */
function runFixture(exitWith: string): Promise<{ code: number | null; lines: any[]; stderr: string }> {
  const child = spawn(process.execPath, [path.join(__dirname, 'fixtures', 'exit-logger.js')], {
    env: { ...process.env, EXIT_WITH: exitWith },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({
        code,
        stderr: err,
        lines: out
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      }),
    ),
  );
}

for (const [how, code] of [
  ['exit', 0],
  ['throw', 1],
  ['end', 0],
] as const) {
  test(`createLogger's buffered stdout loses no line when the process ends by ${how}`, async (t) => {
    const result = await runFixture(how);
    t.is(result.code, code, result.stderr);
    t.deepEqual(
      result.lines.map((l) => [l.where, l.i, l.msg]),
      [
        ['main', 0, 'line'],
        ['main', 1, 'line'],
        ['main', 2, 'line'],
      ],
    );
    if (how === 'throw') t.regex(result.stderr, /crash after logging/);
  });
}

test('a full pipe never stalls the event loop: lines are held while its reader lags, then all written in order', async (t) => {
  // stdout is a named pipe (as under a container runtime), not read until the child says it logged everything:
  // with a blocking write the child would wait for this reader forever (the test then fails on its timeout).
  const fifo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rest-uws-fifo-')), 'stdout');
  execFileSync('mkfifo', [fifo]);
  const readEnd = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  const writeEnd = fs.openSync(fifo, fs.constants.O_WRONLY);
  const child = spawn(process.execPath, [path.join(__dirname, 'fixtures', 'exit-logger.js')], {
    env: { ...process.env, EXIT_WITH: 'full-pipe' },
    stdio: ['ignore', writeEnd, 'pipe'],
  });
  fs.closeSync(writeEnd);
  let err = '';
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('logged')) resolve();
    });
    void closed.then(() => reject(new Error(`exited before logging everything: ${err}`)));
  });
  const reader = new net.Socket({ fd: readEnd, readable: true, writable: false });
  let out = '';
  reader.on('data', (d: Buffer) => (out += d.toString()));
  const drained = new Promise((resolve) => reader.on('end', resolve));
  t.is(await closed, 0, err);
  await drained;
  const numbers = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).n as number);
  t.is(numbers.length, 20_000);
  t.true(
    numbers.every((n, i) => n === i),
    'every line, in order',
  );
});

test("createLogger's buffered stdout loses no line when a worker thread calls process.exit", async (t) => {
  const result = await runFixture('worker');
  t.is(result.code, 0, result.stderr);
  t.deepEqual(result.lines, [
    { level: 30, time: result.lines[0]?.time, where: 'worker', i: 0, msg: 'line' },
    { level: 30, time: result.lines[1]?.time, where: 'worker', i: 1, msg: 'line' },
    { level: 30, time: result.lines[2]?.time, where: 'worker', i: 2, msg: 'line' },
    { workerExit: 0 },
  ]);
});
