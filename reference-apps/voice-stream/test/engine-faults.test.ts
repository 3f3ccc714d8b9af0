import test, { type ExecutionContext } from 'ava';
import type { PocketSphinxRecognizer } from '../src/engines/pocketsphinx/pocketsphinx-recognizer';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { descendantsOf, isAlive, waitFor, type ProcessEntry } from './support/child-processes';
import { LiveStream, requestSession, streamAddress } from './support/live-stream';
import { encodeAudio, silence, spokenPassage, REPORT_SENTENCE, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';
import { wordErrorRate } from './support/word-error-rate';

// A speech engine that dies mid-session (killed by an operator, the OOM killer, a crash) ends that session with
// an `error` message and close 4500; the other session, sharing the server (and for Apertium the very same
// pipeline), carries on to end_of_stream. Each test kills a real process (or crashes a real worker thread).

let server: VoiceServer;
let key: string;
test.before(async () => {
  requireEnginePackages();
  server = await startVoiceServer();
  key = await server.createApiKey('fault tests');
});
test.after.always(() => server?.close());

const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';
/** 100 ms of PCM s16le 16 kHz. */
const CHUNK_100MS = 3200;

/** Opens a stream on `on` (default: the shared server); the test's end terminates it, whatever happened. */
async function open(t: ExecutionContext, request: Record<string, unknown>, on = { server, key }): Promise<LiveStream> {
  const stream = await LiveStream.open(streamAddress(await requestSession(on.server.url, on.key, request)));
  t.teardown(() => stream.close());
  return stream;
}

/** Streams 100 ms of silence every 50 ms until `until` resolves (keeps a session alive and quiet). */
async function streamSilenceUntil(stream: LiveStream, until: Promise<unknown>): Promise<void> {
  let done = false;
  void until.finally(() => (done = true));
  while (!done && stream.isOpen) {
    stream.send({ source_media_chunk: { data: silence(100) } });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ffmpegProcesses = () => descendantsOf().filter((entry) => entry.name === 'ffmpeg');

/** The ffmpeg started since `before` was listed (exactly one expected). */
function newFfmpeg(before: readonly ProcessEntry[]): ProcessEntry | undefined {
  const known = new Set(before.map((entry) => entry.pid));
  const fresh = ffmpegProcesses().filter((entry) => !known.has(entry.pid));
  return fresh.length === 1 ? fresh[0] : undefined;
}

/** The failed session got exactly one `error`, last, with these codes, and was closed with 4500. */
async function assertFailed(
  t: ExecutionContext,
  stream: LiveStream,
  reasonCode: number,
  message: RegExp,
): Promise<void> {
  const closed = await stream.closed;
  t.is(closed.code, 4500, `close code of the failed session (messages: ${stream.kinds().join(',')})`);
  const errors = stream.errors();
  t.is(errors.length, 1);
  t.is(stream.kinds().at(-1), 'error');
  t.is(errors[0].error_code, 500);
  t.is(errors[0].reason_code, reasonCode);
  t.is(errors[0].request_type, 'source_media_chunk');
  t.regex(errors[0].error_message, message);
}

/** The other session ran to its end: no error, end_of_stream last, closed with 1000. */
async function assertCompleted(t: ExecutionContext, stream: LiveStream): Promise<void> {
  const closed = await stream.closed;
  t.deepEqual(stream.errors(), [], 'the other session got no error');
  t.is(stream.kinds().at(-1), 'end_of_stream');
  t.is(closed.code, 1000);
}

test.serial('a killed ffmpeg decoder ends its session (500 / 5000004); the other session is untouched', async (t) => {
  t.timeout(120_000);
  // Constant-bitrate Opus in 100 ms pages: bytes are proportional to time, so equal slices pace like the audio.
  const pcm = spokenPassage([TABLE_SENTENCE], 600);
  const ogg = encodeAudio(pcm, [
    '-c:a',
    'libopus',
    '-b:a',
    '32k',
    '-vbr',
    'off',
    '-page_duration',
    '100000',
    '-f',
    'ogg',
  ]);
  const slices = Math.ceil(pcm.length / CHUNK_100MS);
  const sliceBytes = Math.ceil(ogg.length / slices);
  const request = { source_media_content_type: 'audio/ogg;codecs=opus' };

  // A session's decoder starts with its first audio chunk: each session sends one, and its ffmpeg appears.
  const victim = await open(t, request);
  const survivor = await open(t, request);
  const before = ffmpegProcesses();
  victim.send({ source_media_chunk: { data: ogg.subarray(0, sliceBytes) } });
  const victimDecoder = await waitFor("the first session's decoder", () => newFfmpeg(before));
  const survivorBefore = ffmpegProcesses();
  survivor.send({ source_media_chunk: { data: ogg.subarray(0, sliceBytes) } });
  const survivorDecoder = await waitFor("the second session's decoder", () => newFfmpeg(survivorBefore));

  // The rest: 100 ms of audio every 70 ms (1.4x real time) on both, without end_of_source_media yet: under load
  // the first tentative can come after the last chunk, and both decoders must still be running then.
  const rest = ogg.subarray(sliceBytes);
  const streaming = [victim.stream(rest, sliceBytes, 70, false), survivor.stream(rest, sliceBytes, 70, false)];
  // Mid-session: the first words were heard through the decoder.
  await victim.waitFor('a tentative transcript', (message) => message.source_transcript_update?.tentative.length > 0);
  t.true(isAlive(victimDecoder.pid), 'the decoder still runs when it is killed');
  process.kill(victimDecoder.pid, 'SIGKILL');

  await assertFailed(t, victim, 5000004, /decoder stopped: ffmpeg was stopped by SIGKILL/);
  t.true(isAlive(survivorDecoder.pid), "the other session's decoder still runs");
  await Promise.all(streaming);
  survivor.send({ end_of_source_media: {} });
  await assertCompleted(t, survivor);
  t.true(wordErrorRate(TABLE_SENTENCE, survivor.sourceText()) <= 0.2, survivor.sourceText());
});

test.serial('a killed ffmpeg encoder ends its session (500 / 5000003); the other session is untouched', async (t) => {
  t.timeout(120_000);
  const request = { source_media_content_type: PCM_16K, target_media_languages: ['es'] };
  const before = ffmpegProcesses(); // PCM 16 kHz needs no decoder: the only new ffmpeg is an encoder
  const victim = await open(t, request);
  const survivor = await open(t, request);

  // No end_of_source_media: however late the first media comes on a loaded machine, the encoder is still running.
  const victimStreaming = victim.stream(spokenPassage([TABLE_SENTENCE, REPORT_SENTENCE], 800), CHUNK_100MS, 50, false);
  const firstMedia = victim.waitFor('target media', (message) => message.target_media_chunk !== undefined);
  // The survivor stays quiet (no speech, no encoder) until the victim's encoder was killed.
  const survivorQuiet = streamSilenceUntil(survivor, victim.closed);
  await firstMedia;
  const encoder = await waitFor("the first session's encoder", () => newFfmpeg(before));
  process.kill(encoder.pid, 'SIGKILL');

  await assertFailed(t, victim, 5000003, /encoder stopped: ffmpeg was stopped by SIGKILL/);
  await Promise.all([victimStreaming, survivorQuiet]);
  await survivor.stream(spokenPassage([TABLE_SENTENCE], 600), CHUNK_100MS, 50);
  await assertCompleted(t, survivor);
  t.true(survivor.targetText('es').includes('mesa'), survivor.targetText('es'));
  const media = survivor.mediaChunks('es');
  t.true(media.length > 0);
  t.is(media[0].content_type, 'audio/webm;codecs=opus');
  t.true(media.reduce((sum, chunk) => sum + chunk.duration, 0) > 1000);
  t.true(survivor.kinds().includes('end_of_target_media'));
});

/** The stages of the shared eng-spa pipeline (English -> Spanish). */
const engSpaStages = () =>
  descendantsOf().filter(
    (entry) => entry.args.some((arg) => arg.endsWith('/eng-spa.automorf.bin')) && entry.name === 'lt-proc',
  );

test.serial(
  'a killed Apertium stage fails the session whose sentence it held (500 / 5000002); the pipeline restarts for the other',
  async (t) => {
    t.timeout(120_000);
    // A server of its own: the shared one's translator has cached these sentences (a cached sentence never
    // enters the pipeline, and its session would not notice the kill).
    const own = await startVoiceServer();
    t.teardown(() => own.close());
    const on = { server: own, key: await own.createApiKey('apertium fault') };
    const request = { source_media_content_type: PCM_16K, target_languages: ['es'] };
    const otherServers = new Set(engSpaStages().map((entry) => entry.pid));
    const ours = () => engSpaStages().filter((entry) => !otherServers.has(entry.pid));
    const victim = await open(t, request, on);
    const survivor = await open(t, request, on);
    // Both sessions share one eng-spa pipeline, started when they were opened.
    const analyser = await waitFor('the eng-spa pipeline', () => (ours().length === 1 ? ours()[0] : undefined));
    // Freeze its first stage so the victim's sentence is inside the pipeline when the stage dies.
    process.kill(analyser.pid, 'SIGSTOP');

    const victimStreaming = victim.stream(spokenPassage([TABLE_SENTENCE], 600), CHUNK_100MS, 50, false);
    const survivorQuiet = streamSilenceUntil(survivor, victim.closed);
    await victim.waitFor(
      'a concluded source segment',
      (message) => message.source_transcript_update?.concluded.length > 0,
    );
    process.kill(analyser.pid, 'SIGKILL');

    await assertFailed(t, victim, 5000002, /Translation to es failed: the apertium eng-spa pipeline/);
    t.false(
      victim.messages.some((message) => message.target_transcript_update?.concluded.length > 0),
      'the lost sentence was not sent',
    );
    // A new pipeline is started at once, before anyone asks for a translation.
    const restarted = await waitFor('the restarted eng-spa pipeline', () =>
      ours().find((entry) => entry.pid !== analyser.pid),
    );
    t.not(restarted.pid, analyser.pid);
    await Promise.all([victimStreaming, survivorQuiet]);
    await survivor.stream(spokenPassage([TABLE_SENTENCE], 600), CHUNK_100MS, 50);
    await assertCompleted(t, survivor);
    t.true(survivor.targetText('es').includes('mesa'), survivor.targetText('es'));
  },
);

test.serial(
  'a crashed recognition worker ends its session (500 / 5000001); the other session is untouched',
  async (t) => {
    t.timeout(120_000);
    const recognizer = server.engines.recognizer as PocketSphinxRecognizer;
    const request = { source_media_content_type: PCM_16K };
    const audio = spokenPassage([TABLE_SENTENCE, REPORT_SENTENCE], 600);
    // Workers still busy with the previous tests' sessions (closed, their release may lag) are not this test's.
    const earlier = new Set(recognizer.busyWorkerThreads());
    const ours = () => recognizer.busyWorkerThreads().filter((worker) => !earlier.has(worker));
    // The victim first, alone, until it was heard: its worker is then the one new busy worker. No
    // end_of_source_media on either session (after its audio, silence) until the crash: however loaded the machine,
    // neither session can end first.
    const victim = await open(t, request);
    const victimStreaming = victim
      .stream(audio, CHUNK_100MS, 50, false)
      .then(() => streamSilenceUntil(victim, victim.closed));
    await victim.waitFor('a tentative transcript', (message) => message.source_transcript_update?.tentative.length > 0);
    t.is(ours().length, 1, "the victim's worker thread");
    const victimWorker = ours()[0]!;
    const survivor = await open(t, request);
    const survivorStreaming = survivor.stream(audio, CHUNK_100MS, 50, false);
    await survivor.waitFor(
      'a tentative transcript',
      (message) => message.source_transcript_update?.tentative.length > 0,
    );
    t.is(ours().length, 2, 'one worker thread per session');
    // A thread cannot be killed from outside like a process, and terminate() during a native PocketSphinx call
    // would abort the whole process: the worker dies the way a thread really dies, of an uncaught exception
    // (its message handler cannot read a null message).
    const exited = new Promise<number>((resolve) => victimWorker.once('exit', resolve));
    victimWorker.postMessage(null);

    await assertFailed(t, victim, 5000001, /speech recognition failed: recognition worker crashed/);
    t.is(await exited, 1);
    await Promise.all([victimStreaming, survivorStreaming]);
    survivor.send({ end_of_source_media: {} });
    await assertCompleted(t, survivor);
    t.true(wordErrorRate(`${TABLE_SENTENCE} ${REPORT_SENTENCE}`, survivor.sourceText()) <= 0.2, survivor.sourceText());
  },
);

test.serial(
  'after the faults a new session uses every engine again (decoder, recogniser, Apertium, synthesis, encoder)',
  async (t) => {
    t.timeout(120_000);
    const pcm = spokenPassage([TABLE_SENTENCE], 600);
    const ogg = encodeAudio(pcm, [
      '-c:a',
      'libopus',
      '-b:a',
      '32k',
      '-vbr',
      'off',
      '-page_duration',
      '100000',
      '-f',
      'ogg',
    ]);
    const stream = await open(t, {
      source_media_content_type: 'audio/ogg;codecs=opus',
      target_languages: ['fr'],
      target_media_languages: ['es'],
    });
    await stream.stream(ogg, Math.ceil(ogg.length / Math.ceil(pcm.length / CHUNK_100MS)), 60);
    await assertCompleted(t, stream);
    t.true(stream.targetText('es').includes('mesa'));
    t.true(stream.targetText('fr').includes('personnes'));
    t.true(stream.mediaChunks('es').length > 0);
  },
);
