import test from 'ava';
import * as diagnostics from 'node:diagnostics_channel';
import fc from 'fast-check';
import pino from 'pino';
import { AccessLineWriter, type RequestLogLevel } from '../../src/features/logging/access-line';
import type { Logger } from '../../src/util/log';

// The access line writer serialises a plain pino logger's lines itself. These properties hold it to pino's own
// output, byte for byte, over random fields and logger settings, and check which path each line took by counting
// the calls of pino's serialiser (`asJson`, on the prototype every logger of this pino shares).

const S = pino.symbols as unknown as Record<string, symbol>;
const LEVELS: RequestLogLevel[] = ['error', 'warn', 'info', 'debug'];

interface Fields {
  method: string;
  path: string;
  status: number;
  micros: number;
  reqId: string | undefined;
  aborted: boolean;
  remoteAddress: string | undefined;
}

/** Characters that pino escapes or passes to JSON.stringify: quotes, backslashes, controls, non-ASCII, lone surrogates. */
const tricky = fc.constantFrom(
  '"',
  '\\',
  '\n',
  '\u0000',
  '\u001f',
  '\u007f',
  'é',
  '€',
  '\u2028',
  '\ud83d\ude00',
  '\ud800',
  '\udfff',
  ' ',
  '/',
  '%22',
);
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.oneof(fc.string({ maxLength: 4 }), tricky), { maxLength: 30 })
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  // pino hands strings over 100 characters to JSON.stringify (which escapes lone surrogates).
  { weight: 1, arbitrary: fc.string({ minLength: 95, maxLength: 140 }) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('\ud800', '\udfff', '"', '\\', 'é')), {
        minLength: 60,
        maxLength: 90,
      })
      .map((parts) => parts.join('')),
  },
);
const fieldsArb: fc.Arbitrary<Fields> = fc.record({
  method: fc.oneof(fc.constantFrom('GET', 'POST', 'DELETE', 'OPTIONS'), text),
  path: fc.oneof(
    fc.constantFrom('/', '/bare', '/users/42'),
    text.map((s) => '/' + s),
  ),
  status: fc.oneof(fc.integer({ min: 100, max: 999 }), fc.constantFrom(200, 404)),
  // Whole microseconds (what the plugin passes), past V8's small integers too, and a few odd values.
  micros: fc.oneof(
    fc.nat({ max: 5000 }),
    fc.nat(),
    fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    fc.constantFrom(0, 999, 1000, 1001, 1010, 1100, 0x3fffffff, 0x40000000, 1.5, -3, Infinity, NaN),
  ),
  reqId: fc.option(fc.oneof(fc.uuid(), text), { nil: undefined }),
  aborted: fc.boolean(),
  remoteAddress: fc.option(fc.constantFrom('127.0.0.1', '::1', '::ffff:10.0.0.1'), { nil: undefined }),
});

/** Bindings as an app passes them (pino calls `hasOwnProperty` on them: fast-check's dictionaries may have no prototype). */
const bindingsArb = <T>(value: fc.Arbitrary<T>, maxKeys: number) =>
  fc.dictionary(fc.string({ maxLength: 6 }), value, { maxKeys }).map((d) => ({ ...d }));

/** Settings the writer reproduces itself (the line still takes its fast path). */
const reproducibleArb = fc.record(
  {
    level: fc.constantFrom('trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'),
    base: fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      bindingsArb(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), 3),
    ),
    name: fc.option(text, { nil: undefined }),
    messageKey: fc.option(fc.constantFrom('message', 'event', 'method'), { nil: undefined }),
    errorKey: fc.option(fc.constantFrom('error', 'e'), { nil: undefined }),
    timestamp: fc.constantFrom('default', 'false', 'iso', 'unix', 'custom'),
    crlf: fc.boolean(),
    levelFormatter: fc.boolean(),
    bindingsFormatter: fc.boolean(),
    customLevels: fc.boolean(),
    unrelatedSerializer: fc.boolean(),
    unrelatedRedaction: fc.boolean(),
    child: fc.option(bindingsArb(text, 3), { nil: undefined }),
    setBindings: fc.option(bindingsArb(text, 2), { nil: undefined }),
  },
  {
    requiredKeys: [
      'level',
      'timestamp',
      'crlf',
      'levelFormatter',
      'bindingsFormatter',
      'customLevels',
      'unrelatedSerializer',
      'unrelatedRedaction',
    ],
  },
);
type Reproducible = typeof reproducibleArb extends fc.Arbitrary<infer T> ? T : never;

interface Sink {
  lines: string[];
  write(line: string): void;
}

function sink(): Sink {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

function reproducibleLogger(settings: Reproducible, stream: Sink): Logger {
  const options: Record<string, unknown> = { level: settings.level, crlf: settings.crlf };
  if (settings.base !== undefined) options.base = settings.base;
  if (settings.name !== undefined) options.name = settings.name;
  if (settings.messageKey !== undefined) options.messageKey = settings.messageKey;
  if (settings.errorKey !== undefined) options.errorKey = settings.errorKey;
  if (settings.timestamp === 'false') options.timestamp = false;
  if (settings.timestamp === 'iso') options.timestamp = pino.stdTimeFunctions.isoTime;
  if (settings.timestamp === 'unix') options.timestamp = pino.stdTimeFunctions.unixTime;
  if (settings.timestamp === 'custom') options.timestamp = () => ',"at":"now \\"quoted\\""';
  const formatters: Record<string, unknown> = {};
  if (settings.levelFormatter) formatters.level = (label: string) => ({ severity: label.toUpperCase() });
  if (settings.bindingsFormatter)
    formatters.bindings = (bindings: Record<string, unknown>) => ({ host: bindings.hostname, tag: 'b' });
  options.formatters = formatters;
  if (settings.customLevels) options.customLevels = { audit: 35, verbose: 15 };
  if (settings.unrelatedSerializer) options.serializers = { user: (u: unknown) => `user:${String(u)}` };
  if (settings.unrelatedRedaction) options.redact = ['req.headers.authorization', 'user.password'];
  let logger = pino(options as pino.LoggerOptions, stream) as unknown as pino.Logger;
  if (settings.child !== undefined) logger = logger.child(settings.child);
  if (settings.setBindings !== undefined) logger.setBindings(settings.setBindings);
  return logger as unknown as Logger;
}

/** Counts the lines pino serialises itself (the writer's fallback and pino's reference lines). */
function countPinoSerialisations(): { count(): number; restore(): void } {
  let owner: object = pino({ level: 'silent' }, { write: () => undefined });
  while (!Object.hasOwn(owner, S.asJsonSym!)) owner = Object.getPrototypeOf(owner) as object;
  const original = (owner as Record<symbol, (...args: unknown[]) => string>)[S.asJsonSym!]!;
  let calls = 0;
  (owner as Record<symbol, unknown>)[S.asJsonSym!] = function (this: unknown, ...args: unknown[]) {
    calls++;
    return original.apply(this, args);
  };
  return { count: () => calls, restore: () => void ((owner as Record<symbol, unknown>)[S.asJsonSym!] = original) };
}

/** What pino itself writes for the line (the plugin's fields, `durationMs` in milliseconds). */
function pinoLine(logger: Logger, level: RequestLogLevel, f: Fields): void {
  const obj: Record<string, unknown> = {
    method: f.method,
    path: f.path,
    status: f.status,
    durationMs: f.micros / 1000,
  };
  if (f.reqId !== undefined) obj.reqId = f.reqId;
  if (f.aborted) obj.aborted = true;
  if (f.remoteAddress !== undefined) obj.remoteAddress = f.remoteAddress;
  logger[level](obj, 'request');
}

/** Throws (fast-check then shrinks the case) unless the writer's lines are pino's. */
function expectSame(fast: string[], own: string[]): void {
  if (fast.length !== own.length || fast.some((line, i) => line !== own[i]))
    throw new Error(`the writer wrote ${JSON.stringify(fast)}, pino ${JSON.stringify(own)}`);
}

function writeLine(writer: AccessLineWriter, logger: Logger, f: Fields): void {
  writer.write(logger, f.method, f.path, f.status, f.micros, f.reqId, f.aborted, f.remoteAddress);
}

/** Writes `f` through the writer and through pino at one fixed time; returns both outputs and the serialisations pino did. */
function bothLines(
  logger: Logger,
  stream: Sink,
  writer: AccessLineWriter,
  level: RequestLogLevel,
  f: Fields,
  counter: { count(): number },
  now: number,
): { fast: string[]; own: string[]; serialised: number } {
  const realNow = Date.now;
  Date.now = () => now;
  try {
    stream.lines.length = 0;
    const before = counter.count();
    writeLine(writer, logger, f);
    const serialised = counter.count() - before;
    const fast = stream.lines.splice(0);
    pinoLine(logger, level, f);
    return { fast, own: stream.lines.splice(0), serialised };
  } finally {
    Date.now = realNow;
  }
}

test.serial('a plain pino logger: the line written is pino’s own, byte for byte, without pino’s serialiser', (t) => {
  const counter = countPinoSerialisations();
  t.teardown(counter.restore);
  let fastLines = 0;
  fc.assert(
    fc.property(
      reproducibleArb,
      fc.constantFrom(...LEVELS),
      fc.array(fieldsArb, { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 0, max: 4_102_444_800_000 }),
      (settings, level, lines, now) => {
        const stream = sink();
        const logger = reproducibleLogger(settings, stream);
        const writer = new AccessLineWriter(level);
        const enabled = (logger as unknown as pino.Logger).isLevelEnabled(level);
        lines.forEach((f, i) => {
          // A few lines in the same millisecond, then the next one: the time text is reused, then made again.
          const { fast, own, serialised } = bothLines(logger, stream, writer, level, f, counter, now + (i >> 1));
          expectSame(fast, own);
          if (fast.length !== (enabled ? 1 : 0))
            throw new Error(`${fast.length} lines written, the level being ${enabled ? 'on' : 'off'}`);
          if (serialised !== 0) throw new Error('pino serialised the line: the writer should have');
          if (enabled) fastLines++;
        });
      },
    ),
    { numRuns: 400 },
  );
  t.true(fastLines > 200, `${fastLines} lines compared`);
});

test.serial('level changes and setBindings between lines apply at once', (t) => {
  const stream = sink();
  const logger = pino({ level: 'info', base: { app: 'a' } }, stream);
  const writer = new AccessLineWriter('info');
  const f: Fields = {
    method: 'GET',
    path: '/x',
    status: 200,
    micros: 1234,
    reqId: undefined,
    aborted: false,
    remoteAddress: undefined,
  };
  const write = () => {
    writeLine(writer, logger as unknown as Logger, f);
    return stream.lines.splice(0);
  };
  t.is(write().length, 1);
  logger.level = 'warn';
  t.deepEqual(write(), [], 'nothing at a disabled level');
  logger.level = 'debug';
  t.is(write().length, 1);
  logger.setBindings({ tenant: 't"1' });
  const [line] = write();
  t.like(JSON.parse(line!), {
    app: 'a',
    tenant: 't"1',
    method: 'GET',
    path: '/x',
    status: 200,
    durationMs: 1.234,
    msg: 'request',
  });
  // A child logger is another logger: its own bindings are on its lines.
  writeLine(writer, logger.child({ reqId: 'abc' }) as unknown as Logger, f);
  t.like(JSON.parse(stream.lines.splice(0)[0]!), { app: 'a', tenant: 't"1', reqId: 'abc', msg: 'request' });
});

/** Settings whose lines only pino can write: each visibly changes the line, so a line that skipped pino would differ. */
const fallbacks: Array<[string, (stream: Sink) => Logger]> = [
  ['a mixin', (s) => pino({ mixin: () => ({ mixed: 1 }) }, s) as unknown as Logger],
  [
    'a logMethod hook',
    (s) =>
      pino(
        {
          hooks: {
            logMethod(args, method) {
              method.apply(this, [{ ...(args[0] as object), hooked: true }, ...args.slice(1)] as never);
            },
          },
        },
        s,
      ) as unknown as Logger,
  ],
  [
    'a streamWrite hook',
    (s) =>
      pino(
        { hooks: { streamWrite: (line: string) => line.replace('"request"', '"REQUEST"') } },
        s,
      ) as unknown as Logger,
  ],
  [
    'formatters.log',
    (s) =>
      pino(
        { formatters: { log: (o: Record<string, unknown>) => ({ ...o, formatted: true }) } },
        s,
      ) as unknown as Logger,
  ],
  [
    'a serializer of a line field',
    (s) => pino({ serializers: { path: (p: string) => p.toUpperCase() } }, s) as unknown as Logger,
  ],
  [
    'a serializer of the message key',
    (s) => pino({ serializers: { msg: (m: string) => `[${m}]` } }, s) as unknown as Logger,
  ],
  ['a redacted line field', (s) => pino({ redact: ['remoteAddress'] }, s) as unknown as Logger],
  ['a wildcard redaction', (s) => pino({ redact: ['*.secret'] }, s) as unknown as Logger],
  ['a nested key', (s) => pino({ nestedKey: 'payload' }, s) as unknown as Logger],
  ['a message prefix', (s) => pino({ msgPrefix: '[http] ' }, s) as unknown as Logger],
  ['a child with a message prefix', (s) => pino({}, s).child({}, { msgPrefix: '[child] ' }) as unknown as Logger],
  [
    'custom levels only',
    (s) =>
      pino({ useOnlyCustomLevels: true, customLevels: { info: 30, loud: 60 }, level: 'info' }, s) as unknown as Logger,
  ],
  [
    'a line field as the error key',
    (s) => pino({ errorKey: 'path', serializers: { err: (e: unknown) => `err:${String(e)}` } }, s) as unknown as Logger,
  ],
  [
    'a stream that asks for metadata (multistream)',
    (s) => pino({}, pino.multistream([{ stream: s }])) as unknown as Logger,
  ],
];

for (const [what, make] of fallbacks) {
  test.serial(`${what}: the line goes through pino and is pino's`, (t) => {
    const counter = countPinoSerialisations();
    t.teardown(counter.restore);
    fc.assert(
      fc.property(fieldsArb, (f) => {
        const stream = sink();
        const logger = make(stream);
        const { fast, own, serialised } = bothLines(
          logger,
          stream,
          new AccessLineWriter('info'),
          'info',
          f,
          counter,
          1_700_000_000_000,
        );
        expectSame(fast, own);
        if (fast.length !== 1) throw new Error(`${fast.length} lines written`);
        if (serialised !== 1) throw new Error(`pino serialised ${serialised} lines, not the one the writer gave it`);
      }),
      { numRuns: 30 },
    );
    t.pass();
  });
}

test.serial("a subscriber of pino's tracing channel sees the access lines (they go through pino)", (t) => {
  const seen: unknown[] = [];
  const subscriber = {
    start: (message: unknown) => void seen.push(message),
    end: () => {},
    asyncStart: () => {},
    asyncEnd: () => {},
    error: () => {},
  };
  const channel = diagnostics.tracingChannel('pino_asJson');
  channel.subscribe(subscriber);
  t.teardown(() => channel.unsubscribe(subscriber));
  const stream = sink();
  const logger = pino({}, stream) as unknown as Logger;
  const writer = new AccessLineWriter('info');
  writeLine(writer, logger, {
    method: 'GET',
    path: '/traced',
    status: 200,
    micros: 5,
    reqId: undefined,
    aborted: false,
    remoteAddress: undefined,
  });
  t.is(seen.length, 1);
  t.like(JSON.parse(stream.lines[0]!), { path: '/traced', msg: 'request' });
  channel.unsubscribe(subscriber);
  writeLine(writer, logger, {
    method: 'GET',
    path: '/untraced',
    status: 200,
    micros: 5,
    reqId: undefined,
    aborted: false,
    remoteAddress: undefined,
  });
  t.is(seen.length, 1, 'no subscriber: the writer serialises the line');
  t.is(stream.lines.length, 2);
});

test('a logger that is not pino gets the fields as an object, and the message', (t) => {
  const calls: Array<[unknown, string | undefined]> = [];
  const logger: Logger = {
    error: () => {},
    warn: () => {},
    debug: () => {},
    info: (obj, msg) => void calls.push([obj, msg]),
  };
  const writer = new AccessLineWriter('info');
  writeLine(writer, logger, {
    method: 'POST',
    path: '/orders',
    status: 201,
    micros: 1500,
    reqId: 'r-1',
    aborted: true,
    remoteAddress: '::1',
  });
  writeLine(writer, logger, {
    method: 'GET',
    path: '/',
    status: 200,
    micros: 0,
    reqId: undefined,
    aborted: false,
    remoteAddress: undefined,
  });
  t.deepEqual(calls, [
    [
      {
        method: 'POST',
        path: '/orders',
        status: 201,
        durationMs: 1.5,
        reqId: 'r-1',
        aborted: true,
        remoteAddress: '::1',
      },
      'request',
    ],
    [{ method: 'GET', path: '/', status: 200, durationMs: 0 }, 'request'],
  ]);
});
