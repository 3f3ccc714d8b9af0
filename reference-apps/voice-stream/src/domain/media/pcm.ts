/** Amplitude under which s16 samples count as silence when trimming synthesized speech. */
const SILENCE_THRESHOLD = 200;

/**
 * Cuts leading and trailing silence from mono s16le speech (the spec's media carries speech only), keeping
 * `marginMs` of the natural fade on both sides so words are not clipped.
 */
export function trimSilence(pcm: Buffer, sampleRate: number, marginMs = 15): Buffer {
  const samples = Math.floor(pcm.length / 2);
  let first = 0;
  while (first < samples && Math.abs(pcm.readInt16LE(first * 2)) < SILENCE_THRESHOLD) first += 1;
  if (first === samples) return Buffer.alloc(0);
  let last = samples - 1;
  while (last > first && Math.abs(pcm.readInt16LE(last * 2)) < SILENCE_THRESHOLD) last -= 1;
  const margin = Math.round((sampleRate * marginMs) / 1000);
  const start = Math.max(0, first - margin);
  const end = Math.min(samples, last + 1 + margin);
  return pcm.subarray(start * 2, end * 2);
}

/** Root mean square of mono s16le samples (0 for silence). */
export function rms(pcm: Buffer): number {
  const samples = Math.floor(pcm.length / 2);
  if (samples === 0) return 0;
  let sum = 0;
  for (let index = 0; index < samples; index += 1) {
    const value = pcm.readInt16LE(index * 2);
    sum += value * value;
  }
  return Math.sqrt(sum / samples);
}
