import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseWav } from '../../domain/media/wav';
import type { EvalCondition, EvalFormat, EvalVoice } from './eval-conditions';

/** Generated audio is cached here (made again whenever missing; never committed). */
const CACHE = path.join(tmpdir(), 'voice-stream-eval-audio');

/** Silence before, between and after the sentences of a passage: a speaker pausing between sentences. */
export const PAUSE_MS = 800;

function cached(key: string, extension: string, make: (file: string) => void): Buffer {
  mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, `${createHash('sha1').update(key).digest('hex').slice(0, 20)}.${extension}`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.part`;
    try {
      make(partial);
      renameSync(partial, file); // atomic: parallel runs never read half a file
    } finally {
      rmSync(partial, { force: true });
    }
  }
  return readFileSync(file);
}

/** One sentence spoken by `voice`: PCM s16le mono at the voice's own rate. */
export function synthesize(voice: EvalVoice, text: string): { pcm: Buffer; sampleRate: number } {
  const wav = cached(`${voice.engine}\0${voice.voice}\0${voice.wordsPerMinute ?? ''}\0${text}`, 'wav', (file) => {
    if (voice.engine === 'flite') execFileSync('flite', ['-voice', voice.voice, '-t', text, '-o', file]);
    else if (voice.engine === 'festival')
      execFileSync('text2wave', ['-eval', `(${voice.voice})`, '-otype', 'riff', '-o', file], { input: text });
    else execFileSync('espeak-ng', ['-v', voice.voice, '-s', String(voice.wordsPerMinute ?? 175), '-w', file, text]);
  });
  const audio = parseWav(wav);
  return { pcm: audio.pcm, sampleRate: audio.sampleRate };
}

/**
 * sox's high-quality resampler (what a phone line or a sound card's driver would do), in repeatable mode: sox
 * dithers its 16-bit output with random noise, so without `-R` the same sentence differed in its last bits from
 * run to run (and the acoustic adaptation made from it, src/cli/adapt, differed too).
 */
export function resample(pcm: Buffer, from: number, to: number): Buffer {
  if (from === to) return pcm;
  const raw = (rate: number) => ['-t', 'raw', '-r', String(rate), '-e', 'signed', '-b', '16', '-c', '1'];
  return execFileSync('sox', ['-V1', '-R', ...raw(from), '-', ...raw(to), '-'], {
    input: pcm,
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** White noise from sox (repeatable mode: the same noise on every run). */
export function whiteNoise(samples: number, sampleRate: number): Int16Array {
  const bytes = execFileSync(
    'sox',
    [
      '-V1',
      '-R',
      '-n',
      '-t',
      'raw',
      '-r',
      String(sampleRate),
      '-e',
      'signed',
      '-b',
      '16',
      '-c',
      '1',
      '-',
      'synth',
      `${samples}s`,
      'whitenoise',
      'vol',
      '0.3',
    ],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  return new Int16Array(bytes.buffer, bytes.byteOffset, Math.min(samples, bytes.length >> 1));
}

const meanSquare = (samples: Int16Array) =>
  samples.reduce((sum, value) => sum + value * value, 0) / Math.max(1, samples.length);

/**
 * Noise floor under a whole passage, in dB below its speech's power: the hiss of a microphone, its preamplifier and
 * a quiet room, which every real recording has and no caller's audio lacks. Debian's real recordings
 * (pocketsphinx-testdata, alsa-utils) have theirs 30-45 dB below their loud frames (5th against 95th percentile of
 * 20 ms frame energy), so 45 dB is a quiet microphone. null: digital silence (zeros) between the sentences, as the
 * synthesizers write it and as the evaluation was measured before.
 */
export const NOISE_FLOOR_DB = 45;

/**
 * White noise of `samples` samples at `rate`, band-limited to `sourceRate` when that is lower (a narrowband
 * recording carries no noise above its own band: flite's 8 kHz `kal` sent at 16 kHz stays narrowband).
 */
function bandNoise(samples: number, rate: number, sourceRate: number): Int16Array {
  if (sourceRate >= rate) return whiteNoise(samples, rate);
  const low = whiteNoise(Math.ceil((samples * sourceRate) / rate) + 64, sourceRate);
  const up = resample(Buffer.from(low.buffer, low.byteOffset, low.byteLength), sourceRate, rate);
  return new Int16Array(up.buffer, up.byteOffset, Math.min(samples, up.length >> 1));
}

/**
 * The sentences spoken one after the other with `pauseMs` of pause around them, at `condition`'s rate, over a noise
 * floor `floorDb` below the speech's power (null: digital silence) when the condition is clean, or with white noise
 * over the whole passage at the condition's SNR (its own floor, far above a microphone's). Speech power is measured
 * over the sentences only. Returns PCM s16le mono.
 */
export function passagePcm(
  condition: EvalCondition,
  sentences: readonly string[],
  floorDb: number | null = NOISE_FLOOR_DB,
  pauseMs = PAUSE_MS,
): Buffer {
  const rate = condition.sampleRate;
  const pause = Buffer.alloc(Math.round((rate * pauseMs) / 1000) * 2);
  const parts: Buffer[] = [pause];
  let speechPower = 0;
  let speechSamples = 0;
  let sourceRate: number = rate;
  for (const sentence of sentences) {
    const spoken = synthesize(condition.voice, sentence);
    sourceRate = Math.min(rate, spoken.sampleRate);
    const pcm = resample(spoken.pcm, spoken.sampleRate, rate);
    const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
    speechPower += meanSquare(samples) * samples.length;
    speechSamples += samples.length;
    parts.push(pcm, pause);
  }
  const passage = Buffer.concat(parts);
  const level = condition.noise ?? floorDb;
  if (level === null) return passage;
  const samples = new Int16Array(passage.buffer, passage.byteOffset, passage.length >> 1);
  const noise =
    condition.noise === null ? bandNoise(samples.length, rate, sourceRate) : whiteNoise(samples.length, rate);
  const gain = Math.sqrt(speechPower / speechSamples / (meanSquare(noise) * 10 ** (level / 10)));
  const mixed = Buffer.alloc(passage.length);
  for (let index = 0; index < samples.length; index += 1) {
    const value = samples[index] + gain * (noise[index] ?? 0);
    mixed.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(value))), index * 2);
  }
  return mixed;
}

/** The passage as the client sends it, with the session's `source_media_content_type`. */
export function encodePassage(
  pcm: Buffer,
  sampleRate: number,
  format: EvalFormat,
): { bytes: Buffer; contentType: string } {
  if (format === 'pcm') return { bytes: pcm, contentType: `audio/pcm;encoding=s16le;rate=${sampleRate}` };
  const bytes = execFileSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      's16le',
      '-ar',
      String(sampleRate),
      '-ac',
      '1',
      '-i',
      'pipe:0',
      '-c:a',
      'libopus',
      '-b:a',
      '32k',
      '-page_duration',
      '100000',
      '-f',
      'ogg',
      'pipe:1',
    ],
    { input: pcm, maxBuffer: 256 * 1024 * 1024 },
  );
  return { bytes, contentType: 'audio/ogg;codecs=opus' };
}
