import { execFileSync } from 'node:child_process';
import path from 'node:path';
import test from 'ava';
import { conditionLabel, evalConditions, seededSample } from '../src/cli/eval/eval-conditions';
import { NOISE_FLOOR_DB } from '../src/cli/eval/eval-audio';
import { pooledWer } from '../src/cli/eval/eval-report';
import { runEvaluation } from '../src/cli/eval/eval-run';
import { EVALUATION_SENTENCES } from '../src/cli/eval/eval-sentences';
import { requireEnginePackages } from './support/system-packages';

// A small seeded subset of `npm run eval -w voice-stream` (issue 23 §1): 4 of its conditions and 5 of its
// evaluation sentences, chosen by SEED, streamed through the server's decoder and recogniser. It fails when
// recognition regresses past the bound: the subset's WER with the settings of docs/voice-stream/recognition.md plus a
// margin for differences between machines. The full evaluation is the command.

const SEED = 23;
/**
 * The subset's WER measured with the shipped settings (docs/voice-stream/recognition.md) is BASELINE; REGRESSION above fails.
 * 0.577 with the general language model; 0.520 with the mixed everyday model and bandwidth detection (issue 23);
 * 0.260 with the acoustic model adapted to the evaluation's voices (MAP, `npm run adapt`, tau 100), 0.245 with the
 * narrowband profile's tau 30 (issue 23, acoustic adaptation); 0.194 with three more accents in the adaptation and the
 * first utterance's second pass; 0.173 with the narrowband profile's tau 8.
 */
const BASELINE = 0.173;
const REGRESSION = 0.08;

test.before(() => {
  requireEnginePackages(['sox', 'sphinxtrain', 'sphinxbase-utils', 'pocketsphinx']);
  // The adapted acoustic model the server decodes with (made by `npm run adapt`, as CI and `npm start` do;
  // nothing to do when it is up to date). Without it, this measures the model as shipped.
  execFileSync(process.execPath, [path.join(__dirname, '..', 'src', 'cli', 'adapt', 'adapt-cli.js'), '--if-stale'], {
    stdio: 'inherit',
    timeout: 900_000,
  });
});

test('recognition on a seeded subset of the evaluation set does not regress', async (t) => {
  t.timeout(900_000);
  const conditions = seededSample(evalConditions(), 4, SEED);
  const sentences = seededSample(EVALUATION_SENTENCES, 5, SEED);
  // In digital silence, as BASELINE was measured (the evaluation's default noise floor came later).
  const results = await runEvaluation({ conditions, sentences, noiseFloor: null });
  for (const result of results)
    t.log(`${conditionLabel(result.condition)}: WER ${result.wer.toFixed(3)} | ${result.transcripts.join(' / ')}`);
  const wer = pooledWer(results);
  t.log(`subset WER ${wer.toFixed(3)} (baseline ${BASELINE}, fails above ${(BASELINE + REGRESSION).toFixed(3)})`);
  t.true(
    wer <= BASELINE + REGRESSION,
    `subset WER ${wer.toFixed(3)} regressed past ${(BASELINE + REGRESSION).toFixed(3)}`,
  );
});

/**
 * The hardest voice the model was never adapted on (espeak-ng's Caribbean English, docs/voice-stream/recognition.md),
 * at 8 kHz, each sentence alone in its session over the evaluation's noise floor: the case the narrowband profile's
 * adaptation prior decides (0.49 over all 44 sentences with tau 30, 0.37 with 8). This subset of 12 sentences
 * measures 0.378 with the shipped settings; it fails above the target the whole set is held to: no held-out voice
 * above 0.45.
 */
const HELD_OUT_VOICE_LIMIT = 0.45;

test('the hardest held-out voice at 8 kHz, one sentence per session, stays within the target', async (t) => {
  t.timeout(900_000);
  const conditions = evalConditions({
    voiceSet: 'held-out',
    voices: ['espeak-en-029'],
    rates: [8000],
    formats: ['pcm'],
    noise: [null],
  });
  t.is(conditions.length, 1);
  const sentences = seededSample(EVALUATION_SENTENCES, 12, SEED);
  const results = await runEvaluation({ conditions, sentences, perSession: 1, noiseFloor: NOISE_FLOOR_DB });
  const wer = pooledWer(results);
  t.log(`${conditionLabel(results[0]!.condition)}: WER ${wer.toFixed(3)} | ${results[0]!.transcripts.join(' / ')}`);
  t.true(wer <= HELD_OUT_VOICE_LIMIT, `held-out voice WER ${wer.toFixed(3)} is above ${HELD_OUT_VOICE_LIMIT}`);
});
