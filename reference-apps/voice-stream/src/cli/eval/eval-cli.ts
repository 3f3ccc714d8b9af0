#!/usr/bin/env node
/**
 * Recognition accuracy across voices, sample rates, formats and noise:
 *   npm run eval -w voice-stream -- [--set evaluation|tuning] [--voice-set adapted|held-out] [--per-session 5] [--voices flite-rms,espeak-en-us] [--rates 8000,16000]
 *     [--formats pcm,opus] [--noise clean,20,10] [--noise-floor 45|off] [--sentences N] [--parallel 2] [--json results.json]
 *   npm run eval -w voice-stream -- --report results.json   (the tables of a run saved with --json, finished or not)
 *     [--decoder-args="-maxhmmpf 10000 -fwdflat yes"]   (PocketSphinx settings to try, over the live ones)
 * Audio is generated on the fly (flite, espeak-ng, sox, ffmpeg; cached in the temp folder) and streamed through
 * the server's own decoder and recogniser. Prints WER per condition as it goes, then the tables of
 * docs/voice-stream/recognition.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { acousticModelUse } from '../../engines/pocketsphinx/acoustic-adaptation';
import { NOISE_FLOOR_DB } from './eval-audio';
import { conditionLabel, evalConditions, type EvalNoise } from './eval-conditions';
import { formatSummary, meanOverVoices, werTable } from './eval-report';
import { runEvaluation, SENTENCES_PER_SESSION, type ConditionResult } from './eval-run';
import { EVALUATION_SENTENCES, TUNING_SENTENCES } from './eval-sentences';

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const OPTIONS = {
  set: { type: 'string', default: 'evaluation' },
  'voice-set': { type: 'string', default: 'adapted' },
  'per-session': { type: 'string' },
  voices: { type: 'string' },
  rates: { type: 'string' },
  formats: { type: 'string' },
  noise: { type: 'string' },
  'noise-floor': { type: 'string' },
  sentences: { type: 'string' },
  parallel: { type: 'string', default: '2' },
  json: { type: 'string' },
  report: { type: 'string' },
  'decoder-args': { type: 'string' },
} as const;

async function main(argv: readonly string[]): Promise<number> {
  // Unknown flags and flags without their value are errors (node:util's message, exit 1).
  const flags = parseArgs({ args: [...argv], options: OPTIONS, strict: true }).values;
  if (flags.report) {
    const saved = JSON.parse(readFileSync(flags.report, 'utf8')) as SavedRun;
    const done = saved.results.filter(Boolean);
    console.log(
      `${saved.set} set, ${saved.voiceSet ?? 'adapted'} voices, ${saved.sentences} sentences, ${saved.perSession ?? SENTENCES_PER_SESSION} per session, ${floorLabel(saved.noiseFloor ?? null)}, ${done.length} conditions${saved.decoderArgs ? `, decoder args: ${saved.decoderArgs}` : ''}`,
    );
    printTables(done);
    return 0;
  }
  const set = flags.set;
  if (set !== 'evaluation' && set !== 'tuning') throw new Error('--set is evaluation or tuning');
  const all = set === 'evaluation' ? EVALUATION_SENTENCES : TUNING_SENTENCES;
  const sentences = all.slice(0, Number(flags.sentences ?? all.length));
  const noise = list(flags.noise)?.map((level): EvalNoise => (level === 'clean' ? null : (Number(level) as EvalNoise)));
  const voiceSet = flags['voice-set'];
  if (voiceSet !== 'adapted' && voiceSet !== 'held-out') throw new Error('--voice-set is adapted or held-out');
  const perSession = Number(flags['per-session'] ?? SENTENCES_PER_SESSION);
  // The clean conditions' noise floor in dB below the speech, or `off` for digital silence between sentences.
  const floorFlag = flags['noise-floor'] ?? String(NOISE_FLOOR_DB);
  const noiseFloor = floorFlag === 'off' ? null : Number(floorFlag);
  if (noiseFloor !== null && !(noiseFloor > 0 && noiseFloor < 120))
    throw new Error(`--noise-floor is dB below the speech (between 0 and 120) or off, not ${floorFlag}`);
  const conditions = evalConditions({
    voiceSet,
    voices: list(flags.voices),
    rates: list(flags.rates)?.map(Number),
    formats: list(flags.formats),
    noise,
  });
  // Which acoustic model each profile is measured with (a missing adapted model is a warning).
  for (const use of acousticModelUse()) console.log(use.line);
  const started = Date.now();
  // Saved after every condition, so a long run that is stopped still has its tables (--report).
  const saved: SavedRun = {
    set,
    voiceSet,
    perSession,
    noiseFloor,
    sentences: sentences.length,
    decoderArgs: flags['decoder-args'],
    results: [],
  };
  const save = () => flags.json && writeFileSync(flags.json, JSON.stringify(saved, null, 2));
  console.log(
    `recognition eval: ${conditions.length} conditions (${voiceSet} voices) x ${sentences.length} ${set} sentences, ${perSession} per session, ${floorLabel(noiseFloor)}`,
  );
  const results = await runEvaluation({
    conditions,
    sentences,
    perSession,
    noiseFloor,
    parallel: Number(flags.parallel),
    engines: { recognizer: { extraArguments: flags['decoder-args']?.split(/\s+/).filter(Boolean) ?? [] } },
    onResult: (result, done, total) => {
      saved.results.push(result);
      save();
      console.log(
        `[${done}/${total}] ${conditionLabel(result.condition)}: WER ${result.wer.toFixed(3)} (${result.errors}/${result.words})`,
      );
    },
  });
  printTables(results);
  console.log(`${((Date.now() - started) / 1000).toFixed(0)} s`);
  return 0;
}

interface SavedRun {
  set: string;
  voiceSet?: string;
  perSession?: number;
  /** dB below the speech, null: digital silence (a run saved without it was measured so). */
  noiseFloor?: number | null;
  sentences: number;
  decoderArgs?: string;
  results: ConditionResult[];
}

const floorLabel = (floor: number | null) =>
  floor === null ? 'clean audio in digital silence' : `clean audio over a noise floor ${floor} dB below the speech`;

function printTables(results: readonly ConditionResult[]): void {
  console.log(`\n${werTable(results)}\n\nBy format (mean over voices):\n${formatSummary(results)}`);
  console.log(`\nmean WER over all conditions (voices weighted equally): ${meanOverVoices(results).toFixed(3)}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`eval: ${(error as Error).message}`);
    process.exit(1);
  },
);
