#!/usr/bin/env node
/**
 * Recognition of real human speech: the recordings of Debian's `pocketsphinx-testdata` that have a transcript
 * (a man reading "go forward ten meters", five sentences of a LibriVox reading of Sense and Sensibility, five
 * spoken playing cards) and, when `alsa-utils` is installed, its eight spoken channel names ("front left"), each streamed as one session through the server's decoder and recogniser, at 16 kHz
 * and downsampled to 8 kHz (sox), as PCM:
 *   npm run real-speech -w voice-stream -- [--rates 16000,8000] [--per-session 1] [--decoder-args="-adaptation none"]
 * `--per-session N` streams N consecutive recordings of a folder (librivox, cards, alsa) as one session, one after
 * the other (default 1: every recording a session of its own, as a short request would be).
 * The synthetic evaluation (`npm run eval`) decides the settings; this checks that they do not make real
 * speech worse (the acoustic adaptation is made on synthetic voices). None of these recordings is everyday
 * travel speech, so their WER is high with any setting: compare runs, not absolute figures.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { acousticModelUse } from '../../engines/pocketsphinx/acoustic-adaptation';
import { parseWav } from '../../domain/media/wav';
import { decoderVocabulary } from '../../engines/pocketsphinx/pocketsphinx-library';
import { createOfflineEngines } from '../../engines/voice-engines';
import { resample } from './eval-audio';
import { recognizeAudio } from './eval-recognition';
import { wordErrors } from './word-error-rate';

const TEST_DATA = process.env.POCKETSPHINX_TEST_DATA ?? '/usr/share/pocketsphinx/test/data';
/** Debian's `alsa-utils`: speaker-test's channel names ("front left"...), spoken by a person (48 kHz). */
const ALSA_SOUNDS = process.env.ALSA_SOUNDS ?? '/usr/share/sounds/alsa';

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
  if (existsSync(ALSA_SOUNDS)) {
    for (const file of readdirSync(ALSA_SOUNDS).sort()) {
      const match = /^(Front|Rear|Side)_(Center|Left|Right)\.wav$/.exec(file);
      if (match)
        found.push({
          name: `alsa/${file}`,
          file: path.join(ALSA_SOUNDS, file),
          transcript: `${match[1]} ${match[2]}`.toLowerCase(),
        });
    }
  }
  return found;
}

/** The recordings in sessions of `perSession`, consecutive recordings of one folder (goforward is alone). */
function sessionsOf(all: readonly Recording[], perSession: number): Recording[][] {
  const sessions: Recording[][] = [];
  for (const recording of all) {
    const last = sessions.at(-1);
    const folder = (name: string) => name.split('/')[0];
    if (last && last.length < perSession && folder(last[0].name) === folder(recording.name)) last.push(recording);
    else sessions.push([recording]);
  }
  return sessions;
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
    options: {
      rates: { type: 'string', default: '16000,8000' },
      'per-session': { type: 'string', default: '1' },
      'decoder-args': { type: 'string' },
    },
    strict: true,
  }).values;
  if (!existsSync(path.join(TEST_DATA, 'goforward.raw')))
    throw new Error(`no recordings in ${TEST_DATA}; run: apt-get install -y pocketsphinx-testdata`);
  // Which acoustic model each profile is measured with (a missing adapted model is a warning).
  for (const use of acousticModelUse()) console.log(use.line);
  const rates = flags.rates.split(',').map(Number);
  const perSession = Number(flags['per-session']);
  if (!(Number.isInteger(perSession) && perSession >= 1)) throw new Error('--per-session is a whole number >= 1');
  const all = recordings();
  const sessions = sessionsOf(all, perSession);
  const extraArguments = flags['decoder-args']?.split(/\s+/).filter(Boolean) ?? [];
  // Reference words the recogniser cannot produce at all: a floor under the WER that no acoustics lift.
  const vocabulary = decoderVocabulary(extraArguments);
  const referenceWords = all.flatMap((recording) => recording.transcript.split(/\s+/).filter(Boolean));
  const unknown = referenceWords.filter((word) => !vocabulary.has(word));
  console.log(
    `out of vocabulary (${vocabulary.size} words): ${unknown.length}/${referenceWords.length} reference words (${((100 * unknown.length) / referenceWords.length).toFixed(1)} %): ${unknown.join(' ')}`,
  );
  const engines = createOfflineEngines({ recognizer: { idleWorkers: 1, extraArguments } });
  try {
    for (const rate of rates) {
      let errors = 0;
      let words = 0;
      for (const session of sessions) {
        // The recordings as they are, one after the other (each has its own silence at its edges): no digital
        // silence is added, which no microphone sends and which threw the 8 kHz decoder off (goforward at 8 kHz:
        // "go forward ten meters" alone, "it far as our ears and" after 0.8 s of zeros).
        const passage = Buffer.concat(session.map((recording) => pcmOf(recording)));
        const pcm = resample(passage, 16000, rate);
        const transcript = await recognizeAudio(engines, pcm, `audio/pcm;encoding=s16le;rate=${rate}`);
        const counted = wordErrors(session.map((recording) => recording.transcript).join(' '), transcript);
        errors += counted.errors;
        words += counted.referenceWords;
        console.log(
          `${rate / 1000} kHz ${session.map((recording) => recording.name).join(' + ')}: ${counted.errors}/${counted.referenceWords} | ${transcript}`,
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
