import test from 'ava';
import { pack, unpack } from 'msgpackr';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';
import { wordErrorRate } from './support/word-error-rate';
import { connect, refusedUpgrade, type StreamClient } from './support/ws-client';

let server: VoiceServer;
let key: string;
test.before(async () => {
  requireEnginePackages();
  server = await startVoiceServer({ registry: { maxSessionsPerKey: 3 } });
  key = await server.createApiKey('tests');
});
test.after.always(() => server?.close());

const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';

/** `authorization` null sends no Authorization header. */
async function requestSession(body: unknown, authorization: string | null = `DeepL-Auth-Key ${key}`) {
  const response = await fetch(`${server.url}/v3/voice/realtime`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

async function reconnect(token: string) {
  const response = await fetch(`${server.url}/v3/voice/realtime?token=${encodeURIComponent(token)}`, {
    headers: { authorization: `DeepL-Auth-Key ${key}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

const decode = (frame: { data: string | Buffer; isBinary: boolean }) =>
  frame.isBinary ? unpack(frame.data as Buffer) : JSON.parse(frame.data as string);

/** Streams PCM at twice real time in 100 ms chunks, then end_of_source_media; resolves at the close. */
async function streamPcm(client: StreamClient, pcm: Buffer, format: 'json' | 'msgpack') {
  for (let offset = 0; offset < pcm.length; offset += 3200) {
    const data = pcm.subarray(offset, offset + 3200);
    client.socket.send(
      format === 'json'
        ? JSON.stringify({ source_media_chunk: { data: data.toString('base64') } })
        : pack({ source_media_chunk: { data } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  client.socket.send(
    format === 'json' ? JSON.stringify({ end_of_source_media: {} }) : pack({ end_of_source_media: {} }),
  );
  return client.closed;
}

test.serial(
  'a session request answers streaming_url, token and session_id; the stream recognises, translates and speaks',
  async (t) => {
    const session = await requestSession({
      source_media_content_type: PCM_16K,
      target_languages: ['fr'],
      target_media_languages: ['es'],
    });
    t.is(session.status, 200);
    t.deepEqual(Object.keys(session.body).sort(), ['session_id', 'streaming_url', 'token']);
    t.is(session.body.streaming_url, `ws://${server.url.slice('http://'.length)}/v3/voice/realtime/connect`);
    const client = await connect(`${session.body.streaming_url}?token=${encodeURIComponent(session.body.token)}`);
    const closed = await streamPcm(client, spokenPassage([TABLE_SENTENCE], 600), 'json');
    t.is(closed.code, 1000);
    t.true(
      client.frames.every((frame) => !frame.isBinary),
      'JSON sessions answer in TEXT frames',
    );
    const messages = client.frames.map(decode);
    const kinds = messages.map((message) => Object.keys(message)[0]);
    t.is(kinds.at(-1), 'end_of_stream');
    const source = messages
      .flatMap((message) => message.source_transcript_update?.concluded ?? [])
      .map((segment: { text: string }) => segment.text)
      .join('');
    t.true(wordErrorRate(TABLE_SENTENCE, source) <= 0.2, source);
    const spanish = messages
      .filter((message) => message.target_transcript_update?.language === 'es')
      .flatMap((message) => message.target_transcript_update.concluded);
    t.true(
      spanish
        .map((segment: { text: string }) => segment.text)
        .join('')
        .includes('mesa'),
    );
    const french = messages
      .filter((message) => message.target_transcript_update?.language === 'fr')
      .flatMap((message) => message.target_transcript_update.concluded);
    t.true(
      french
        .map((segment: { text: string }) => segment.text)
        .join('')
        .includes('personnes'),
    );
    const media = messages.filter((message) => message.target_media_chunk).map((message) => message.target_media_chunk);
    t.is(media[0].content_type, 'audio/webm;codecs=opus');
    t.is(media[0].headers, 1);
    t.true(media.reduce((sum: number, chunk: { duration: number }) => sum + chunk.duration, 0) > 1500);

    // The token was used: a second connection with it is refused (and would end the session).
    const again = await refusedUpgrade(`${session.body.streaming_url}?token=${encodeURIComponent(session.body.token)}`);
    t.is(again.status, 403);
  },
);

test.serial('invalid or missing tokens never upgrade', async (t) => {
  const url = `ws://${server.url.slice('http://'.length)}/v3/voice/realtime/connect`;
  const invalid = await refusedUpgrade(`${url}?token=nonsense`);
  t.is(invalid.status, 403);
  t.deepEqual(JSON.parse(invalid.body), {
    message: 'Unknown or expired session token; request a new session',
    code: 'invalid_token',
  });
  const missing = await refusedUpgrade(url);
  t.is(missing.status, 401);
  t.is(JSON.parse(missing.body).code, 'missing_token');
});

test.serial('a second connection with the same token ends the session', async (t) => {
  const session = await requestSession({ source_media_content_type: PCM_16K, message_format: 'msgpack' });
  const url = `${session.body.streaming_url}?token=${encodeURIComponent(session.body.token)}`;
  const first = await connect(url);
  const refused = await refusedUpgrade(url);
  t.is(refused.status, 403);
  t.is(JSON.parse(refused.body).code, 'token_already_used');
  const closed = await first.closed;
  t.is(closed.code, 4001, 'the first connection is ended too');
  t.is((await reconnect(session.body.token)).status, 403, 'the session is gone');
});

test.serial(
  'reconnection rotates the token: the old connection closes, the new token connects, an outdated token ends the session',
  async (t) => {
    const session = await requestSession({ source_media_content_type: PCM_16K, message_format: 'msgpack' });
    const first = await connect(`${session.body.streaming_url}?token=${encodeURIComponent(session.body.token)}`);
    const rotated = await reconnect(session.body.token);
    t.is(rotated.status, 200);
    t.is(rotated.body.session_id, session.body.session_id);
    t.not(rotated.body.token, session.body.token);
    t.is((await first.closed).code, 4001);
    const second = await connect(`${rotated.body.streaming_url}?token=${encodeURIComponent(rotated.body.token)}`);
    second.socket.send(pack({ source_media_chunk: { data: Buffer.alloc(3200) } }));
    const outdated = await refusedUpgrade(
      `${session.body.streaming_url}?token=${encodeURIComponent(session.body.token)}`,
    );
    t.is(outdated.status, 403);
    t.is(JSON.parse(outdated.body).code, 'outdated_token');
    t.is((await second.closed).code, 4001, 'using the outdated token ended the session');
  },
);

test.serial(
  'a stream error is an error message in the session encoding, then a close with 4000 + status',
  async (t) => {
    const session = await requestSession({ source_media_content_type: PCM_16K, message_format: 'msgpack' });
    const client = await connect(`${session.body.streaming_url}?token=${encodeURIComponent(session.body.token)}`);
    client.socket.send(JSON.stringify({ source_media_chunk: { data: 'AAAA' } }));
    const frame = await client.next();
    t.true(frame.isBinary);
    t.deepEqual(unpack(frame.data as Buffer).error.reason_code, 4000102);
    const closed = await client.closed;
    t.is(closed.code, 4400);
  },
);

test.serial(
  'the session request refuses bad keys (401/403), bad bodies (400) and too many sessions (429) with {message, code}',
  async (t) => {
    const noKey = await requestSession({ source_media_content_type: PCM_16K }, null);
    t.is(noKey.status, 401);
    t.is(noKey.body.code, 'unauthorized');
    const wrongScheme = await requestSession({ source_media_content_type: PCM_16K }, `Bearer ${key}`);
    t.is(wrongScheme.status, 401);
    const unknownKey = await requestSession({ source_media_content_type: PCM_16K }, 'DeepL-Auth-Key dvs_not_a_key');
    t.is(unknownKey.status, 403);
    t.is(unknownKey.body.code, 'forbidden');
    const badType = await requestSession({ source_media_content_type: 'audio/wav' });
    t.is(badType.status, 400);
    t.is(badType.body.code, 'invalid_content_type');
    t.regex(badType.body.message, /audio\/wav/);
    const german = await requestSession({ source_media_content_type: PCM_16K, target_languages: ['de'] });
    t.deepEqual([german.status, german.body.code], [400, 'unsupported_target_language']);
    const withoutBody = await fetch(`${server.url}/v3/voice/realtime`, { method: 'POST' });
    t.is(withoutBody.status, 401, 'the key is checked first');
    const emptyBody = await fetch(`${server.url}/v3/voice/realtime`, {
      method: 'POST',
      headers: { authorization: `DeepL-Auth-Key ${key}` },
    });
    t.deepEqual([emptyBody.status, ((await emptyBody.json()) as { code: string }).code], [400, 'invalid_request']);
    const malformed = await requestSession('{"source_media_content_type": ');
    t.deepEqual([malformed.status, malformed.body.code], [400, 'invalid_request']);
    const missingToken = await fetch(`${server.url}/v3/voice/realtime`, {
      headers: { authorization: `DeepL-Auth-Key ${key}` },
    });
    t.is(missingToken.status, 400);

    const limited = await startVoiceServer({ engines: server.engines, registry: { maxSessionsPerKey: 1 } });
    try {
      const limitedKey = await limited.createApiKey('limited');
      const ask = () =>
        fetch(`${limited.url}/v3/voice/realtime`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `DeepL-Auth-Key ${limitedKey}` },
          body: JSON.stringify({ source_media_content_type: PCM_16K }),
        });
      t.is((await ask()).status, 200);
      const second = await ask();
      t.is(second.status, 429);
      t.is(((await second.json()) as { code: string }).code, 'too_many_sessions');
    } finally {
      await limited.close();
    }
  },
);
