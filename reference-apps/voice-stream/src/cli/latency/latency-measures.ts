import type { StreamMessage } from '../client/voice-stream-client';

/** Where a spoken phrase lies in the source audio, in ms from its first sample. */
export interface PhraseTiming {
  readonly startMs: number;
  readonly endMs: number;
}

/** What one client received, with arrival times (performance.now()), and when its audio started. */
export interface SessionLog {
  startedAt: number;
  readonly messages: Array<{ readonly at: number; readonly message: StreamMessage }>;
  failed: boolean;
}

/** Per phrase: ms from the end of the phrase in the audio to each arrival (undefined: never arrived). */
export interface PhraseLatency {
  source?: number;
  translation?: number;
  audio?: number;
  /** From the start of the phrase in the audio to its first tentative update. */
  firstTentative?: number;
  /** Longest wait between tentative updates while the phrase was spoken (from its first one to the phrase's end). */
  tentativeGap?: number;
}

/** A concluded segment belongs to the phrase whose end is nearest its own end, if within this. */
const MATCH_MS = 1000;

function phraseOf(phrases: readonly PhraseTiming[], endTime: number): number | undefined {
  let best: number | undefined;
  for (let index = 0; index < phrases.length; index += 1) {
    const distance = Math.abs(phrases[index].endMs - endTime);
    if (distance <= MATCH_MS && (best === undefined || distance < Math.abs(phrases[best].endMs - endTime)))
      best = index;
  }
  return best;
}

/** Latencies of one session's phrases, from its message log. */
export function phraseLatencies(log: SessionLog, phrases: readonly PhraseTiming[], target: string): PhraseLatency[] {
  const found: PhraseLatency[] = phrases.map(() => ({}));
  if (log.failed || log.startedAt === 0) return found;
  const spokenAt = (index: number) => log.startedAt + phrases[index].endMs;
  const targetSegments: number[] = []; // phrase index of each concluded target segment, in order (-1: none)
  let mediaSegments = 0;
  const tentativeTimes: number[] = [];
  for (const { at, message } of log.messages) {
    const source = message.source_transcript_update;
    if (source) {
      if (source.tentative.length > 0) tentativeTimes.push(at);
      for (const segment of source.concluded) {
        const index = phraseOf(phrases, segment.end_time);
        if (index !== undefined) found[index].source ??= at - spokenAt(index);
      }
    }
    const translated = message.target_transcript_update;
    if (translated?.language === target) {
      for (const segment of translated.concluded) {
        const index = phraseOf(phrases, segment.end_time);
        targetSegments.push(index ?? -1);
        if (index !== undefined) found[index].translation ??= at - spokenAt(index);
      }
    }
    const media = message.target_media_chunk;
    if (media?.language === target && typeof media.text === 'string') {
      // The first chunk of each spoken segment carries its text, in the order of the target segments.
      const index = targetSegments[mediaSegments++];
      if (index !== undefined && index >= 0) found[index].audio ??= at - spokenAt(index);
    }
  }
  phrases.forEach((phrase, index) => {
    const during = tentativeTimes.filter((time) => time > log.startedAt + phrase.startMs && time <= spokenAt(index));
    if (during.length === 0) return;
    found[index].firstTentative = during[0] - (log.startedAt + phrase.startMs);
    let longest = spokenAt(index) - during[during.length - 1];
    for (let next = 1; next < during.length; next += 1) longest = Math.max(longest, during[next] - during[next - 1]);
    found[index].tentativeGap = longest;
  });
  return found;
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]);
}

function stats(values: readonly number[]): { p50: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: Math.round(sorted.at(-1) ?? Number.NaN) };
}

/** p50/p95/max of every measure over every phrase of every session. */
export function summarize(sessions: readonly PhraseLatency[][]) {
  const all = sessions.flat();
  const pick = (measure: keyof PhraseLatency) =>
    all.map((phrase) => phrase[measure]).filter((value): value is number => value !== undefined);
  return {
    phrases: all.length,
    missed: all.filter((phrase) => phrase.translation === undefined).length,
    failures: sessions.filter((phrases) => phrases.every((phrase) => phrase.source === undefined)).length,
    source: stats(pick('source')),
    translation: stats(pick('translation')),
    audio: stats(pick('audio')),
    firstTentative: stats(pick('firstTentative')),
    tentativeGap: stats(pick('tentativeGap')),
  };
}
