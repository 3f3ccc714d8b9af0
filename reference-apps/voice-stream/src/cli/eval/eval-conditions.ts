/** The voices, sample rates, formats and noise levels of the recognition evaluation. */

/** A synthetic English voice available offline: flite's built-in voices, espeak-ng's English ones, festival's. */
export interface EvalVoice {
  /** Short name used in tables: `flite-rms`, `espeak-en-us+f3-150`... */
  readonly name: string;
  readonly engine: 'flite' | 'espeak-ng' | 'festival';
  /** flite `-voice`, espeak-ng `-v`, or festival's voice function (`voice_ked_diphone`). */
  readonly voice: string;
  /** espeak-ng words per minute. */
  readonly wordsPerMinute?: number;
}

const FLITE_VOICES = ['kal', 'kal16', 'awb', 'rms', 'slt'];
const ESPEAK_VOICES = ['en-us', 'en-us+f3', 'en-gb', 'en-gb-scotland'];
/** espeak-ng's default speed (175) and a slower, clearer one. */
const ESPEAK_SPEEDS = [140, 175];

/** Each espeak-ng voice at each of ESPEAK_SPEEDS. */
function atEspeakSpeeds(voices: readonly string[]): EvalVoice[] {
  return voices.flatMap((voice) =>
    ESPEAK_SPEEDS.map(
      (wordsPerMinute): EvalVoice => ({
        name: `espeak-${voice}-${wordsPerMinute}`,
        engine: 'espeak-ng',
        voice,
        wordsPerMinute,
      }),
    ),
  );
}

export const EVAL_VOICES: readonly EvalVoice[] = [
  ...FLITE_VOICES.map((voice): EvalVoice => ({ name: `flite-${voice}`, engine: 'flite', voice })),
  ...atEspeakSpeeds(ESPEAK_VOICES),
];

/**
 * espeak-ng accents the acoustic model is adapted on besides EVAL_VOICES, never evaluated: more ways of speaking
 * English (Lancaster, the West Midlands, New York City) so the adaptation fits English speech rather than the
 * evaluation's voices alone. None is a variant of a held-out voice.
 */
const ADAPTATION_ONLY_ACCENTS = ['en-gb-x-gbclan', 'en-gb-x-gbcwmd', 'en-us-nyc'];

/** The voices `npm run adapt` adapts the acoustic model on (src/cli/adapt): EVAL_VOICES and the accents above. */
export const ADAPTATION_VOICES: readonly EvalVoice[] = [...EVAL_VOICES, ...atEspeakSpeeds(ADAPTATION_ONLY_ACCENTS)];

/**
 * Voices the acoustic model is never adapted on (src/cli/adapt takes ADAPTATION_VOICES only): how the recogniser does on
 * a voice it has not heard. festival's `ked` diphone voice (Debian `festvox-kdlpc16k`) and its HTS `slt` voice
 * (`festvox-us-slt-hts`: the same speaker as flite's slt, another synthesis method), and three espeak-ng
 * variants (Caribbean English, British received pronunciation, a male US variant) at espeak-ng's default speed.
 */
export const HELD_OUT_VOICES: readonly EvalVoice[] = [
  { name: 'festival-ked', engine: 'festival', voice: 'voice_ked_diphone' },
  { name: 'festival-slt-hts', engine: 'festival', voice: 'voice_cmu_us_slt_arctic_hts' },
  ...['en-029', 'en-gb-x-rp', 'en-us+m3'].map(
    (voice): EvalVoice => ({ name: `espeak-${voice}-175`, engine: 'espeak-ng', voice, wordsPerMinute: 175 }),
  ),
];

/** `adapted`: the voices the acoustic model was adapted on (on other sentences); `held-out`: HELD_OUT_VOICES. */
export type VoiceSet = 'adapted' | 'held-out';

export const EVAL_SAMPLE_RATES = [8000, 16000] as const;
export type EvalSampleRate = (typeof EVAL_SAMPLE_RATES)[number];

/** How the audio reaches the server: raw PCM s16le, or Ogg Opus at 32 kbit/s (what a browser or phone sends). */
export const EVAL_FORMATS = ['pcm', 'opus'] as const;
export type EvalFormat = (typeof EVAL_FORMATS)[number];

/** Signal-to-noise ratio in dB of white noise added over the whole passage; null: clean. */
export const EVAL_NOISE_LEVELS = [null, 20, 10] as const;
export type EvalNoise = (typeof EVAL_NOISE_LEVELS)[number];

export interface EvalCondition {
  readonly voice: EvalVoice;
  readonly sampleRate: EvalSampleRate;
  readonly format: EvalFormat;
  readonly noise: EvalNoise;
}

export const noiseLabel = (noise: EvalNoise) => (noise === null ? 'clean' : `${noise} dB`);

export const conditionLabel = (condition: EvalCondition) =>
  `${condition.voice.name} ${condition.sampleRate / 1000} kHz ${condition.format} ${noiseLabel(condition.noise)}`;

/**
 * Every combination, or those the filters keep. Ordered by what matters most first (clean before noisy, PCM
 * before Opus, 16 kHz before 8 kHz), every voice within each, so a run stopped early still covers every voice.
 */
export function evalConditions(
  filter: Partial<{
    voiceSet: VoiceSet;
    voices: readonly string[];
    rates: readonly number[];
    formats: readonly string[];
    noise: readonly EvalNoise[];
  }> = {},
): EvalCondition[] {
  const conditions: EvalCondition[] = [];
  const voices = (filter.voiceSet === 'held-out' ? HELD_OUT_VOICES : EVAL_VOICES).filter(
    (voice) => !filter.voices || filter.voices.some((name) => voice.name === name || voice.name.startsWith(`${name}-`)),
  );
  for (const noise of EVAL_NOISE_LEVELS) {
    if (filter.noise && !filter.noise.includes(noise)) continue;
    for (const format of EVAL_FORMATS) {
      if (filter.formats && !filter.formats.includes(format)) continue;
      for (const sampleRate of [...EVAL_SAMPLE_RATES].reverse()) {
        if (filter.rates && !filter.rates.includes(sampleRate)) continue;
        for (const voice of voices) conditions.push({ voice, sampleRate, format, noise });
      }
    }
  }
  return conditions;
}

/** A deterministic pseudo-random generator (mulberry32), for seeded subsets. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` items of `items` chosen by `seed` (same seed, same choice), in their original order. */
export function seededSample<T>(items: readonly T[], count: number, seed: number): T[] {
  const random = seededRandom(seed);
  const indexes = items.map((_, index) => index);
  for (let index = indexes.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [indexes[index], indexes[other]] = [indexes[other], indexes[index]];
  }
  return indexes
    .slice(0, Math.min(count, items.length))
    .sort((a, b) => a - b)
    .map((index) => items[index]);
}
