import { FRAME_MS, type DecodedWord } from './pocketsphinx-library';
import type { WorkerSegment } from './worker-protocol';

/** What the tracker needs from a decoder (the PocketSphinx binding, or a fake in tests). */
export interface UtteranceDecoder {
  readonly frameClock: number;
  readonly inSpeech: boolean;
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
/** Utterances are cut here even without a pause, so hypotheses stay fast and captions keep flowing. */
const MAX_UTTERANCE_SAMPLES = 15 * 16000;
/** Audio is fed in 100 ms steps so the end of speech is noticed within 100 ms. */
const STEP_SAMPLES = 1600;

/**
 * Streams one session through a decoder: partial hypotheses become tentative segments, the end of an
 * utterance (voice activity detector falls silent) a concluded one. Times are milliseconds from the
 * session's first sample, taken from the decoder's word frames.
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

  constructor(
    private readonly decoder: UtteranceDecoder,
    private readonly events: UtteranceEvents,
  ) {
    this.baseFrame = decoder.frameClock;
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
      this.utteranceSamples += step.length;
      const speech = this.decoder.inSpeech;
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

  private conclude(reopen: boolean): void {
    this.decoder.endUtterance();
    const segment = this.toSegment(this.decoder.words());
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
    const startMs = Math.max(this.lastConcludedEndMs, (words[0].startFrame - this.baseFrame) * FRAME_MS);
    const endMs = Math.max(startMs, (words[words.length - 1].endFrame + 1 - this.baseFrame) * FRAME_MS);
    return { text: words.map((word) => word.word).join(' '), startMs, endMs };
  }
}
