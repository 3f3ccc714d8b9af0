import { randomBytes } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { Packr, pack } from 'msgpackr';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { ManualScheduler } from '../src/domain/session/scheduler';
import { DEFAULT_SESSION_LIMITS } from '../src/domain/session/session-limits';
import { encodeAudio, fliteSpeech, silence, TABLE_SENTENCE } from './support/speech-fixtures';
import { clientFrame, kinds, openSession, sendChunk, sendEnd, type OpenSession } from './support/session-harness';
import { requireEnginePackages } from './support/system-packages';

let engines: VoiceEngines;
test.before(() => {
  requireEnginePackages();
  engines = createOfflineEngines();
});
test.after.always(() => engines?.close());

const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';

function session(request: Record<string, unknown> = {}) {
  const scheduler = new ManualScheduler();
  const open = openSession(engines, { source_media_content_type: PCM_16K, ...request }, { scheduler });
  return { open, scheduler };
}

/** The session sent exactly one error, as its last message, with these codes, and closed. */
async function assertEndedWith(
  t: ExecutionContext,
  open: OpenSession,
  requestType: string,
  errorCode: number,
  reasonCode: number,
): Promise<Record<string, unknown>> {
  await open.session.done;
  const errors = open.received.filter((message) => message.error);
  t.is(errors.length, 1, `expected one error, got ${JSON.stringify(open.received.slice(-3))}`);
  t.is(kinds(open.received).at(-1), 'error');
  const error = errors[0].error;
  t.deepEqual(Object.keys(error).sort(), ['error_code', 'error_message', 'reason_code', 'request_type']);
  t.is(error.request_type, requestType);
  t.is(error.error_code, errorCode);
  t.is(error.reason_code, reasonCode);
  t.true(String(reasonCode).length === 7);
  t.true(typeof error.error_message === 'string' && error.error_message.length > 10);
  t.true(open.closed, 'the connection is closed after an error');
  // Nothing more happens afterwards, whatever the client sends.
  const count = open.received.length;
  sendChunk(open, silence(100));
  t.is(open.received.length, count);
  return error;
}

test.serial('the limits default to the spec values', (t) => {
  t.is(DEFAULT_SESSION_LIMITS.maxChunkBytes, 100 * 1024);
  t.is(DEFAULT_SESSION_LIMITS.maxChunkMs, 1000);
  t.is(DEFAULT_SESSION_LIMITS.idleTimeoutMs, 30_000);
  t.is(DEFAULT_SESSION_LIMITS.maxConnectionMs, 3_600_000);
});

test.serial('a chunk over 100 kB is refused (400 / 4000401)', async (t) => {
  const { open } = session({ source_media_content_type: 'audio/mpeg' });
  sendChunk(open, randomBytes(100 * 1024 + 1));
  const error = await assertEndedWith(t, open, 'source_media_chunk', 400, 4000401);
  t.regex(String(error.error_message), /102401 bytes/);
});

test.serial('a chunk of exactly 100 kB is accepted', async (t) => {
  const { open } = session({ source_media_content_type: 'audio/pcm;encoding=s16le;rate=48000' });
  sendChunk(open, silence(1000, 48000).subarray(0, 96000));
  sendEnd(open);
  await open.session.done;
  t.is(kinds(open.received).at(-1), 'end_of_stream');
});

test.serial('a chunk holding more than one second of audio is refused (400 / 4000402)', async (t) => {
  const { open } = session();
  sendChunk(open, silence(1000 + 1 / 16));
  const error = await assertEndedWith(t, open, 'source_media_chunk', 400, 4000402);
  t.regex(String(error.error_message), /1000 ms/);
});

test.serial('a chunk of exactly one second is accepted', async (t) => {
  const { open } = session();
  sendChunk(open, silence(1000));
  sendEnd(open);
  await open.session.done;
  t.is(kinds(open.received).at(-1), 'end_of_stream');
});

test.serial('a PCM chunk that is not a whole number of frames is refused (400 / 4000404)', async (t) => {
  const { open } = session();
  sendChunk(open, Buffer.alloc(3201));
  await assertEndedWith(t, open, 'source_media_chunk', 400, 4000404);
});

test.serial('chunks arriving faster than half their duration apart are refused (429 / 4290401)', async (t) => {
  const { open, scheduler } = session();
  // 200 ms chunks every 20 ms (10 x real time): twice real time plus 500 ms of jitter is exceeded when
  // 1600 ms have arrived within 140 ms (2 x (140 + 500) = 1280).
  for (let index = 0; index < 12 && !open.closed; index += 1) {
    sendChunk(open, silence(200));
    scheduler.advance(20);
  }
  const error = await assertEndedWith(t, open, 'source_media_chunk', 429, 4290401);
  t.regex(String(error.error_message), /1400 ms of audio arrived within 140 ms/);
});

test.serial('two chunks bunched together by the network are forgiven', async (t) => {
  const { open, scheduler } = session();
  sendChunk(open, silence(100));
  sendChunk(open, silence(100));
  scheduler.advance(100);
  sendChunk(open, silence(100));
  sendEnd(open);
  await open.session.done;
  t.is(kinds(open.received).at(-1), 'end_of_stream');
});

test.serial('chunks exactly half their duration apart (twice real time) are accepted', async (t) => {
  const { open, scheduler } = session();
  for (let index = 0; index < 10; index += 1) {
    sendChunk(open, silence(200));
    scheduler.advance(100);
  }
  sendEnd(open);
  await open.session.done;
  t.is(kinds(open.received).at(-1), 'end_of_stream');
});

test.serial('compressed audio sent faster than twice real time is refused once decoded (429 / 4290402)', async (t) => {
  const mp3 = encodeAudio(Buffer.concat([fliteSpeech(TABLE_SENTENCE), silence(1000)]), [
    '-c:a',
    'libmp3lame',
    '-b:a',
    '64k',
    '-f',
    'mp3',
  ]);
  const { open } = session({ source_media_content_type: 'audio/mpeg' });
  // 5 s of audio at once, while the clock stands still.
  for (let offset = 0; offset < mp3.length; offset += 4000) sendChunk(open, mp3.subarray(offset, offset + 4000));
  await assertEndedWith(t, open, 'source_media_chunk', 429, 4290402);
});

test.serial('30 s without audio end the session (408 / 4080401)', async (t) => {
  const { open, scheduler } = session();
  scheduler.advance(29_999);
  t.deepEqual(open.received, []);
  sendChunk(open, silence(100));
  scheduler.advance(29_999);
  t.false(open.closed, 'each chunk restarts the 30 s');
  scheduler.advance(1);
  const error = await assertEndedWith(t, open, 'source_media_chunk', 408, 4080401);
  t.regex(String(error.error_message), /30 s/);
});

test.serial('a connection ends after one hour (408 / 4080402)', async (t) => {
  const { open, scheduler } = session();
  // A chunk every 20 s keeps the 30 s idle limit away; the last one at 59:40.
  for (let elapsed = 0; elapsed <= 3_580_000; elapsed += 20_000) {
    if (elapsed > 0) scheduler.advance(20_000);
    sendChunk(open, silence(100));
  }
  scheduler.advance(19_999);
  t.false(open.closed);
  scheduler.advance(1);
  const error = await assertEndedWith(t, open, 'source_media_chunk', 408, 4080402);
  t.regex(String(error.error_message), /60 minutes/);
});

test.serial('audio that is not the declared format is refused (400 / 4000403)', async (t) => {
  const { open } = session({ source_media_content_type: 'audio/ogg;codecs=opus' });
  sendChunk(open, randomBytes(4000));
  sendChunk(open, randomBytes(4000));
  sendEnd(open);
  const error = await assertEndedWith(t, open, 'source_media_chunk', 400, 4000403);
  t.regex(String(error.error_message), /Audio format not supported/);
});

test.serial('MP3 bytes declared as FLAC are refused (400 / 4000403)', async (t) => {
  const mp3 = encodeAudio(fliteSpeech(TABLE_SENTENCE), ['-c:a', 'libmp3lame', '-f', 'mp3']);
  const { open, scheduler } = session({ source_media_content_type: 'audio/flac' });
  for (let offset = 0; offset < mp3.length; offset += 1600) {
    sendChunk(open, mp3.subarray(offset, offset + 1600));
    scheduler.advance(100);
  }
  sendEnd(open);
  await assertEndedWith(t, open, 'source_media_chunk', 400, 4000403);
});

test.serial('a BINARY frame in a JSON session is refused (400 / 4000102)', async (t) => {
  const { open } = session();
  open.session.receiveFrame(pack({ source_media_chunk: { data: silence(100) } }), true);
  await assertEndedWith(t, open, 'unknown', 400, 4000102);
});

test.serial('a TEXT frame in a MessagePack session is refused (400 / 4000102)', async (t) => {
  const { open } = session({ message_format: 'msgpack' });
  open.session.receiveFrame(JSON.stringify({ source_media_chunk: { data: silence(100).toString('base64') } }), false);
  await assertEndedWith(t, open, 'unknown', 400, 4000102);
});

test.serial('array-based MessagePack is refused (400 / 4000105)', async (t) => {
  const { open } = session({ message_format: 'msgpack' });
  open.session.receiveFrame(pack([['source_media_chunk', { data: silence(100) }]]), true);
  await assertEndedWith(t, open, 'unknown', 400, 4000105);
});

test.serial('integer-keyed MessagePack is refused (400 / 4000105)', async (t) => {
  const { open } = session({ message_format: 'msgpack' });
  open.session.receiveFrame(pack(new Map<unknown, unknown>([[1, new Map([['data', silence(100)]])]])), true);
  await assertEndedWith(t, open, 'unknown', 400, 4000105);
});

test.serial('msgpackr record (structure) encoding is refused (400 / 4000105)', async (t) => {
  const { open } = session({ message_format: 'msgpack' });
  const records = new Packr({ useRecords: true });
  open.session.receiveFrame(records.pack({ source_media_chunk: { data: silence(100) } }), true);
  await assertEndedWith(t, open, 'unknown', 400, 4000105);
});

test.serial('an unknown message kind is refused (400 / 4000103)', async (t) => {
  const { open } = session();
  const frame = clientFrame('json', { target_media_chunk: { data: [] } });
  open.session.receiveFrame(frame.data, frame.binary);
  await assertEndedWith(t, open, 'target_media_chunk', 400, 4000103);
});

test.serial('a frame that is not JSON is refused (400 / 4000101)', async (t) => {
  const { open } = session();
  open.session.receiveFrame('{"source_media_chunk": {', false);
  await assertEndedWith(t, open, 'unknown', 400, 4000101);
});

test.serial('a message with two kinds is refused (400 / 4000104)', async (t) => {
  const { open } = session();
  open.session.receiveFrame(JSON.stringify({ source_media_chunk: { data: 'AAAA' }, end_of_source_media: {} }), false);
  await assertEndedWith(t, open, 'source_media_chunk', 400, 4000104);
});

test.serial('source_media_chunk.data that is not base64 is refused (400 / 4000106)', async (t) => {
  const { open } = session();
  open.session.receiveFrame(JSON.stringify({ source_media_chunk: { data: 'not base64!' } }), false);
  await assertEndedWith(t, open, 'source_media_chunk', 400, 4000106);
});

test.serial('MessagePack data as a string instead of binary is refused (400 / 4000106)', async (t) => {
  const { open } = session({ message_format: 'msgpack' });
  open.session.receiveFrame(pack({ source_media_chunk: { data: silence(100).toString('base64') } }), true);
  await assertEndedWith(t, open, 'source_media_chunk', 400, 4000106);
});

test.serial('an empty chunk is refused (400 / 4000106)', async (t) => {
  const { open } = session();
  open.session.receiveFrame(JSON.stringify({ source_media_chunk: { data: '' } }), false);
  await assertEndedWith(t, open, 'source_media_chunk', 400, 4000106);
});

test.serial('a chunk after end_of_source_media is refused (400 / 4000107)', async (t) => {
  const { open } = session();
  sendChunk(open, silence(100));
  sendEnd(open);
  sendChunk(open, silence(100));
  await assertEndedWith(t, open, 'source_media_chunk', 400, 4000107);
});

test.serial('end_of_source_media without any audio ends the stream cleanly', async (t) => {
  const { open } = session({ target_languages: ['es'], target_media_languages: ['es'] });
  sendEnd(open);
  await open.session.done;
  t.deepEqual(kinds(open.received), [
    'end_of_source_transcript',
    'end_of_target_transcript',
    'end_of_target_media',
    'end_of_stream',
  ]);
});

test.serial('a client that disconnects gets nothing more and its engines stop', async (t) => {
  const { open } = session({ target_languages: ['es'] });
  sendChunk(open, fliteSpeech(TABLE_SENTENCE).subarray(0, 32000));
  open.session.disconnect();
  await open.session.done;
  const count = open.received.length;
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.is(open.received.length, count);
  t.is(open.session.state, 'ended');
});
