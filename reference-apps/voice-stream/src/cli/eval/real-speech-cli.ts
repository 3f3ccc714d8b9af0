#!/usr/bin/env node
/**
 * Recognition of real human speech: the recordings of Debian's `pocketsphinx-testdata` that have a transcript
 * (a man reading "go forward ten meters", five sentences of a LibriVox reading of Sense and Sensibility, five
 * spoken playing cards), each streamed as one session through the server's decoder and recogniser, at 16 kHz
 * and downsampled to 8 kHz (sox), as PCM:
 *   npm run real-speech -w voice-stream -- [--rates 16000,8000] [--decoder-args="-mllr none"]
 * The synthetic evaluation (`npm run eval`) decides the settings; this checks that they do not make real
 * speech worse (the acoustic adaptation is made on synthetic voices). None of these recordings is everyday
 * travel speech, so their WER is high with any setting: compare runs, not absolute figures.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseWav } from '../../domain/media/wav';
import { createOfflineEngines } from '../../engines/voice-engines';
import { resample } from './eval-audio';
import { recognizeAudio } from './eval-recognition';
import { wordErrors } from './word-error-rate';

const TEST_DATA = process.env.POCKETSPHINX_TEST_DATA ?? '/usr/share/pocketsphinx/test/data';

interface Recording {
  readonly name: string;
  readonly file: string;
  readonly transcript: string;
}

/** The transcripts in sphinxtrain's `<s> words </s> (id)` form. */
function transcription(file: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^(.*)\(([^()]+)\)\s*$/.exec(line.trim());
    if (match) entries.set(match[2], match[1].replace(/<\/?s>/g, ' ').trim());
  }
  return entries;
}

function recordings(): Recording[] {
  const found: Recording[] = [
    { name: 'goforward', file: path.join(TEST_DATA, 'goforward.raw'), transcript: 'go forward ten meters' },
  ];
  for (const folder of ['librivox', 'cards']) {
    for (const [id, transcript] of transcription(
      path.join(TEST_DATA, folder, folder === 'cards' ? 'cards.transcription' : 'transcription'),
    )) {
      found.push({ name: `${folder}/${id}`, file: path.join(TEST_DATA, folder, `${id}.wav`), transcript });
    }
  }
  return found;
}

/** 16 kHz mono PCM s16le of a recording (the .raw files are headerless 16 kHz). */
function pcmOf(recording: Recording): Buffer {
  const bytes = readFileSync(recording.file);
  if (recording.file.endsWith('.raw')) return bytes;
  const wav = parseWav(bytes);
  return resample(wav.pcm, wav.sampleRate, 16000);
}

async function main(argv: readonly string[]): Promise<number> {
  const flags = parseArgs({
    args: [...argv],
    options: { rates: { type: 'string', default: '16000,8000' }, 'decoder-args': { type: 'string' } },
    strict: true,
  }).values;
  if (!existsSync(path.join(TEST_DATA, 'goforward.raw')))
    throw new Error(`no recordings in ${TEST_DATA}; run: apt-get install -y pocketsphinx-testdata`);
  const rates = flags.rates.split(',').map(Number);
  const engines = createOfflineEngines({
    recognizer: { idleWorkers: 1, extraArguments: flags['decoder-args']?.split(/\s+/).filter(Boolean) ?? [] },
  });
  try {
    for (const rate of rates) {
      let errors = 0;
      let words = 0;
      for (const recording of recordings()) {
        const pcm = resample(pcmOf(recording), 16000, rate);
        const transcript = await recognizeAudio(engines, pcm, `audio/pcm;encoding=s16le;rate=${rate}`);
        const counted = wordErrors(recording.transcript, transcript);
        errors += counted.errors;
        words += counted.referenceWords;
        console.log(
          `${rate / 1000} kHz ${recording.name}: ${counted.errors}/${counted.referenceWords} | ${transcript}`,
        );
      }
      console.log(`${rate / 1000} kHz: WER ${(errors / words).toFixed(3)} (${errors}/${words})`);
    }
  } finally {
    await engines.close();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`real-speech: ${(error as Error).message}`);
    process.exit(1);
  },
);
