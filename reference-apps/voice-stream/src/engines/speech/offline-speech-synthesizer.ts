import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseWav } from '../../domain/media/wav';
import { trimSilence } from '../../domain/media/pcm';
import type { SpeechSynthesizer, SynthesizedSpeech, VoiceGender } from '../speech-synthesizer';

/** espeak-ng voices per target language (Debian 12 has no Galician voice). */
export const ESPEAK_VOICES: Readonly<Record<string, string>> = {
  es: 'es',
  ca: 'ca',
  fr: 'fr-fr',
  it: 'it',
  pt: 'pt',
  'pt-PT': 'pt',
  'pt-BR': 'pt-br',
};

/** English is spoken by flite, which sounds far more natural than espeak-ng. */
export const FLITE_VOICES: Readonly<Record<VoiceGender, string>> = { male: 'rms', female: 'slt' };
const FLITE_LANGUAGES = ['en', 'en-US', 'en-GB'];

export const SYNTHESIS_INSTALL_COMMAND = 'apt-get install -y espeak-ng flite';

/** Longest text handed to one synthesizer call (a concluded segment is far shorter). */
const MAX_TEXT_LENGTH = 2000;

function run(binary: string, args: string[], input: string | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      binary,
      args,
      { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 20_000 },
      (error, stdout, stderr) => {
        if (error) {
          const hint =
            (error as NodeJS.ErrnoException).code === 'ENOENT' ? ` (install: ${SYNTHESIS_INSTALL_COMMAND})` : '';
          reject(new Error(`${binary} failed: ${stderr.toString().trim() || error.message}${hint}`));
        } else resolve(stdout);
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? '');
  });
}

/** Offline text-to-speech: flite for English, espeak-ng for the other target languages. */
export class OfflineSpeechSynthesizer implements SpeechSynthesizer {
  readonly languages: readonly string[] = [...FLITE_LANGUAGES, ...Object.keys(ESPEAK_VOICES)];

  async synthesize(text: string, language: string, voice: VoiceGender | undefined): Promise<SynthesizedSpeech> {
    const words = text.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT_LENGTH);
    let wav: Buffer;
    if (FLITE_LANGUAGES.includes(language)) {
      // flite cannot write to Node's stdio sockets (/dev/stdout), so it writes a temporary file.
      const file = path.join(tmpdir(), `voice-stream-flite-${randomUUID()}.wav`);
      try {
        await run('flite', ['-voice', FLITE_VOICES[voice ?? 'male'], '-t', words, '-o', file], undefined);
        wav = await readFile(file);
      } finally {
        await rm(file, { force: true });
      }
    } else {
      const base = ESPEAK_VOICES[language];
      if (!base) throw new Error(`no voice for ${language}`);
      // espeak-ng variants: +m3 / +f3; no variant = the voice's default (male).
      const variant = voice === 'female' ? '+f3' : voice === 'male' ? '+m3' : '';
      wav = await run('espeak-ng', ['-v', `${base}${variant}`, '--stdout'], words);
    }
    const audio = parseWav(wav);
    if (audio.channels !== 1) throw new Error('synthesizer produced non-mono audio');
    return { pcm: Buffer.from(trimSilence(audio.pcm, audio.sampleRate)), sampleRate: audio.sampleRate };
  }
}
