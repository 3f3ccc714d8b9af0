import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseWav } from '../../src/domain/media/wav';

/** Test speech, spoken by flite's "rms" voice (PocketSphinx cannot follow espeak-ng's robotic voice). */
export const TABLE_SENTENCE = "I would like to book a table for two people at seven o'clock.";
export const REPORT_SENTENCE = 'Please send me the report before the meeting tomorrow morning.';

const CACHE = path.join(tmpdir(), 'voice-stream-test-audio');

function cached(name: string, make: (file: string) => void): Buffer {
  mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, name);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.part`;
    make(partial);
    // Rename is atomic: parallel test processes never read half a file.
    execFileSync('mv', ['-f', partial, file]);
  }
  return readFileSync(file);
}

/** flite speech as PCM s16le 16 kHz mono. */
export function fliteSpeech(text: string, voice = 'rms'): Buffer {
  const key = createHash('sha1').update(`${voice}\0${text}`).digest('hex').slice(0, 16);
  const wav = cached(`flite-${key}.wav`, (file) => execFileSync('flite', ['-voice', voice, '-t', text, '-o', file]));
  const audio = parseWav(wav);
  if (audio.sampleRate !== 16000) throw new Error(`flite voice ${voice} is ${audio.sampleRate} Hz, expected 16000`);
  return Buffer.from(audio.pcm);
}

export function silence(milliseconds: number, sampleRate = 16000): Buffer {
  return Buffer.alloc(Math.round((sampleRate * milliseconds) / 1000) * 2);
}

/** Sentences with `pauseMs` of silence before, between and after them: PCM s16le 16 kHz mono. */
export function spokenPassage(sentences: readonly string[], pauseMs = 800): Buffer {
  const parts: Buffer[] = [silence(pauseMs)];
  for (const sentence of sentences) parts.push(fliteSpeech(sentence), silence(pauseMs));
  return Buffer.concat(parts);
}

/** Encodes PCM s16le 16 kHz mono with ffmpeg (`outputArgs` name codec and container). */
export function encodeAudio(pcm: Buffer, outputArgs: readonly string[]): Buffer {
  return execFileSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      's16le',
      '-ar',
      '16000',
      '-ac',
      '1',
      '-i',
      'pipe:0',
      ...outputArgs,
      'pipe:1',
    ],
    {
      input: pcm,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
}

/** Decodes any audio ffmpeg reads (`inputArgs` name the format when it cannot be probed) to PCM s16le mono. */
export function decodeAudio(bytes: Buffer, inputArgs: readonly string[] = [], sampleRate = 16000): Buffer {
  return execFileSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      ...inputArgs,
      '-i',
      'pipe:0',
      '-f',
      's16le',
      '-ac',
      '1',
      '-ar',
      String(sampleRate),
      'pipe:1',
    ],
    {
      input: bytes,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
}

/** The five codecs of the issue, as ffmpeg output options and the session's content type. */
export const SOURCE_CODECS = [
  {
    name: 'Ogg/Opus',
    contentType: 'audio/ogg; codecs=opus',
    args: ['-c:a', 'libopus', '-b:a', '32k', '-page_duration', '100000', '-f', 'ogg'],
  },
  { name: 'WebM/Opus', contentType: 'audio/webm;codecs=opus', args: ['-c:a', 'libopus', '-b:a', '32k', '-f', 'webm'] },
  { name: 'FLAC', contentType: 'audio/flac', args: ['-c:a', 'flac', '-f', 'flac'] },
  { name: 'MP3', contentType: 'audio/mpeg', args: ['-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3'] },
  {
    name: 'µ-law',
    contentType: 'audio/pcm;encoding=ulaw;rate=8000',
    args: ['-ar', '8000', '-c:a', 'pcm_mulaw', '-f', 'mulaw'],
  },
] as const;
