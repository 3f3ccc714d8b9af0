import test from 'ava';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { rms } from '../src/domain/media/pcm';
import { ManualScheduler } from '../src/domain/session/scheduler';
import { decodeAudio, REPORT_SENTENCE, spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import {
  kinds,
  mediaChunks,
  mediaElements,
  openSession,
  streamAll,
  targetConcluded,
  text,
} from './support/session-harness';
import { oggFromOpusPackets, opusPacketSamples } from './support/ogg-writer';
import { requireEnginePackages } from './support/system-packages';

let engines: VoiceEngines;
let passage: Buffer;
test.before(() => {
  requireEnginePackages();
  engines = createOfflineEngines();
  passage = spokenPassage([TABLE_SENTENCE, REPORT_SENTENCE]);
});
test.after.always(() => engines?.close());

const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';

interface TargetCase {
  readonly request: string | undefined;
  readonly contentType: string;
  readonly headers: number;
  /** Decodes the concatenated data elements to PCM s16le 16 kHz. */
  decode(elements: Buffer[], headerCount: number): Buffer;
}

const container = (elements: Buffer[]) => decodeAudio(Buffer.concat(elements));
const raw = (format: string, rate: number) => (elements: Buffer[]) =>
  decodeAudio(Buffer.concat(elements), ['-f', format, '-ar', String(rate), '-ac', '1']);

const CASES: TargetCase[] = [
  { request: undefined, contentType: 'audio/webm;codecs=opus', headers: 1, decode: container },
  { request: 'audio/webm', contentType: 'audio/webm;codecs=opus', headers: 1, decode: container },
  { request: 'audio/ogg; codecs=opus', contentType: 'audio/ogg;codecs=opus', headers: 2, decode: container },
  { request: 'audio/ogg;codecs=flac', contentType: 'audio/ogg;codecs=flac', headers: 2, decode: container },
  { request: 'audio/flac', contentType: 'audio/flac', headers: 1, decode: container },
  {
    request: 'audio/x-matroska;codecs=opus',
    contentType: 'audio/x-matroska;codecs=opus',
    headers: 1,
    decode: container,
  },
  {
    request: 'audio/x-matroska;codecs=flac',
    contentType: 'audio/x-matroska;codecs=flac',
    headers: 1,
    decode: container,
  },
  { request: 'audio/x-matroska;codecs=aac', contentType: 'audio/x-matroska;codecs=aac', headers: 1, decode: container },
  { request: 'video/mp2t;codecs=aac', contentType: 'video/mp2t;codecs=aac', headers: 1, decode: container },
  { request: 'video/mp2t; codecs=opus', contentType: 'video/mp2t;codecs=opus', headers: 1, decode: container },
  {
    request: 'audio/opus',
    contentType: 'audio/opus',
    headers: 2,
    // Raw packets: the test wraps them in Ogg itself (the header packets first, as RFC 7845 requires).
    decode: (elements, headerCount) =>
      decodeAudio(
        oggFromOpusPackets(
          elements.slice(0, headerCount),
          elements.slice(headerCount).map((packet) => ({ packet, samples48k: opusPacketSamples(packet) })),
        ),
      ),
  },
  {
    request: 'audio/pcm;encoding=s16le;rate=16000',
    contentType: 'audio/pcm;encoding=s16le;rate=16000',
    headers: 0,
    decode: raw('s16le', 16000),
  },
  {
    request: 'audio/pcm; encoding=s16le; rate=24000',
    contentType: 'audio/pcm;encoding=s16le;rate=24000',
    headers: 0,
    decode: raw('s16le', 24000),
  },
  {
    request: 'audio/pcm;encoding=alaw;rate=8000',
    contentType: 'audio/pcm;encoding=alaw;rate=8000',
    headers: 0,
    decode: raw('alaw', 8000),
  },
  {
    request: 'audio/pcm;encoding=ulaw;rate=8000',
    contentType: 'audio/pcm;encoding=ulaw;rate=8000',
    headers: 0,
    decode: raw('mulaw', 8000),
  },
];

/** Longest run of near-silence, in ms (16 kHz PCM, 10 ms windows). */
function longestSilenceMs(pcm: Buffer): number {
  let longest = 0;
  let run = 0;
  for (let offset = 0; offset + 320 <= pcm.length; offset += 320) {
    run = rms(pcm.subarray(offset, offset + 320)) < 100 ? run + 10 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

for (const target of CASES) {
  test.serial(
    `Spanish speech as ${target.request ?? 'the default'}: durations, audio, texts and headers as the spec says`,
    async (t) => {
      const scheduler = new ManualScheduler();
      const request: Record<string, unknown> = {
        source_media_content_type: PCM_16K,
        target_media_languages: ['es'],
        target_media_voice: 'female',
      };
      if (target.request) request.target_media_content_type = target.request;
      const open = openSession(engines, request, { scheduler });
      await streamAll(open, passage, { chunkBytes: 3200, chunkMs: 100, scheduler });
      t.is(
        kinds(open.received).at(-1),
        'end_of_stream',
        JSON.stringify(open.received.find((message) => message.error)),
      );

      const chunks = mediaChunks(open.received, 'es');
      const transcript = targetConcluded(open.received, 'es');
      t.true(transcript.length >= 2, 'target_media_languages are added to the transcript targets');
      t.true(chunks.length >= 2);
      t.is(chunks[0].content_type, target.contentType);
      t.is(chunks[0].headers, target.headers);
      for (const chunk of chunks.slice(1)) {
        t.false('content_type' in chunk, 'content_type only in the first chunk');
        t.false('headers' in chunk, 'headers only in the first chunk');
      }
      for (const chunk of chunks) t.true(Number.isInteger(chunk.duration) && chunk.duration >= 0);

      // Text: present exactly at each segment's first chunk (absent, not null, in the others: the schema says string),
      // and all of it adds up to the target transcript.
      for (const chunk of chunks)
        t.true(!('text' in chunk) || typeof chunk.text === 'string', 'text: a string or absent');
      t.true(
        chunks.some((chunk) => !('text' in chunk)),
        'later chunks of a segment carry no text',
      );
      const texts = chunks.map((chunk) => chunk.text).filter((value): value is string => typeof value === 'string');
      t.is(texts.length, transcript.length, 'one text per segment');
      t.is(texts.join(''), text(transcript));
      t.is(typeof chunks[0].text, 'string', 'the first chunk starts the first segment');

      // Audio: decodes, lasts the sum of the durations, is speech and has no inserted silence.
      const elements = chunks.flatMap((chunk) => mediaElements(chunk));
      const pcm = target.decode(elements, target.headers);
      const decodedMs = (pcm.length / 2 / 16000) * 1000;
      const declaredMs = chunks.reduce((sum, chunk) => sum + chunk.duration, 0);
      t.log(`${chunks.length} chunks, ${declaredMs} ms declared, ${Math.round(decodedMs)} ms decoded`);
      t.true(
        Math.abs(decodedMs - declaredMs) <= 60 * transcript.length,
        `decoded ${decodedMs} ms vs declared ${declaredMs} ms`,
      );
      t.true(decodedMs > 3000, 'two translated sentences last several seconds');
      t.true(rms(pcm) > 500, `audio is not silence (rms ${rms(pcm)})`);
      t.true(longestSilenceMs(pcm) < 400, `no padding between segments (longest quiet ${longestSilenceMs(pcm)} ms)`);

      const endOfMedia = kinds(open.received).lastIndexOf('end_of_target_media');
      t.true(
        endOfMedia > kinds(open.received).lastIndexOf('target_media_chunk'),
        'end_of_target_media follows all audio',
      );
      t.deepEqual(open.received[endOfMedia], { end_of_target_media: { language: 'es' } });
    },
  );
}

test.serial('English media is spoken by flite; PCM chunks split exactly at segment boundaries', async (t) => {
  const scheduler = new ManualScheduler();
  const open = openSession(
    engines,
    {
      source_media_content_type: PCM_16K,
      target_media_languages: ['en-US'],
      target_media_content_type: 'audio/pcm;encoding=s16le;rate=16000',
      message_format: 'msgpack',
    },
    { scheduler },
  );
  await streamAll(open, passage, { chunkBytes: 3200, chunkMs: 100, scheduler });
  const chunks = mediaChunks(open.received, 'en-US');
  t.true(
    chunks.every((chunk) => chunk.data.every((element: unknown) => element instanceof Uint8Array)),
    'MessagePack carries raw bytes',
  );
  const segments: number[] = [];
  for (const chunk of chunks) {
    if (typeof chunk.text === 'string') segments.push(0);
    segments[segments.length - 1] += chunk.duration;
  }
  t.is(segments.length, 2);
  // Every segment is a sentence of speech: a second or more each.
  for (const duration of segments) t.true(duration > 1000, `segment of ${duration} ms`);
  t.is(
    chunks
      .map((chunk) => chunk.text)
      .filter(Boolean)
      .join(''),
    text(targetConcluded(open.received, 'en-US')),
  );
});
