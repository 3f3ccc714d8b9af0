import { EVAL_NOISE_LEVELS, EVAL_SAMPLE_RATES, EVAL_FORMATS, noiseLabel, type EvalNoise } from './eval-conditions';
import type { ConditionResult } from './eval-run';

/** WER over a group of results: all their word errors over all their reference words. */
export function pooledWer(results: readonly ConditionResult[]): number {
  const words = results.reduce((sum, result) => sum + result.words, 0);
  return words === 0 ? Number.NaN : results.reduce((sum, result) => sum + result.errors, 0) / words;
}

/** Mean of the per-voice WERs (each voice counts once, whatever its number of conditions). */
export function meanOverVoices(results: readonly ConditionResult[]): number {
  const voices = [...new Set(results.map((result) => result.condition.voice.name))];
  const wers = voices.map((voice) => pooledWer(results.filter((result) => result.condition.voice.name === voice)));
  return wers.length === 0 ? Number.NaN : wers.reduce((sum, wer) => sum + wer, 0) / wers.length;
}

const format = (wer: number) => (Number.isNaN(wer) ? '-' : wer.toFixed(2));

/**
 * A markdown table: one row per voice, one column per rate x noise (PCM and Opus pooled), the voice's mean per
 * noise level, then the mean row (each voice weighted equally).
 */
export function werTable(results: readonly ConditionResult[]): string {
  const voices = [...new Set(results.map((result) => result.condition.voice.name))];
  const noises = EVAL_NOISE_LEVELS.filter((noise) => results.some((result) => result.condition.noise === noise));
  const rates = EVAL_SAMPLE_RATES.filter((rate) => results.some((result) => result.condition.sampleRate === rate));
  const columns: Array<{ title: string; pick: (result: ConditionResult) => boolean }> = [];
  for (const noise of noises) {
    for (const rate of rates)
      columns.push({
        title: `${rate / 1000} kHz ${noiseLabel(noise)}`,
        pick: (result) => result.condition.noise === noise && result.condition.sampleRate === rate,
      });
  }
  const noiseMeans = noises.map((noise: EvalNoise) => ({
    title: `all ${noiseLabel(noise)}`,
    pick: (result: ConditionResult) => result.condition.noise === noise,
  }));
  const header = ['voice', ...columns.map((column) => column.title), ...noiseMeans.map((column) => column.title)];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const voice of voices) {
    const own = results.filter((result) => result.condition.voice.name === voice);
    lines.push(
      `| ${[voice, ...[...columns, ...noiseMeans].map((column) => format(pooledWer(own.filter(column.pick))))].join(' | ')} |`,
    );
  }
  const mean = [...columns, ...noiseMeans].map((column) => format(meanOverVoices(results.filter(column.pick))));
  lines.push(`| **mean** | ${mean.join(' | ')} |`);
  return lines.join('\n');
}

/** The same by format (PCM vs Opus), one line per noise level: whether the codec costs accuracy. */
export function formatSummary(results: readonly ConditionResult[]): string {
  const lines: string[] = [];
  for (const noise of EVAL_NOISE_LEVELS) {
    const own = results.filter((result) => result.condition.noise === noise);
    if (own.length === 0) continue;
    const parts = EVAL_FORMATS.map(
      (name) => `${name} ${format(meanOverVoices(own.filter((result) => result.condition.format === name)))}`,
    );
    lines.push(`${noiseLabel(noise)}: ${parts.join(', ')}`);
  }
  return lines.join('\n');
}
