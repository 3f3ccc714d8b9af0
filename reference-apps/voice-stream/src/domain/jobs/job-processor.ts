import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { FFMPEG_BINARY } from '../../engines/ffmpeg/ffmpeg-process';
import type { RecognizedSegment } from '../../engines/speech-recognizer';
import type { VoiceEngines } from '../../engines/voice-engines';
import type { JobOutput, JobSource } from './job-request';

/** Decoded audio is handed to the recogniser in steps of this much; the file is read no further ahead. */
const STEP_MS = 5_000;
const BYTES_PER_MS = 32; // PCM s16le mono at 16 kHz
const RECOGNIZER_RATE = 16_000;

/** What became of each target, and of the job. */
export interface JobOutcome {
  readonly status: 'complete' | 'failed';
  readonly results: Array<{ status: 'complete' | 'failed'; error?: string; bytes?: number }>;
  readonly error?: string;
  readonly processedMs: number;
}

export interface JobFiles {
  readonly source: string;
  /** Where target `index`'s result goes (written as `<path>.part`, renamed when complete). */
  result(index: number): string;
}

export interface JobRun {
  readonly source: JobSource;
  readonly outputs: readonly JobOutput[];
  readonly files: JobFiles;
  readonly maxDurationMs: number;
  /** Called as the audio is recognised, with the milliseconds of source audio done. */
  readonly onProgress: (processedMs: number) => void;
  /** Aborts the run (server stopping, or the job is no longer this worker's): the run rejects with JobAborted. */
  readonly signal: AbortSignal;
}

/** The run was abandoned; the job stays queued for another attempt. */
export class JobAborted extends Error {
  override readonly name = 'JobAborted';
}

/** Failures of the whole job that are the file's fault (shown to its owner). */
class JobInputError extends Error {}

/** One target's output file. */
interface OutputWriter {
  add(segment: RecognizedSegment, text: string): Promise<void>;
  /** The source ended at `endMs`: completes the file. */
  finish(endMs: number): Promise<void>;
  abandon(): void;
}

/** A result file written with backpressure; its first error fails the next write or the close. */
function openResult(path: string): WriteStream & { failure?: Error } {
  const stream: WriteStream & { failure?: Error } = createWriteStream(path);
  stream.on('error', (error) => {
    stream.failure ??= error;
  });
  return stream;
}

async function write(stream: WriteStream & { failure?: Error }, data: string | Buffer): Promise<void> {
  if (stream.failure) throw stream.failure;
  if (stream.destroyed) throw new Error('the result file was closed');
  if (!stream.write(data)) await Promise.race([once(stream, 'drain'), once(stream, 'close')]);
}

async function closeStream(stream: WriteStream & { failure?: Error }): Promise<void> {
  if (!stream.closed) {
    stream.end();
    await once(stream, 'close');
  }
  if (stream.failure) throw stream.failure;
}

function subripTime(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(total / 3_600_000))}:${pad(Math.floor(total / 60_000) % 60)}:${pad(Math.floor(total / 1000) % 60)},${pad(total % 1000, 3)}`;
}

/** The transcript or a translation: one recognised segment per line. */
class TextWriter implements OutputWriter {
  private readonly stream: WriteStream & { failure?: Error };
  constructor(path: string) {
    this.stream = openResult(path);
  }
  add(_segment: RecognizedSegment, text: string): Promise<void> {
    return write(this.stream, `${text}\n`);
  }
  finish(): Promise<void> {
    return closeStream(this.stream);
  }
  abandon(): void {
    this.stream.destroy();
  }
}

/** SubRip: one cue per recognised segment, at the source's timecodes. */
class SubripWriter implements OutputWriter {
  private readonly stream: WriteStream & { failure?: Error };
  private cue = 0;
  constructor(path: string) {
    this.stream = openResult(path);
  }
  add(segment: RecognizedSegment, text: string): Promise<void> {
    this.cue += 1;
    return write(
      this.stream,
      `${this.cue}\n${subripTime(segment.startMs)} --> ${subripTime(segment.endMs)}\n${text}\n\n`,
    );
  }
  finish(): Promise<void> {
    return closeStream(this.stream);
  }
  abandon(): void {
    this.stream.destroy();
  }
}

/**
 * Translated speech in the target's format: each segment's speech starts where the segment starts in the source
 * (silence before it; right after the previous one when that ran longer), and the track lasts as long as the source,
 * so it lines up with it. One ffmpeg writes the file; its input is fed with backpressure, one second at most at once.
 */
class AudioWriter implements OutputWriter {
  private encoder: ChildProcessWithoutNullStreams | undefined;
  private exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
  private rate = 0;
  private samples = 0;
  private stderr = '';

  constructor(
    private readonly path: string,
    private readonly output: Extract<JobOutput, { kind: 'audio' }>,
    private readonly engines: VoiceEngines,
  ) {}

  async add(segment: RecognizedSegment, text: string): Promise<void> {
    const speech = await this.engines.synthesizer.synthesize(text, this.output.language, undefined);
    this.start(speech.sampleRate);
    if (speech.sampleRate !== this.rate)
      throw new Error(`the synthesizer changed its rate from ${this.rate} to ${speech.sampleRate} Hz`);
    await this.silenceUntil(segment.startMs);
    await this.feed(speech.pcm);
  }

  async finish(endMs: number): Promise<void> {
    this.start(RECOGNIZER_RATE);
    await this.silenceUntil(endMs);
    const encoder = this.encoder!;
    encoder.stdin.end();
    const result = await this.exited!;
    if (result.code !== 0)
      throw new Error(`the audio encoder failed: ${result.signal ?? this.stderr.trim().split('\n').pop() ?? ''}`);
  }

  abandon(): void {
    this.encoder?.kill('SIGKILL');
  }

  private start(rate: number): void {
    if (this.encoder) return;
    this.rate = rate;
    const format = this.output.format;
    // A file, not a live stream: no `-live` Matroska, and native FLAC for audio/flac (the stream frames it in Ogg).
    const args: string[] = [];
    const given = format.ffmpegOutput;
    for (let at = 0; at < given.length; at += 1) {
      if (given[at] === '-live') at += 1;
      else if (given[at] === '-f' && format.contentType === 'audio/flac') {
        args.push('-f', 'flac');
        at += 1;
      } else args.push(given[at]);
    }
    this.encoder = spawn(
      FFMPEG_BINARY,
      [
        '-hide_banner',
        '-nostats',
        '-loglevel',
        'error',
        '-f',
        's16le',
        '-ar',
        String(rate),
        '-ac',
        '1',
        '-i',
        'pipe:0',
        '-ac',
        '1',
        ...args,
        '-y',
        this.path,
      ],
      { stdio: 'pipe' },
    );
    this.encoder.stdin.on('error', () => undefined);
    this.encoder.stderr.on('data', (bytes: Buffer) => {
      this.stderr = (this.stderr + bytes.toString('utf8')).slice(-2000);
    });
    const encoder = this.encoder;
    this.exited = new Promise((resolve) => {
      encoder.once('error', () => resolve({ code: -1, signal: null }));
      encoder.once('close', (code, signal) => resolve({ code, signal }));
    });
  }

  private async silenceUntil(ms: number): Promise<void> {
    const target = Math.floor((ms / 1000) * this.rate);
    while (this.samples < target) {
      const count = Math.min(target - this.samples, this.rate);
      await this.feed(Buffer.alloc(count * 2));
    }
  }

  private async feed(pcm: Buffer): Promise<void> {
    this.samples += pcm.length / 2;
    const stdin = this.encoder!.stdin;
    if (stdin.destroyed) throw new Error(`the audio encoder stopped: ${this.stderr.trim()}`);
    if (!stdin.write(pcm)) {
      await Promise.race([once(stdin, 'drain'), this.exited]);
    }
  }
}

function writerOf(output: JobOutput, path: string, engines: VoiceEngines): OutputWriter {
  switch (output.kind) {
    case 'text':
      return new TextWriter(path);
    case 'subrip':
      return new SubripWriter(path);
    case 'audio':
      return new AudioWriter(path, output, engines);
  }
}

/** ffmpeg options that name the source's format (raw PCM at the recogniser's rate has none of its own). */
function inputArgs(source: JobSource): readonly string[] {
  return source.format.ffmpegInput ?? ['-f', 's16le', '-ar', String(RECOGNIZER_RATE), '-ac', '1'];
}

/**
 * Processes one job: ffmpeg reads the source file (in its own small buffers; the file is never read whole) and
 * decodes it to PCM, which the recogniser hears in steps of a few seconds: the next step is read only once the
 * recogniser and the outputs have caught up (`drained`), so memory stays bounded whatever the file's length. Each
 * recognised segment is translated once per language and written to every target of that language.
 */
export async function processJob(engines: VoiceEngines, run: JobRun): Promise<JobOutcome> {
  const { files, outputs, source, signal } = run;
  const writers: Array<OutputWriter | undefined> = outputs.map((output, index) =>
    writerOf(output, `${files.result(index)}.part`, engines),
  );
  const failures: Array<string | undefined> = outputs.map(() => undefined);
  const failTarget = (index: number, error: unknown) => {
    failures[index] ??= (error as Error).message;
    writers[index]?.abandon();
    writers[index] = undefined;
  };
  let recognitionError: Error | undefined;
  let work: Promise<void> = Promise.resolve();
  const onSegment = (segment: RecognizedSegment) => {
    const text = segment.text.trim();
    if (text === '') return;
    work = work.then(async () => {
      const translations = new Map<string, Promise<string>>();
      for (const [index, output] of outputs.entries()) {
        const writer = writers[index];
        if (!writer) continue;
        try {
          let translated = translations.get(output.language);
          if (!translated) {
            translated =
              output.language === source.language
                ? Promise.resolve(text)
                : engines.translator.translate(text, source.language, output.language);
            translations.set(output.language, translated);
          }
          await writer.add(segment, (await translated).trim());
        } catch (error) {
          failTarget(index, error);
        }
      }
    });
  };
  const recognition = engines.recognizer.start(
    {
      onTentative: () => undefined,
      onConcluded: onSegment,
      onError: (error) => {
        recognitionError ??= error;
      },
    },
    { sourceSampleRate: source.format.pcm?.sampleRate },
  );
  const decoder = spawn(
    FFMPEG_BINARY,
    [
      '-hide_banner',
      '-nostats',
      '-loglevel',
      'error',
      ...inputArgs(source),
      '-i',
      files.source,
      '-vn',
      '-ac',
      '1',
      '-ar',
      String(RECOGNIZER_RATE),
      '-f',
      's16le',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let decoderErrors = '';
  decoder.stderr.on('data', (bytes: Buffer) => {
    decoderErrors = (decoderErrors + bytes.toString('utf8')).slice(-2000);
  });
  const decoderExit = new Promise<{ code: number | null; spawnError?: Error }>((resolve) => {
    decoder.once('error', (error) => resolve({ code: null, spawnError: error }));
    decoder.once('close', (code) => resolve({ code }));
  });
  const onAbort = () => decoder.kill('SIGKILL');
  signal.addEventListener('abort', onAbort);
  let decodedBytes = 0;
  let sinceStep = 0;
  const caughtUp = async () => {
    await recognition.drained?.();
    await work;
  };
  try {
    let carry: Buffer | undefined;
    for await (const chunk of decoder.stdout as AsyncIterable<Buffer>) {
      if (signal.aborted) break;
      let pcm = carry ? Buffer.concat([carry, chunk]) : chunk;
      carry = undefined;
      if (pcm.length % 2 === 1) {
        carry = Buffer.from(pcm.subarray(pcm.length - 1));
        pcm = pcm.subarray(0, pcm.length - 1);
      }
      decodedBytes += pcm.length;
      if (decodedBytes / BYTES_PER_MS > run.maxDurationMs)
        throw new JobInputError(
          `The source audio is longer than this server's limit of ${Math.round(run.maxDurationMs / 1000)} s`,
        );
      recognition.write(pcm);
      sinceStep += pcm.length;
      if (sinceStep >= STEP_MS * BYTES_PER_MS) {
        sinceStep = 0;
        await caughtUp();
        if (recognitionError) throw recognitionError;
        run.onProgress(decodedBytes / BYTES_PER_MS);
      }
    }
    if (signal.aborted) throw new JobAborted('the job was abandoned');
    const exit = await decoderExit;
    if (exit.spawnError) throw new Error(`could not start ${FFMPEG_BINARY}: ${exit.spawnError.message}`);
    if (exit.code !== 0 || decodedBytes === 0)
      throw new JobInputError(
        `The source file could not be decoded as ${source.format.contentType}: ${decodedBytes === 0 ? 'no audio samples found' : decoderErrors.trim().split('\n').pop()}`,
      );
    await recognition.end();
    await work;
    if (recognitionError) throw recognitionError;
    const endMs = decodedBytes / BYTES_PER_MS;
    run.onProgress(endMs);
    const results: JobOutcome['results'] = [];
    for (const [index, writer] of writers.entries()) {
      if (writer) {
        try {
          await writer.finish(endMs);
          await rename(`${files.result(index)}.part`, files.result(index));
        } catch (error) {
          failTarget(index, error);
        }
      }
      const failure = failures[index];
      if (failure === undefined) results.push({ status: 'complete', bytes: (await stat(files.result(index))).size });
      else {
        await rm(`${files.result(index)}.part`, { force: true });
        results.push({ status: 'failed', error: failure });
      }
    }
    const failed = results.every((result) => result.status === 'failed');
    return {
      status: failed ? 'failed' : 'complete',
      results,
      processedMs: endMs,
      ...(failed ? { error: 'Every target failed' } : {}),
    };
  } catch (error) {
    decoder.kill('SIGKILL');
    recognition.close();
    for (const [index, writer] of writers.entries()) {
      writer?.abandon();
      writers[index] = undefined;
    }
    for (const index of outputs.keys()) await rm(`${files.result(index)}.part`, { force: true });
    if (signal.aborted || error instanceof JobAborted) throw new JobAborted('the job was abandoned');
    const message =
      error instanceof JobInputError ? error.message : `Processing failed: ${(error as Error).message ?? error}`;
    return {
      status: 'failed',
      results: outputs.map(() => ({ status: 'failed', error: message })),
      error: message,
      processedMs: decodedBytes / BYTES_PER_MS,
    };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
