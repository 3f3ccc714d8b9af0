import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { pack, Packr } from 'msgpackr';
import { MessageCodec, type MessageFormat } from '../src/domain/protocol/message-codec';
import type { ClientMessage } from '../src/domain/protocol/messages';
import { SessionError } from '../src/domain/protocol/protocol-violation';

// Property-based tests of the client message decoding: whatever arrives (random bytes, random text, random
// JSON and MessagePack structures, valid frames cut or corrupted), decoding returns a valid client message or
// throws a SessionError with one of the documented protocol reason codes, quickly. Where the input is a
// structure, an independent model of the rules says which: a valid message, or which reasons may be reported.

const PROTOCOL_REASONS = [4000101, 4000102, 4000103, 4000104, 4000105, 4000106];
/**
 * CPU time (not wall time: another process's load must not fail the test) within which any frame up to 1 MiB is
 * decoded or refused. Linear decoding takes a few ms; the bound is there to catch work that grows with the depth or
 * size faster than linearly (a nesting flood), which takes seconds to minutes at these sizes.
 */
const DECODE_BOUND_MS = 1000;
const KINDS = ['source_media_chunk', 'end_of_source_media'];
const codecs: Record<MessageFormat, MessageCodec> = {
  json: new MessageCodec('json'),
  msgpack: new MessageCodec('msgpack'),
};

type Outcome = { readonly message: ClientMessage } | { readonly error: SessionError };

/** Decodes, timing its CPU; anything thrown other than a SessionError fails the property. */
function decode(format: MessageFormat, frame: Buffer | string, binary: boolean): Outcome {
  const started = process.cpuUsage();
  let outcome: Outcome;
  try {
    outcome = { message: codecs[format].decode(frame, binary) };
  } catch (error) {
    if (!(error instanceof SessionError))
      throw new Error(`decode threw ${(error as Error)?.name}: ${(error as Error)?.message}`);
    outcome = { error };
  }
  const used = process.cpuUsage(started);
  const elapsed = (used.user + used.system) / 1000;
  if (elapsed > DECODE_BOUND_MS) throw new Error(`decoding took ${elapsed.toFixed(0)} ms of CPU`);
  return outcome;
}

/** A decoded message has exactly the shape the session relies on. */
function assertValidMessage(message: ClientMessage): void {
  const keys = Object.keys(message);
  if (keys.length !== 1 || !KINDS.includes(keys[0]))
    throw new Error(`decoded an invalid message: ${JSON.stringify(message)}`);
  if ('source_media_chunk' in message) {
    const data = message.source_media_chunk.data;
    if (!Buffer.isBuffer(data) || data.length === 0) throw new Error('a decoded chunk must carry non-empty bytes');
  } else if (Object.keys(message.end_of_source_media).length !== 0)
    throw new Error('end_of_source_media must be empty');
}

/** A refusal names a documented protocol reason, a short request type and a real explanation. */
function assertProtocolError(error: SessionError): void {
  if (!PROTOCOL_REASONS.includes(error.reason.reasonCode))
    throw new Error(`unexpected reason ${error.reason.reasonCode}: ${error.message}`);
  if (error.reason.errorCode !== 400) throw new Error(`a malformed message is a 400, got ${error.reason.errorCode}`);
  if (typeof error.requestType !== 'string' || error.requestType.length === 0 || error.requestType.length > 64)
    throw new Error(`bad request_type ${error.requestType}`);
  if (error.message.length < 10) throw new Error(`unhelpful error message "${error.message}"`);
}

function assertSane(outcome: Outcome): void {
  if ('message' in outcome) assertValidMessage(outcome.message);
  else assertProtocolError(outcome.error);
}

// ---------------------------------------------------------------------------------------------------------
// The model: what the rules of the protocol say about a structure, written independently of the decoder.

type Expectation = { readonly valid: ClientMessage } | { readonly reasons: readonly number[] };

const BASE64_ALPHABET = new Set('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');

/** Standard base64 with padding: groups of four alphabet characters, at most two '=' at the very end. */
function isStrictBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  for (let index = 0; index < text.length - padding; index += 1) if (!BASE64_ALPHABET.has(text[index])) return false;
  return true;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
const ownData = (payload: Record<string, unknown>) => (Object.hasOwn(payload, 'data') ? payload.data : undefined);

/** Envelope rules shared by both encodings; `audio` reads the data field or returns a reason code. */
function expectEnvelope(value: unknown, audio: (data: unknown) => Buffer | number): Expectation {
  if (!isObject(value)) return { reasons: [4000104] };
  const keys = Object.keys(value);
  if (keys.length !== 1) return { reasons: [4000104] };
  const kind = keys[0];
  if (!KINDS.includes(kind)) return { reasons: [4000103] };
  const payload = value[kind];
  if (!isObject(payload)) return { reasons: [4000104] };
  if (kind === 'end_of_source_media') return { valid: { end_of_source_media: {} } };
  const data = audio(ownData(payload));
  return typeof data === 'number' ? { reasons: [data] } : { valid: { source_media_chunk: { data } } };
}

function expectJson(parsed: unknown): Expectation {
  return expectEnvelope(parsed, (data) => {
    if (typeof data !== 'string' || !isStrictBase64(data)) return 4000106;
    const bytes = Buffer.from(data, 'base64');
    return bytes.length === 0 ? 4000106 : bytes;
  });
}

/** MessagePack: maps with string keys only, no arrays, extensions or records anywhere, at most 32 levels. */
function messagePackViolations(value: unknown, depth: number, found: Set<number>): void {
  if (value instanceof Map) {
    if (depth > 32) found.add(4000104);
    for (const [key, entry] of value) {
      if (typeof key !== 'string') found.add(4000105);
      messagePackViolations(entry, depth + 1, found);
    }
  } else if (Array.isArray(value)) found.add(4000105);
  else if (!(value instanceof Uint8Array) && value !== null && !['string', 'number', 'boolean'].includes(typeof value))
    found.add(4000105);
}

/** Converts a valid Map tree into plain objects (to apply the envelope rules). */
function mapsToObjects(value: unknown): unknown {
  if (!(value instanceof Map)) return value;
  const object: Record<string, unknown> = Object.create(null);
  for (const [key, entry] of value) object[key as string] = mapsToObjects(entry);
  return object;
}

function expectMessagePack(tree: unknown): Expectation {
  const found = new Set<number>();
  messagePackViolations(tree, 1, found);
  if (found.size > 0) return { reasons: [...found] };
  return expectEnvelope(mapsToObjects(tree), (data) =>
    data instanceof Uint8Array ? (data.length === 0 ? 4000106 : Buffer.from(data)) : 4000106,
  );
}

function assertMatchesModel(outcome: Outcome, expected: Expectation, input: unknown): void {
  assertSane(outcome);
  if ('valid' in expected) {
    if (!('message' in outcome))
      throw new Error(
        `refused a valid message ${describeInput(input)}: ${outcome.error.reason.reasonCode} ${outcome.error.message}`,
      );
    const got = outcome.message;
    const same =
      'source_media_chunk' in expected.valid
        ? 'source_media_chunk' in got && got.source_media_chunk.data.equals(expected.valid.source_media_chunk.data)
        : 'end_of_source_media' in got;
    if (!same) throw new Error(`decoded ${describeInput(got)} instead of ${describeInput(expected.valid)}`);
  } else {
    if (!('error' in outcome))
      throw new Error(
        `accepted an invalid message ${describeInput(input)} (expected ${expected.reasons.join(' or ')})`,
      );
    if (!expected.reasons.includes(outcome.error.reason.reasonCode)) {
      throw new Error(
        `reason ${outcome.error.reason.reasonCode} for ${describeInput(input)}; the model expects ${expected.reasons.join(' or ')}`,
      );
    }
  }
}

function describeInput(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, entry: unknown) =>
      entry instanceof Map ? { Map: [...entry] } : entry instanceof Uint8Array ? `<${entry.length} bytes>` : entry,
    ).slice(0, 300);
  } catch {
    return String(value);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Generators: mostly near-misses of real messages, plus anything at all.

/** Keys that matter: the two kinds, prototype-related names, and random text. */
const keyArbitrary = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KINDS) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'data',
      'error',
      'source_transcript_update',
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 80 }) },
);

const base64OfBytes = fc
  .uint8Array({ minLength: 0, maxLength: 400 })
  .map((bytes) => Buffer.from(bytes).toString('base64'));
const jsonDataArbitrary = fc.oneof(
  { weight: 4, arbitrary: base64OfBytes },
  { weight: 1, arbitrary: base64OfBytes.map((text) => text.replace(/=+$/, '')) }, // unpadded
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9+/=_ -]{0,24}$/) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
const jsonPayloadArbitrary = fc.oneof(
  { weight: 4, arbitrary: fc.record({ data: jsonDataArbitrary }) },
  { weight: 1, arbitrary: fc.record({ data: jsonDataArbitrary, extra: fc.jsonValue({ maxDepth: 2 }) }) },
  { weight: 1, arbitrary: fc.dictionary(keyArbitrary, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
/** Objects built with computed keys, so "__proto__" becomes an own key (as JSON.parse makes it). */
const envelope = <P>(keys: fc.Arbitrary<string>, payload: fc.Arbitrary<P>) =>
  fc.array(fc.tuple(keys, payload), { maxLength: 3 }).map((entries) => {
    const object: Record<string, unknown> = {};
    for (const [key, value] of entries)
      Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
    return object;
  });
const jsonMessageArbitrary = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(keyArbitrary, jsonPayloadArbitrary)
      .map(([key, payload]) => Object.defineProperty({}, key, { value: payload, enumerable: true })),
  },
  { weight: 2, arbitrary: envelope(keyArbitrary, jsonPayloadArbitrary) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
);

/** MessagePack trees as Maps (so key types are explicit), with the values MessagePack carries. */
const messagePackLeaf = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.uint8Array({ maxLength: 300 }),
);
const messagePackKey = fc.oneof(
  { weight: 6, arbitrary: keyArbitrary },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.boolean() },
);
const { tree: messagePackTree } = fc.letrec<{ tree: unknown; map: Map<unknown, unknown> }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: messagePackLeaf },
    { weight: 2, arbitrary: tie('map') },
    { weight: 1, arbitrary: fc.array(tie('tree'), { maxLength: 3 }) },
  ),
  map: fc.array(fc.tuple(messagePackKey, tie('tree')), { maxLength: 3 }).map((entries) => new Map(entries)),
}));
const messagePackMessage = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(keyArbitrary, fc.oneof(fc.uint8Array({ maxLength: 400 }), messagePackTree))
      .map(([kind, data]) => new Map([[kind, new Map<unknown, unknown>([['data', data]])]])),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(keyArbitrary, messagePackTree).map(([kind, payload]) => new Map([[kind, payload]])),
  },
  { weight: 1, arbitrary: messagePackTree },
);
const maps = new Packr({ useRecords: false, mapsAsObjects: false });

const property = (t: ExecutionContext, run: () => void) => {
  run();
  t.pass();
};

test('random bytes in either frame type: a valid message or a protocol error, never a crash or a hang', (t) =>
  property(t, () =>
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2048 }),
        fc.constantFrom<MessageFormat>('json', 'msgpack'),
        fc.boolean(),
        (bytes, format, binary) => {
          const frame = Buffer.from(bytes);
          assertSane(decode(format, binary ? frame : frame.toString('utf8'), binary));
        },
      ),
      { numRuns: 1500, includeErrorInReport: true },
    ),
  ));

test('random text in a JSON session, lone surrogates included: a valid message or a protocol error', (t) =>
  property(t, () =>
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 500 }),
          fc.json(),
          fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', ':', ',', 'a', '1') }),
        ),
        (text) => {
          assertSane(decode('json', text, false));
        },
      ),
      { numRuns: 1500, includeErrorInReport: true },
    ),
  ));

/** Counts the model's verdicts, so a generator drifting to only-valid or only-invalid input is noticed. */
function verdicts() {
  const counts = { valid: 0, refused: 0 };
  return {
    counts,
    note(expected: Expectation) {
      if ('valid' in expected) counts.valid += 1;
      else counts.refused += 1;
    },
  };
}

test('JSON structures are judged exactly as the protocol rules say (model check)', (t) => {
  const seen = verdicts();
  fc.assert(
    fc.property(jsonMessageArbitrary, (value) => {
      const text = JSON.stringify(value);
      if (text === undefined) return; // e.g. a lone undefined: nothing a client could send
      const expected = expectJson(JSON.parse(text));
      seen.note(expected);
      assertMatchesModel(decode('json', text, false), expected, value);
    }),
    { numRuns: 2000, includeErrorInReport: true },
  );
  t.true(seen.counts.valid > 200 && seen.counts.refused > 200, JSON.stringify(seen.counts));
});

test('MessagePack structures are judged exactly as the protocol rules say (model check)', (t) => {
  const seen = verdicts();
  fc.assert(
    fc.property(messagePackMessage, (tree) => {
      const expected = expectMessagePack(tree);
      seen.note(expected);
      assertMatchesModel(decode('msgpack', maps.pack(tree), true), expected, tree);
    }),
    { numRuns: 2000, includeErrorInReport: true },
  );
  t.true(seen.counts.valid > 200 && seen.counts.refused > 200, JSON.stringify(seen.counts));
});

test('valid frames cut short, corrupted or padded: a valid message or a protocol error', (t) =>
  property(t, () =>
    fc.assert(
      fc.property(
        fc.constantFrom<MessageFormat>('json', 'msgpack'),
        fc.option(fc.uint8Array({ minLength: 1, maxLength: 600 }), { nil: undefined }),
        fc.oneof(
          fc.record({ cut: fc.nat() }),
          fc.record({
            flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }),
          }),
          fc.record({ insert: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) }),
        ),
        (format, audio, mutation) => {
          const message = audio ? { source_media_chunk: { data: Buffer.from(audio) } } : { end_of_source_media: {} };
          const original =
            format === 'msgpack'
              ? pack(message)
              : Buffer.from(
                  JSON.stringify(
                    audio ? { source_media_chunk: { data: Buffer.from(audio).toString('base64') } } : message,
                  ),
                );
          let frame: Buffer;
          if ('cut' in mutation) frame = original.subarray(0, mutation.cut % original.length);
          else if ('flips' in mutation) {
            frame = Buffer.from(original);
            for (const [position, mask] of mutation.flips) frame[position % frame.length] ^= mask;
          } else {
            const at = mutation.insert % (original.length + 1);
            frame = Buffer.concat([original.subarray(0, at), Buffer.from(mutation.bytes), original.subarray(at)]);
          }
          assertSane(decode(format, format === 'msgpack' ? frame : frame.toString('utf8'), format === 'msgpack'));
        },
      ),
      { numRuns: 2000, includeErrorInReport: true },
    ),
  ));

test('every non-empty chunk survives the round trip in both encodings', (t) =>
  property(t, () =>
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 4096 }), (bytes) => {
        const data = Buffer.from(bytes);
        const json = decode('json', JSON.stringify({ source_media_chunk: { data: data.toString('base64') } }), false);
        const messagePack = decode('msgpack', pack({ source_media_chunk: { data } }), true);
        for (const outcome of [json, messagePack]) {
          if (
            !('message' in outcome) ||
            !('source_media_chunk' in outcome.message) ||
            !outcome.message.source_media_chunk.data.equals(data)
          ) {
            throw new Error('a valid chunk did not decode to its bytes');
          }
        }
      }),
      { numRuns: 500, includeErrorInReport: true },
    ),
  ));

test('nesting floods are refused quickly in both encodings (a client message nests 2 levels)', (t) => {
  const deepJson = '{"source_media_chunk":' + '{"a":'.repeat(300_000) + '1' + '}'.repeat(300_000) + '}';
  const deepArrays = '['.repeat(500_000) + ']'.repeat(500_000);
  for (const text of [deepJson, deepArrays]) {
    const outcome = decode('json', text, false);
    t.true('error' in outcome && outcome.error.reason.reasonCode === 4000104);
  }
  // {"a": {"a": ...}} 300 000 maps deep, and 1 MiB of nested arrays.
  const deepMaps = Buffer.concat([
    ...Array<Buffer>(300_000).fill(Buffer.from([0x81, 0xa1, 0x61])),
    Buffer.from([0xc0]),
  ]);
  const nestedArrays = Buffer.concat([Buffer.alloc(1024 * 1024 - 1, 0x91), Buffer.from([0xc0])]);
  for (const frame of [deepMaps, nestedArrays]) {
    const outcome = decode('msgpack', frame, true);
    t.true(
      'error' in outcome && [4000101, 4000104, 4000105].includes(outcome.error.reason.reasonCode),
      JSON.stringify('error' in outcome ? outcome.error.toPayload() : outcome),
    );
  }
  // 33 levels of maps are refused by the rule itself, not by a stack overflow.
  let nested: unknown = 1;
  for (let level = 0; level < 33; level += 1) nested = new Map([['a', nested]]);
  const outcome = decode('msgpack', maps.pack(new Map([['source_media_chunk', nested]])), true);
  t.true(
    'error' in outcome &&
      outcome.error.reason.reasonCode === 4000104 &&
      /nested deeper than 32/.test(outcome.error.message),
  );
});

test('__proto__ and constructor keys never reach a prototype', (t) => {
  const before = Object.getOwnPropertyNames(Object.prototype).sort();
  const frames: Array<[MessageFormat, string | Buffer, boolean]> = [
    ['json', '{"__proto__":{"data":"AAAA"}}', false],
    ['json', '{"source_media_chunk":{"__proto__":{"data":"AAAA"}}}', false],
    ['json', '{"constructor":{"prototype":{"polluted":true}}}', false],
    ['msgpack', maps.pack(new Map([['__proto__', new Map([['polluted', true]])]])), true],
    [
      'msgpack',
      maps.pack(new Map([['source_media_chunk', new Map([['__proto__', new Map([['data', Buffer.from([1, 2])]])]])]])),
      true,
    ],
  ];
  for (const [format, frame, binary] of frames) {
    const outcome = decode(format, frame, binary);
    t.true('error' in outcome, `refused: ${String(frame)}`);
  }
  t.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), before);
  t.is(({} as Record<string, unknown>).polluted, undefined);
  t.is(({} as Record<string, unknown>).data, undefined);
});
