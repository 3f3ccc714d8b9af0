import test from 'ava';
import type { PocketSphinxRecognizer } from '../src/engines/pocketsphinx/pocketsphinx-recognizer';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { descendantsOf, waitFor } from './support/child-processes';
import { LiveStream, requestSession, streamAddress } from './support/live-stream';
import { encodeAudio, spokenPassage, SOURCE_CODECS, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';
import { refusedUpgrade } from './support/ws-client';

// Issue 23 §3 / issue 17 item 5: what a session costs before it sends audio, and the global session limit.

test.before(() => requireEnginePackages());

const OGG_OPUS = SOURCE_CODECS[0];
const ffmpegCount = () => descendantsOf().filter((entry) => entry.name === 'ffmpeg').length;
const busyRecognizers = (server: VoiceServer) =>
  (server.engines.recognizer as PocketSphinxRecognizer).busyWorkerThreads().length;

async function started(t: { teardown(fn: () => unknown): void }, options: Parameters<typeof startVoiceServer>[0]) {
  const server = await startVoiceServer(options);
  t.teardown(() => server.close());
  return { server, key: await server.createApiKey('capacity tests') };
}

test.serial(
  '40 connected sessions that send no audio hold no recognition decoder and no ffmpeg; the first chunk starts them',
  async (t) => {
    const { server, key } = await started(t, { maxSessions: 48, registry: { maxSessionsPerKey: 48 } });
    const ffmpegBefore = ffmpegCount();
    const streams: LiveStream[] = [];
    t.teardown(() => streams.forEach((stream) => stream.close()));
    for (let index = 0; index < 40; index++) {
      // Ogg/Opus needs an ffmpeg decoder: none may start before audio comes.
      streams.push(
        await LiveStream.open(
          streamAddress(
            await requestSession(server.url, key, {
              source_media_content_type: OGG_OPUS.contentType,
              target_languages: ['es'],
            }),
          ),
        ),
      );
    }
    await waitFor('40 running sessions', () => (server.capacity.running === 40 ? true : undefined));
    t.is(busyRecognizers(server), 0, 'no recognition worker serves an idle session');
    t.is(ffmpegCount(), ffmpegBefore, 'no audio decoder runs for an idle session');

    // One session speaks: it gets its decoder and recogniser, and is recognised as before.
    const speaking = streams[0];
    const audio = encodeAudio(spokenPassage([TABLE_SENTENCE], 600), OGG_OPUS.args);
    await speaking.stream(audio, 400, 100); // 32 kbit/s: 100 ms per 100 ms, real time
    const closed = await speaking.closed;
    t.is(closed.code, 1000, JSON.stringify(speaking.messages.slice(-3)));
    t.regex(speaking.sourceText(), /table for two people/i);
    t.true(speaking.targetText('es').includes('mesa'));
    for (const stream of streams) stream.close();
    await waitFor('every session ended', () => (server.capacity.running === 0 ? true : undefined));
    await waitFor('no recogniser busy', () => (busyRecognizers(server) === 0 ? true : undefined));
  },
);

test.serial(
  'beyond the global session limit: 503 server_busy with Retry-After at the request and at the upgrade; the token stays valid',
  async (t) => {
    const { server, key } = await started(t, { maxSessions: 2 });
    const body = { source_media_content_type: 'audio/pcm;encoding=s16le;rate=16000', target_languages: ['es'] };
    const [first, second, third] = [
      await requestSession(server.url, key, body),
      await requestSession(server.url, key, body),
      await requestSession(server.url, key, body),
    ];
    t.is(third.status, 200, 'a session may be requested while streams have room');
    const streams = [await LiveStream.open(streamAddress(first)), await LiveStream.open(streamAddress(second))];
    t.teardown(() => streams.forEach((stream) => stream.close()));
    await waitFor('2 running sessions', () => (server.capacity.running === 2 ? true : undefined));

    const response = await fetch(`${server.url}/v3/voice/realtime`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `DeepL-Auth-Key ${key}` },
      body: JSON.stringify(body),
    });
    t.is(response.status, 503);
    t.is(response.headers.get('retry-after'), '5');
    t.deepEqual(await response.json(), {
      message: 'This server runs its maximum of 2 concurrent voice sessions; retry in a few seconds',
      code: 'server_busy',
    });

    const refused = await refusedUpgrade(streamAddress(third));
    t.is(refused.status, 503);
    t.is(JSON.parse(refused.body).code, 'server_busy');

    // A place frees up: the refused token (never used) now opens its stream, which runs normally.
    streams[0].close();
    await waitFor('a free place', () => (server.capacity.running === 1 ? true : undefined));
    const retried = await LiveStream.open(streamAddress(third));
    streams.push(retried);
    retried.send({ end_of_source_media: {} });
    t.is((await retried.closed).code, 1000);
    t.is(retried.kinds().at(-1), 'end_of_stream');
  },
);
