import test, { type ExecutionContext } from 'ava';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { asJsonShape, DeepLSpec, SERVER_MESSAGE_SCHEMAS } from './support/deepl-spec';
import { LiveStream, requestReconnection, requestSession, streamAddress } from './support/live-stream';
import type { Received } from './support/session-harness';
import { REPORT_SENTENCE, spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';

// The server against DeepL's own published schemas (spec/deepl, copied from DeepLcom/api-docs): every session answer
// (the request, the reconnection, the refusals) and every message of a JSON and a MessagePack stream, translated
// speech included, must validate, and name no field the schemas do not.

let server: VoiceServer;
let key: string;
const spec = new DeepLSpec();
test.before(async () => {
  requireEnginePackages();
  server = await startVoiceServer({ sessionRateLimit: false });
  key = await server.createApiKey('deepl conformance');
});
test.after.always(() => server?.close());

const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';
const STREAMING_RESPONSE = 'deepl:openapi#/components/schemas/VoiceStreamingResponse';
const ERROR_RESPONSE = 'deepl:openapi#/components/schemas/ErrorResponse';

function conforms(t: ExecutionContext, reference: string, value: unknown, what: string): void {
  t.deepEqual(spec.check(reference, value), [], `${what} validates against ${reference}`);
  t.deepEqual(spec.undocumented(reference, value), [], `${what} names only fields of ${reference}`);
}

/** Checks every message of a stream; returns the kinds seen. */
function checkMessages(t: ExecutionContext, messages: Received[], format: 'json' | 'msgpack'): Set<string> {
  const kinds = new Set<string>();
  for (const [index, message] of messages.entries()) {
    const kind = Object.keys(message)[0];
    kinds.add(kind);
    t.is(Object.keys(message).length, 1, `message ${index} has one top-level key`);
    const reference = SERVER_MESSAGE_SCHEMAS[kind];
    if (!reference) {
      t.fail(`message ${index} is of an unknown kind ${kind}`);
      continue;
    }
    const shaped = format === 'msgpack' ? asJsonShape(message) : { value: message, binaryPaths: [] };
    if (format === 'msgpack') {
      // Raw bytes exactly where the schemas have binary fields (the audio of target_media_chunk.data).
      for (const where of shaped.binaryPaths)
        t.regex(where, /^\.target_media_chunk\.data\[\d+\]$/, `bytes at ${where}`);
      if (kind === 'target_media_chunk')
        t.is(shaped.binaryPaths.length, message.target_media_chunk.data.length, 'every media element is raw bytes');
    }
    conforms(t, reference, shaped.value, `${format} message ${index} (${kind})`);
  }
  return kinds;
}

for (const { format, targetMedia } of [
  { format: 'json', targetMedia: undefined },
  { format: 'msgpack', targetMedia: 'video/mp2t;codecs=opus' },
] as const) {
  test.serial(
    `a ${format} stream with translated speech (${targetMedia ?? 'the default format'}): every answer and message validates against DeepL's schemas`,
    async (t) => {
      const request: Record<string, unknown> = {
        source_media_content_type: PCM_16K,
        message_format: format,
        source_language: 'en',
        source_language_mode: 'fixed',
        target_languages: ['fr', 'ca'],
        target_media_languages: ['es'],
        target_media_voice: 'female',
      };
      if (targetMedia) request.target_media_content_type = targetMedia;
      const answer = await requestSession(server.url, key, request);
      t.is(answer.status, 200, JSON.stringify(answer.body));
      conforms(t, STREAMING_RESPONSE, answer.body, 'the session answer');
      const reconnected = await requestReconnection(server.url, key, answer.body.token);
      t.is(reconnected.status, 200, JSON.stringify(reconnected.body));
      conforms(t, STREAMING_RESPONSE, reconnected.body, 'the reconnection answer');

      const stream = await LiveStream.open(streamAddress(reconnected), format);
      t.teardown(() => stream.close());
      // 100 ms chunks every 60 ms: faster than real time, within the spec's pacing.
      await stream.stream(spokenPassage([TABLE_SENTENCE, REPORT_SENTENCE]), 3200, 60);
      await stream.waitFor('end_of_stream', (message) => 'end_of_stream' in message, 120_000);
      const kinds = checkMessages(t, stream.messages, format);
      t.deepEqual(
        [...kinds].sort(),
        [
          'end_of_source_transcript',
          'end_of_stream',
          'end_of_target_media',
          'end_of_target_transcript',
          'source_transcript_update',
          'target_media_chunk',
          'target_transcript_update',
        ],
        'every kind of message but error was checked',
      );
      const chunks = stream.mediaChunks('es');
      t.true(chunks.length > 2);
      t.true(
        chunks.slice(1).some((chunk) => !('text' in chunk)),
        'chunks after a segment’s first leave text out',
      );
    },
  );
}

test.serial('an error message and the refused session answers validate too', async (t) => {
  for (const format of ['json', 'msgpack'] as const) {
    const answer = await requestSession(server.url, key, {
      source_media_content_type: PCM_16K,
      message_format: format,
    });
    const stream = await LiveStream.open(streamAddress(answer), format);
    t.teardown(() => stream.close());
    // Three bytes of 16-bit PCM: not a whole number of frames.
    stream.send({ source_media_chunk: { data: Buffer.from([1, 2, 3]) } });
    await stream.waitFor('error', (message) => 'error' in message).catch(() => undefined);
    t.is(stream.errors().length, 1, JSON.stringify(stream.messages));
    checkMessages(t, stream.messages, format);
  }

  const post = (headers: Record<string, string>, body: unknown) =>
    fetch(`${server.url}/v3/voice/realtime`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const auth = { authorization: `DeepL-Auth-Key ${key}` };
  for (const [what, response, status] of [
    ['a bad content type', await post(auth, { source_media_content_type: 'audio/nothing' }), 400],
    ['a null field', await post(auth, { source_media_content_type: PCM_16K, message_format: null }), 400],
    ['no key', await post({}, { source_media_content_type: PCM_16K }), 401],
    [
      'an unknown key',
      await post({ authorization: 'DeepL-Auth-Key nope' }, { source_media_content_type: PCM_16K }),
      403,
    ],
    [
      'an outdated reconnection token',
      await fetch(`${server.url}/v3/voice/realtime?token=unknown`, { headers: auth }),
      403,
    ],
  ] as const) {
    t.is(response.status, status, what);
    conforms(t, ERROR_RESPONSE, await response.json(), `the answer to ${what}`);
  }
});
