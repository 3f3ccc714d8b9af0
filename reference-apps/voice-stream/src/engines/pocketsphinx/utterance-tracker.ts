import { FRAME_MS, type DecodedWord } from './pocketsphinx-library';
import type { WorkerSegment } from './worker-protocol';

/** What the tracker needs from a decoder (the PocketSphinx binding, or a fake in tests). */
export interface UtteranceDecoder {
  readonly frameClock: number;
  readonly inSpeech: boolean;
  /** Whether the stream's first utterance gets a second pass (pocketsphinx-library.ts, `-firstpass2`). */
  readonly redecodesFirstUtterance?: boolean;
  startUtterance(): void;
  process(samples: Int16Array): void;
  words(): DecodedWord[];
  endUtterance(): void;
}

export interface UtteranceEvents {
  tentative(segment: WorkerSegment | null): void;
  concluded(segment: WorkerSegment): void;
}

/** Audio between two partial hypotheses (partials are expensive on long utterances). */
const PARTIAL_EVERY_SAMPLES = 3200; // 200 ms at 16 kHz
/** Utterances are cut here (counted from their first speech) even without a pause, so hypotheses stay fast and captions keep flowing. */
const MAX_UTTERANCE_SAMPLES = 15 * 16000;
/** Audio is fed in 100 ms steps so the end of speech is noticed within 100 ms. */
const STEP_SAMPLES = 1600;
/** Steps before the first speech kept for the first utterance's second pass: 1 s, more than the detector's lead-in. */
const LEAD_IN_STEPS = 10;

/**
 * Streams one session through a decoder: partial hypotheses become tentative segments, the end of an
 * utterance (voice activity detector falls silent) a concluded one. Times are milliseconds from the
 * session's first sample, taken from the decoder's word frames.
 *
 * The first utterance of a stream is decoded twice. The decoder normalises features by a cepstral mean that it
 * learns from the speech it hears and updates at the end of each utterance; the first utterance is heard with the
 * profile's initial mean only, and is recognised much worse than later ones (a short request in a session of its
 * own pays this in full). So its audio is kept, and once it ends (the mean now includes it) it is decoded again;
 * the second pass gives its concluded segment. Its tentative segments come from the first pass; the second costs
 * the first utterance's decoding time once per stream, before its concluded segment.
 */
export class UtteranceTracker {
  private readonly baseFrame: number;
  private speaking = false;
  private samplesSincePartial = 0;
  private utteranceSamples = 0;
  private lastTentative = '';
  private lastConcludedEndMs = 0;
  /** Audio short of a whole step, kept for the next chunk. */
  private carry = new Int16Array(0);
  /** The first utterance's audio so far, for its second pass; null once it was concluded (or without a second pass). */
  private firstUtterance: Int16Array[] | null;
  /** Frames the decoder's clock counts twice: the first utterance's audio, decoded again. */
  private replayedFrames = 0;

  constructor(
    private readonly decoder: UtteranceDecoder,
    private readonly events: UtteranceEvents,
  ) {
    this.baseFrame = decoder.frameClock;
    this.firstUtterance = decoder.redecodesFirstUtterance === true ? [] : null;
    decoder.startUtterance();
  }

  feed(samples: Int16Array): void {
    // Steps are cut at fixed 100 ms boundaries from the stream's start, whatever the chunks' sizes (ffmpeg's
    // output comes in sizes that vary from run to run): the same audio then gives the same transcript.
    let audio = samples;
    if (this.carry.length > 0) {
      audio = new Int16Array(this.carry.length + samples.length);
      audio.set(this.carry);
      audio.set(samples, this.carry.length);
    }
    const whole = audio.length - (audio.length % STEP_SAMPLES);
    this.carry = audio.slice(whole);
    this.process(audio.subarray(0, whole));
  }

  private process(samples: Int16Array): void {
    for (let offset = 0; offset < samples.length; offset += STEP_SAMPLES) {
      const step = samples.subarray(offset, Math.min(samples.length, offset + STEP_SAMPLES));
      this.decoder.process(step);
      const speech = this.decoder.inSpeech;
      // Counted from the first speech: a long silence before it must not cut the utterance at its first words.
      if (speech || this.speaking) this.utteranceSamples += step.length;
      if (this.firstUtterance !== null) this.keepForSecondPass(step, speech);
      if (speech) {
        this.speaking = true;
        this.samplesSincePartial += step.length;
        if (this.utteranceSamples >= MAX_UTTERANCE_SAMPLES) this.conclude(true);
        else if (this.samplesSincePartial >= PARTIAL_EVERY_SAMPLES) this.reportPartial();
      } else if (this.speaking) {
        this.conclude(true);
      }
    }
  }

  /** End of audio: the open utterance is concluded. */
  finish(): void {
    const rest = this.carry;
    this.carry = new Int16Array(0);
    if (rest.length > 0) this.process(rest);
    this.conclude(false);
  }

  private reportPartial(): void {
    this.samplesSincePartial = 0;
    const segment = this.toSegment(this.decoder.words());
    const text = segment?.text ?? '';
    if (text === this.lastTentative) return;
    this.lastTentative = text;
    this.events.tentative(segment);
  }

  /** Keeps a step of the first utterance: all of them once speech began, the last LEAD_IN_STEPS before. */
  private keepForSecondPass(step: Int16Array, speech: boolean): void {
    const kept = this.firstUtterance!;
    kept.push(step.slice());
    if (!speech && !this.speaking && kept.length > LEAD_IN_STEPS) kept.shift();
  }

  /**
   * The first utterance decoded again from its kept audio, with the cepstral mean its first pass left: its words,
   * and the decoder's clock moved on by the audio decoded again, which later utterances' frames leave out.
   */
  private secondPass(audio: readonly Int16Array[]): string {
    const before = this.decoder.frameClock;
    this.decoder.startUtterance();
    for (const step of audio) this.decoder.process(step);
    this.decoder.endUtterance();
    this.replayedFrames += this.decoder.frameClock - before;
    return this.decoder
      .words()
      .map((word) => word.word)
      .join(' ');
  }

  private conclude(reopen: boolean): void {
    this.decoder.endUtterance();
    const first = this.firstUtterance;
    this.firstUtterance = null;
    let segment = this.toSegment(this.decoder.words());
    // The second pass gives the words (unless it heard none); the first, on the stream's clock, the times.
    if (first !== null && segment !== null) {
      const text = this.secondPass(first);
      if (text !== '') segment = { ...segment, text };
    }
    this.speaking = false;
    this.samplesSincePartial = 0;
    this.utteranceSamples = 0;
    if (segment) {
      this.lastConcludedEndMs = segment.endMs;
      this.events.concluded(segment);
    } else if (this.lastTentative !== '') {
      this.events.tentative(null);
    }
    this.lastTentative = '';
    if (reopen) this.decoder.startUtterance();
  }

  private toSegment(words: DecodedWord[]): WorkerSegment | null {
    if (words.length === 0) return null;
    const base = this.baseFrame + this.replayedFrames;
    const startMs = Math.max(this.lastConcludedEndMs, (words[0].startFrame - base) * FRAME_MS);
    const endMs = Math.max(startMs, (words[words.length - 1].endFrame + 1 - base) * FRAME_MS);
    return { text: words.map((word) => word.word).join(' '), startMs, endMs };
  }
}
