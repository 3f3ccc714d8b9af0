import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { pack, unpack } from 'msgpackr';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { LiveStream, requestSession, streamAddress } from './support/live-stream';
import { buildFrame, Opcode, RawWebSocket, type RawOutcome, type ServerFrame } from './support/raw-websocket';
import { silence, spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';
import { wordErrorRate } from './support/word-error-rate';

// WebSocket abuse against the running server, over raw TCP so that anything can be sent. Two kinds of ending:
// * frame-level violations (not a WebSocket frame, reserved bits or opcodes, invalid UTF-8 in a TEXT frame,
//   a message over maxPayloadLength) make uWebSockets.js "fail the connection" (RFC 6455 section 7.1.7):
//   TCP closed at once without a close frame, which clients report as 1006;
// * everything that is a frame but not an acceptable message gets the stream's `error` message and the
//   close code 4000 + its status (4400, 4408, 4429).
// Whatever happens, the connection ends within a bound and the next normal session works.

/** The no-audio limit, shortened so that frames that never complete are ended quickly. */
const IDLE_MS = 2000;
/** Failing a connection takes no time; anything slower than this was not a fail. */
const FAIL_BOUND_MS = 1500;

let server: VoiceServer;
let key: string;
test.before(async () => {
  requireEnginePackages();
  // Abused connections leave sessions waiting for a reconnection: allow many (and many session requests of the key:
  // its rate limit is tested in http-operations).
  server = await startVoiceServer({
    limits: { idleTimeoutMs: IDLE_MS },
    registry: { maxSessionsPerKey: 10_000 },
    sessionRateLimit: { limit: 1_000_000 },
  });
  key = await server.createApiKey('abuse tests');
});
test.after.always(() => server?.close());

const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';

async function rawSession(format: 'json' | 'msgpack' = 'json'): Promise<RawWebSocket> {
  return RawWebSocket.connect(
    streamAddress(
      await requestSession(server.url, key, { source_media_content_type: PCM_16K, message_format: format }),
    ),
  );
}

/** A server message frame as the client decodes it. */
function decodeFrame(frame: ServerFrame): Record<string, any> {
  return frame.opcode === Opcode.binary ? unpack(frame.payload) : JSON.parse(frame.payload.toString('utf8'));
}

/** The connection was failed by uWebSockets.js: closed at once, no close frame. */
function assertFailed(t: ExecutionContext, outcome: RawOutcome, what: string): void {
  t.is(
    outcome.closeCode,
    undefined,
    `${what}: no close frame expected, got ${outcome.closeCode} ${outcome.closeReason}`,
  );
  t.true(outcome.elapsedMs < FAIL_BOUND_MS, `${what}: closed after ${outcome.elapsedMs} ms`);
}

/** The stream sent one `error` message with `reasonCode` and closed with 4000 + its status. */
function assertErrorClose(t: ExecutionContext, outcome: RawOutcome, reasonCode: number, what: string): void {
  const messages = outcome.frames.map(decodeFrame);
  const errors = messages.filter((message) => message.error);
  t.is(errors.length, 1, `${what}: ${JSON.stringify(messages).slice(0, 300)}`);
  t.is(errors[0]?.error.reason_code, reasonCode, what);
  t.is(outcome.closeCode, 4000 + Math.floor(reasonCode / 10000), what);
}

/** A short normal session still works: silence, end_of_source_media, the end sequence, close 1000. */
async function assertServerCarriesOn(t: ExecutionContext): Promise<void> {
  const stream = await LiveStream.open(
    streamAddress(
      await requestSession(server.url, key, { source_media_content_type: PCM_16K, target_languages: ['es'] }),
    ),
  );
  await stream.stream(silence(300), 3200, 50);
  const closed = await stream.closed;
  t.is(closed.code, 1000, 'a normal session after the abuse');
  t.deepEqual(stream.kinds(), ['end_of_source_transcript', 'end_of_target_transcript', 'end_of_stream']);
}

test.serial(
  'random bytes instead of frames: the connection ends within a bound and the server carries on',
  async (t) => {
    t.timeout(180_000);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 4096 }), async (bytes) => {
        const socket = await rawSession();
        await socket.write(Buffer.from(bytes));
        // Usually not a frame (failed at once); by chance a frame that waits for more bytes (the no-audio limit).
        const outcome = await socket.outcome(IDLE_MS + 5000);
        if (outcome.closeCode !== undefined && (outcome.closeCode < 1000 || outcome.closeCode > 4999))
          throw new Error(`close code ${outcome.closeCode}`);
      }),
      { numRuns: 30, includeErrorInReport: true },
    );
    await assertServerCarriesOn(t);
  },
);

test.serial(
  'random messages in well-formed frames: an error message and 4400 (or an accepted chunk), never a crash',
  async (t) => {
    t.timeout(180_000);
    const payloads = fc.oneof(
      fc.json().map((text) => ({ binary: false, payload: Buffer.from(text) })),
      fc.string({ maxLength: 300 }).map((text) => ({ binary: false, payload: Buffer.from(text) })),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ binary: true, payload: Buffer.from(bytes) })),
      fc
        .dictionary(fc.constantFrom('source_media_chunk', 'end_of_source_media', 'x'), fc.anything({ maxDepth: 2 }), {
          maxKeys: 2,
        })
        .map((value) => ({ binary: true, payload: pack(value) })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<'json' | 'msgpack'>('json', 'msgpack'),
        payloads,
        async (format, { binary, payload }) => {
          const socket = await rawSession(format);
          await socket.send({ opcode: binary ? Opcode.binary : Opcode.text, payload });
          // An accepted message leaves the stream open: end it, and a stream ends with end_of_stream (1000).
          await socket.send({
            opcode: format === 'json' ? Opcode.text : Opcode.binary,
            payload: format === 'json' ? Buffer.from('{"end_of_source_media":{}}') : pack({ end_of_source_media: {} }),
          });
          const outcome = await socket.outcome(IDLE_MS + 10_000);
          const last = outcome.frames.at(-1);
          if (outcome.closeCode === undefined) {
            // Only a TEXT frame with invalid UTF-8 is failed by uWebSockets.js.
            if (binary || Buffer.from(payload.toString('utf8')).equals(payload))
              throw new Error('connection failed without a close frame for a valid frame');
            return;
          }
          const decoded = last && decodeFrame(last);
          if (outcome.closeCode === 1000) {
            if (!decoded?.end_of_stream) throw new Error(`1000 without end_of_stream: ${JSON.stringify(decoded)}`);
          } else if (
            !decoded?.error ||
            outcome.closeCode !== 4000 + decoded.error.error_code ||
            decoded.error.error_code >= 500
          ) {
            throw new Error(`close ${outcome.closeCode} after ${JSON.stringify(decoded)}`);
          }
        },
      ),
      { numRuns: 40, includeErrorInReport: true },
    );
    await assertServerCarriesOn(t);
  },
);

test.serial(
  'truncated frames: cut off by the client, the socket closes at once; left hanging, the no-audio limit ends it (4408)',
  async (t) => {
    t.timeout(60_000);
    const whole = buildFrame({
      opcode: Opcode.text,
      payload: Buffer.from(JSON.stringify({ source_media_chunk: { data: Buffer.alloc(3200).toString('base64') } })),
    });
    const hanging = await rawSession();
    await hanging.write(whole.subarray(0, 100));
    const timedOut = await hanging.outcome(IDLE_MS + 5000);
    assertErrorClose(t, timedOut, 4080401, 'a frame that never completes');
    t.true(
      timedOut.elapsedMs >= IDLE_MS - 100 && timedOut.elapsedMs < IDLE_MS + 3000,
      `ended after ${timedOut.elapsedMs} ms`,
    );

    const cut = await rawSession();
    await cut.write(whole.subarray(0, 100));
    cut.socket.end(); // the client half-closes in the middle of a frame
    const ended = await cut.outcome(5000);
    t.true(ended.elapsedMs < FAIL_BOUND_MS, `closed after ${ended.elapsedMs} ms`);

    // A header announcing a frame of 2^40 bytes is failed at once, not waited for.
    const huge = await rawSession();
    await huge.write(Buffer.from([0x82, 0xff, 0, 0, 1, 0, 0, 0, 0, 0, 1, 2, 3, 4]));
    assertFailed(t, await huge.outcome(5000), 'a 1 TiB frame header');
    await assertServerCarriesOn(t);
  },
);

test.serial(
  'oversized messages: over 100 kB an error message (4000401); over maxPayloadLength (1 MiB) the connection is failed',
  async (t) => {
    t.timeout(60_000);
    const overChunk = await rawSession();
    await overChunk.send({
      opcode: Opcode.text,
      payload: Buffer.from(
        JSON.stringify({ source_media_chunk: { data: Buffer.alloc(200 * 1024).toString('base64') } }),
      ),
    });
    assertErrorClose(t, await overChunk.outcome(5000), 4000401, 'a 200 kB chunk');

    const overFrame = await rawSession();
    await overFrame.send({ opcode: Opcode.text, payload: Buffer.alloc(1024 * 1024 + 1, 0x20) });
    assertFailed(t, await overFrame.outcome(5000), 'a frame of 1 MiB + 1');

    // The limit holds for a message assembled from fragments too.
    const fragments = await rawSession('msgpack');
    for (let index = 0; index < 5; index += 1) {
      await fragments.send({
        opcode: index === 0 ? Opcode.binary : Opcode.continuation,
        payload: Buffer.alloc(300 * 1024),
        fin: false,
      });
    }
    assertFailed(t, await fragments.outcome(5000), '1.5 MiB in fragments');
    await assertServerCarriesOn(t);
  },
);

test.serial(
  'wrong frame types: BINARY/TEXT swapped get 4000102 and 4400; invalid frames fail the connection',
  async (t) => {
    t.timeout(60_000);
    const binaryInJson = await rawSession('json');
    await binaryInJson.send({ opcode: Opcode.binary, payload: pack({ end_of_source_media: {} }) });
    assertErrorClose(t, await binaryInJson.outcome(5000), 4000102, 'BINARY in a JSON session');
    const textInMessagePack = await rawSession('msgpack');
    await textInMessagePack.send({ opcode: Opcode.text, payload: Buffer.from('{"end_of_source_media":{}}') });
    assertErrorClose(t, await textInMessagePack.outcome(5000), 4000102, 'TEXT in a MessagePack session');

    const invalid: Array<[string, Buffer]> = [
      [
        'invalid UTF-8 in a TEXT frame',
        buildFrame({ opcode: Opcode.text, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }),
      ],
      ['reserved data opcode 0x3', buildFrame({ opcode: 0x3, payload: Buffer.from('{}') })],
      ['reserved control opcode 0xB', buildFrame({ opcode: 0xb })],
      ['RSV1 without permessage-deflate', buildFrame({ opcode: Opcode.text, payload: Buffer.from('{}'), rsv: 4 })],
      [
        'continuation without a first fragment',
        buildFrame({ opcode: Opcode.continuation, payload: Buffer.from('{}') }),
      ],
      [
        'a new message inside a fragmented one',
        Buffer.concat([
          buildFrame({ opcode: Opcode.text, payload: Buffer.from('{'), fin: false }),
          buildFrame({ opcode: Opcode.text, payload: Buffer.from('{}') }),
        ]),
      ],
      ['a ping over 125 bytes', buildFrame({ opcode: Opcode.ping, payload: Buffer.alloc(126) })],
      ['a fragmented ping', buildFrame({ opcode: Opcode.ping, payload: Buffer.from('x'), fin: false })],
      [
        'a close frame with the invalid code 999',
        buildFrame({ opcode: Opcode.close, payload: Buffer.from([0x03, 0xe7]) }),
      ],
    ];
    for (const [what, bytes] of invalid) {
      const socket = await rawSession();
      await socket.write(bytes);
      assertFailed(t, await socket.outcome(5000), what);
    }

    // An unmasked client frame is not understood as a message at all: the no-audio limit ends the stream.
    const unmasked = await rawSession();
    await unmasked.send({ opcode: Opcode.text, payload: Buffer.from('{"end_of_source_media":{}}'), masked: false });
    assertErrorClose(t, await unmasked.outcome(IDLE_MS + 5000), 4080401, 'an unmasked frame');
    await assertServerCarriesOn(t);
  },
);

test.serial(
  'floods: too many messages (4290403), audio beyond twice real time (4290401), and pings from a client that does not read (4429)',
  async (t) => {
    t.timeout(90_000);
    const messages = await rawSession();
    const tinyChunk = buildFrame({
      opcode: Opcode.text,
      payload: Buffer.from('{"source_media_chunk":{"data":"AAA="}}'),
    });
    await messages.write(Buffer.concat(Array<Buffer>(2000).fill(tinyChunk)));
    assertErrorClose(t, await messages.outcome(5000), 4290403, '2000 tiny chunks at once');

    const audio = await rawSession('msgpack');
    const chunk = buildFrame({ opcode: Opcode.binary, payload: pack({ source_media_chunk: { data: silence(100) } }) });
    await audio.write(Buffer.concat(Array<Buffer>(100).fill(chunk))); // 10 s of audio at once
    assertErrorClose(t, await audio.outcome(5000), 4290401, '10 s of audio at once');

    // A client that floods pings and reads nothing: the pongs pile up until 4 MiB are unsent, then the server
    // closes; the close frame still fits behind them (uWebSockets.js's own limit is 8 MiB), so a client that
    // reads again finds 4429 at the end.
    const pings = await rawSession();
    pings.pauseReading();
    const ping = buildFrame({ opcode: Opcode.ping, payload: Buffer.alloc(125, 0x70) });
    const batch = Buffer.concat(Array<Buffer>(10_000).fill(ping));
    const rssBefore = process.memoryUsage().rss;
    for (let sent = 0; sent < 400_000 && !pings.socket.destroyed; sent += 10_000) await pings.write(batch);
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    pings.resumeReading();
    const flooded = await pings.outcome(20_000);
    t.is(flooded.closeCode, 4429);
    t.regex(flooded.closeReason, /does not read: \d+ bytes unsent/);
    t.true(
      flooded.frames.every((frame) => frame.opcode === Opcode.pong),
      'only pongs before the close',
    );
    t.true(
      rssGrowth < 200 * 1024 * 1024,
      `the server (in this process) grew by ${Math.round(rssGrowth / 1048576)} MiB`,
    );
    await assertServerCarriesOn(t);
  },
);

test.serial('after all the abuse, a spoken session is recognised and translated as usual', async (t) => {
  t.timeout(60_000);
  const stream = await LiveStream.open(
    streamAddress(
      await requestSession(server.url, key, { source_media_content_type: PCM_16K, target_languages: ['es'] }),
    ),
  );
  await stream.stream(spokenPassage([TABLE_SENTENCE], 600), 3200, 50);
  t.is((await stream.closed).code, 1000);
  t.true(wordErrorRate(TABLE_SENTENCE, stream.sourceText()) <= 0.2, stream.sourceText());
  t.true(stream.targetText('es').includes('mesa'));
});
