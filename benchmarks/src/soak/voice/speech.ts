/**
 * Real speech for the voice-stream soak: English sentences spoken by flite (Debian's `flite`), read from its
 * WAV output and joined with a second of silence between them, as PCM s16le mono, the way a microphone
 * hands it over.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const SENTENCES = [
  "I would like to book a table for two people at seven o'clock.",
  'Please send me the report before the meeting tomorrow morning.',
  'Can you help me find the nearest hospital?',
];

export interface Speech {
  pcm: Buffer;
  sampleRate: number;
  /** The sentences, for comparing with what the server recognised. */
  text: string;
  seconds: number;
}

/** Reads a 16-bit PCM mono WAV (what flite writes). */
export function readMonoWav(bytes: Buffer): { sampleRate: number; pcm: Buffer } {
  if (bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE')
    throw new Error('not a RIFF/WAVE file');
  let sampleRate = 0;
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      const format = bytes.readUInt16LE(body);
      const channels = bytes.readUInt16LE(body + 2);
      const bits = bytes.readUInt16LE(body + 14);
      if (format !== 1 || channels !== 1 || bits !== 16)
        throw new Error(`WAV is not 16-bit PCM mono (format ${format}, ${channels} channels, ${bits} bits)`);
      sampleRate = bytes.readUInt32LE(body + 4);
    } else if (id === 'data') {
      if (!sampleRate) throw new Error('WAV data chunk before its fmt chunk');
      const end = Math.min(bytes.length, body + size);
      return { sampleRate, pcm: bytes.subarray(body, end - ((end - body) % 2)) };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV has no data chunk');
}

export function speakSentences(workDir: string, sentences: readonly string[] = SENTENCES): Speech {
  const parts: Buffer[] = [];
  let sampleRate = 0;
  sentences.forEach((sentence, index) => {
    const file = path.join(workDir, `sentence-${index}.wav`);
    execFileSync('flite', ['-voice', 'rms', '-t', sentence, '-o', file]);
    const wav = readMonoWav(fs.readFileSync(file));
    if (sampleRate && wav.sampleRate !== sampleRate)
      throw new Error(`flite wrote ${wav.sampleRate} Hz after ${sampleRate} Hz`);
    sampleRate = wav.sampleRate;
    const silence = Buffer.alloc(sampleRate * 2);
    if (index === 0) parts.push(silence);
    parts.push(wav.pcm, silence);
  });
  const pcm = Buffer.concat(parts);
  return { pcm, sampleRate, text: sentences.join(' '), seconds: pcm.length / 2 / sampleRate };
}
