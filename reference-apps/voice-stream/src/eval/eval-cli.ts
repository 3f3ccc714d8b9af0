#!/usr/bin/env node
/**
 * Recognition accuracy across voices, sample rates, formats and noise:
 *   npm run eval -w voice-stream -- [--set evaluation|tuning] [--voices flite-rms,espeak-en-us] [--rates 8000,16000]
 *     [--formats pcm,opus] [--noise clean,20,10] [--sentences N] [--parallel 2] [--json results.json]
 *     [--decoder-args "-maxhmmpf 10000 -fwdflat yes"]   (PocketSphinx settings to try, over the live ones)
 * Audio is generated on the fly (flite, espeak-ng, sox, ffmpeg; cached in the temp folder) and streamed through
 * the server's own decoder and recogniser. Prints WER per condition as it goes, then the tables of
 * docs/voice-stream.md ("Recognition across voices").
 */
import { writeFileSync } from 'node:fs';
import { readFlag } from 'app-support';
import { conditionLabel, evalConditions, type EvalNoise } from './eval-conditions';
import { formatSummary, meanOverVoices, werTable } from './eval-report';
import { runEvaluation } from './eval-run';
import { EVALUATION_SENTENCES, TUNING_SENTENCES } from './eval-sentences';

const list = (value: string | undefined) => value?.split(',').map((item) => item.trim()).filter(Boolean);

async function main(argv: readonly string[]): Promise<number> {
  const set = readFlag(argv, 'set') ?? 'evaluation';
  if (set !== 'evaluation' && set !== 'tuning') throw new Error('--set is evaluation or tuning');
  const all = set === 'evaluation' ? EVALUATION_SENTENCES : TUNING_SENTENCES;
  const sentences = all.slice(0, Number(readFlag(argv, 'sentences') ?? all.length));
  const noise = list(readFlag(argv, 'noise'))?.map((level): EvalNoise => (level === 'clean' ? null : (Number(level) as EvalNoise)));
  const conditions = evalConditions({
    voices: list(readFlag(argv, 'voices')),
    rates: list(readFlag(argv, 'rates'))?.map(Number),
    formats: list(readFlag(argv, 'formats')),
    noise,
  });
  const started = Date.now();
  console.log(`recognition eval: ${conditions.length} conditions x ${sentences.length} ${set} sentences`);
  const results = await runEvaluation({
    conditions,
    sentences,
    parallel: Number(readFlag(argv, 'parallel') ?? '2'),
    engines: { recognizer: { extraArguments: readFlag(argv, 'decoder-args')?.split(/\s+/).filter(Boolean) ?? [] } },
    onResult: (result, done, total) => console.log(`[${done}/${total}] ${conditionLabel(result.condition)}: WER ${result.wer.toFixed(3)} (${result.errors}/${result.words})`),
  });
  console.log(`\n${werTable(results)}\n\nBy format (mean over voices):\n${formatSummary(results)}`);
  console.log(`\nmean WER over all conditions (voices weighted equally): ${meanOverVoices(results).toFixed(3)}; ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const jsonFile = readFlag(argv, 'json');
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ set, sentences: sentences.length, results }, null, 2));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`eval: ${(error as Error).message}`);
    process.exit(1);
  },
);
