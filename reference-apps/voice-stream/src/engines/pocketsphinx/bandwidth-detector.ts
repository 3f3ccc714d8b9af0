/**
 * Tells telephone-band audio (nothing above 4 kHz: 8 kHz sources, narrowband Opus, upsampled phone audio)
 * from wideband audio, from the 16 kHz PCM the recogniser receives. Formats that declare their rate (PCM,
 * A-law, µ-law) need no guess; a compressed stream (Opus, MP3, AAC...) is decoded to 16 kHz whatever its
 * source was, so the recogniser looks at the sound itself before choosing its acoustic profile.
 *
 * Method: the share of the energy above ~4.4 kHz (a 63-tap windowed-sinc high-pass) in the loud 10 ms frames.
 * Measured on the first 0.4 s of loud speech of two tuning sentences (test/bandwidth-detector.test.ts), sent
 * as 8 kHz PCM or Opus it keeps 0.4-0.9 millionths of its energy there (resampler and codec leakage), as 16 kHz
 * 0.3-8 thousandths (fricatives, sibilants): the threshold lies between, 20 millionths.
 */

const TAPS = 63;
const CUTOFF_HZ = 4400;
const SAMPLE_RATE = 16000;
/** Below this share of energy above the cut-off, the audio is narrowband. */
export const NARROWBAND_HIGH_SHARE = 2e-5;
/** Loud audio needed before deciding (10 ms frames). */
const LOUD_FRAMES_NEEDED = 40;
/** A frame counts as loud above this RMS (about -40 dBFS: speech, not silence or faint noise). */
const LOUD_RMS = 300;
const FRAME = 160;

function highPassTaps(): Float64Array {
  const taps = new Float64Array(TAPS);
  const middle = (TAPS - 1) / 2;
  const cutoff = CUTOFF_HZ / SAMPLE_RATE;
  let sum = 0;
  for (let index = 0; index < TAPS; index += 1) {
    const offset = index - middle;
    const sinc = offset === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * offset) / (Math.PI * offset);
    const window = 0.54 - 0.46 * Math.cos((2 * Math.PI * index) / (TAPS - 1));
    taps[index] = sinc * window;
    sum += taps[index];
  }
  // Low-pass normalised to unit gain at DC, then turned into the complementary high-pass.
  for (let index = 0; index < TAPS; index += 1) taps[index] = -taps[index] / sum;
  taps[middle] += 1;
  return taps;
}

const HIGH_PASS = highPassTaps();

export type Bandwidth = 'narrowband' | 'wideband';

export class BandwidthDetector {
  private readonly history = new Float64Array(TAPS);
  private historyAt = 0;
  private frameTotal = 0;
  private frameHigh = 0;
  private frameSamples = 0;
  private loudFrames = 0;
  private total = 0;
  private high = 0;

  /** Feeds 16 kHz samples; returns the verdict once enough loud audio was heard, else undefined. */
  feed(samples: Int16Array): Bandwidth | undefined {
    for (const sample of samples) {
      this.history[this.historyAt] = sample;
      this.historyAt = (this.historyAt + 1) % TAPS;
      let filtered = 0;
      for (let tap = 0; tap < TAPS; tap += 1) filtered += HIGH_PASS[tap] * this.history[(this.historyAt + tap) % TAPS];
      this.frameTotal += sample * sample;
      this.frameHigh += filtered * filtered;
      this.frameSamples += 1;
      if (this.frameSamples === FRAME) {
        if (Math.sqrt(this.frameTotal / FRAME) >= LOUD_RMS) {
          this.loudFrames += 1;
          this.total += this.frameTotal;
          this.high += this.frameHigh;
        }
        this.frameTotal = 0;
        this.frameHigh = 0;
        this.frameSamples = 0;
      }
    }
    return this.loudFrames >= LOUD_FRAMES_NEEDED ? this.verdict() : undefined;
  }

  /** The verdict on what was heard so far (wideband when nothing loud was heard). */
  verdict(): Bandwidth {
    if (this.loudFrames === 0) return 'wideband';
    return this.high / this.total < NARROWBAND_HIGH_SHARE ? 'narrowband' : 'wideband';
  }

  /** Share of the loud frames' energy above the cut-off (diagnostics and tests). */
  get highShare(): number {
    return this.total === 0 ? Number.NaN : this.high / this.total;
  }
}
