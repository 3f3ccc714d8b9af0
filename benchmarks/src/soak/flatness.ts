/**
 * The pass criteria of a soak target: no errors at all, and RSS flat after warm-up. "Flat" is two numbers
 * over the samples after the warm-up share of the run: the least-squares slope of RSS against time (a leak
 * shows as a steady climb) and the largest rise, from any sample to a later one (a step up or a sawtooth that
 * a slope alone averages away). Memory given back (a drop) is not growth and does not count against it.
 * The RSS of a sample is the highest of the once-a-second readings of its interval: a reading taken at the
 * moment a session's worker had just given its memory back would otherwise make the next reading look like a rise.
 */
import type { IntervalSample, RssVerdict, TargetVerdict } from './soak-results';

export interface FlatnessThresholds {
  /** Share of the run (0-1) left out as warm-up: at least one sample is always left out. */
  warmupFraction: number;
  maxSlopeMBPerMin: number;
  /** Largest rise allowed after warm-up, MB. */
  maxRiseMB: number;
}

export const DEFAULT_THRESHOLDS: FlatnessThresholds = { warmupFraction: 0.2, maxSlopeMBPerMin: 1, maxRiseMB: 24 };

/** The default, then the target's own values, then what the command line gave. */
export function mergeThresholds(
  target: Partial<FlatnessThresholds> | undefined,
  given: Partial<FlatnessThresholds>,
): FlatnessThresholds {
  return { ...DEFAULT_THRESHOLDS, ...target, ...given };
}

/** The RSS a sample is judged by: its interval's highest reading (the reading at its end if there is none). */
export function judgedRss(sample: IntervalSample): number {
  return Number.isFinite(sample.peakRssMB) ? sample.peakRssMB : sample.rssMB;
}

/** Least-squares slope of y over x; NaN with fewer than two distinct x. */
export function linearSlope(points: ReadonlyArray<{ x: number; y: number }>): number {
  const n = points.length;
  if (n < 2) return NaN;
  const meanX = points.reduce((sum, point) => sum + point.x, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const point of points) {
    covariance += (point.x - meanX) * (point.y - meanY);
    variance += (point.x - meanX) ** 2;
  }
  return variance === 0 ? NaN : covariance / variance;
}

/** The largest increase from a value to any later one (0 when the values never go up). */
export function largestRise(values: readonly number[]): number {
  let lowest = Infinity;
  let rise = 0;
  for (const value of values) {
    lowest = Math.min(lowest, value);
    rise = Math.max(rise, value - lowest);
  }
  return rise;
}

/** How many leading samples are warm-up. */
export function warmupSampleCount(sampleCount: number, warmupFraction: number): number {
  return Math.min(Math.max(1, Math.ceil(sampleCount * warmupFraction)), Math.max(0, sampleCount - 2));
}

export function judgeRss(samples: readonly IntervalSample[], thresholds: FlatnessThresholds): RssVerdict {
  const warmupSamples = warmupSampleCount(samples.length, thresholds.warmupFraction);
  const measured = samples.slice(warmupSamples).filter((sample) => Number.isFinite(judgedRss(sample)));
  const rss = measured.map(judgedRss);
  const slopeMBPerMin = linearSlope(measured.map((sample) => ({ x: sample.elapsedSec / 60, y: judgedRss(sample) })));
  const minMB = rss.length ? Math.min(...rss) : NaN;
  const maxMB = rss.length ? Math.max(...rss) : NaN;
  const riseMB = rss.length ? largestRise(rss) : NaN;
  return {
    warmupSamples,
    slopeMBPerMin,
    riseMB,
    rangeMB: maxMB - minMB,
    minMB,
    maxMB,
    maxSlopeMBPerMin: thresholds.maxSlopeMBPerMin,
    maxRiseMB: thresholds.maxRiseMB,
    // NaN (too few samples) is not flat: a verdict needs at least two samples after warm-up.
    flat: slopeMBPerMin <= thresholds.maxSlopeMBPerMin && riseMB <= thresholds.maxRiseMB,
  };
}

export function judgeTarget(
  samples: readonly IntervalSample[],
  thresholds: FlatnessThresholds,
  abortedReason?: string,
): TargetVerdict {
  const errors = samples.reduce((sum, sample) => sum + sample.errors, 0);
  const rss = judgeRss(samples, thresholds);
  const noErrors = errors === 0 && !abortedReason;
  const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
  const lines = [
    `${noErrors ? 'PASS' : 'FAIL'}  no errors: ${errors} error(s) in ${samples.length} interval(s)${abortedReason ? `; stopped early: ${abortedReason}` : ''}`,
    `${rss.flat ? 'PASS' : 'FAIL'}  RSS flat after warm-up (${rss.warmupSamples} interval(s) left out): ` +
      `slope ${fixed(rss.slopeMBPerMin, 2)} MB/min (max ${thresholds.maxSlopeMBPerMin}), ` +
      `largest rise ${fixed(rss.riseMB, 1)} MB (max ${thresholds.maxRiseMB}), range ${fixed(rss.minMB, 1)}-${fixed(rss.maxMB, 1)} MB`,
  ];
  return { errors, noErrors, rss, pass: noErrors && rss.flat, lines };
}
