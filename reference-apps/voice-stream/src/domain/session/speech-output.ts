import type { MediaUnit } from '../../engines/containers/media-unit';
import type { AudioEncoder, AudioEncoderFactory } from '../../engines/audio-encoder';
import type { SpeechSynthesizer, VoiceGender } from '../../engines/speech-synthesizer';
import type { TargetAudioFormat } from '../media/target-formats';
import type { ServerMessage, TargetSegment } from '../protocol/messages';
import { SessionError } from '../protocol/protocol-violation';
import { Reasons } from '../protocol/reason-codes';

export interface SpeechOutputEvents {
  emit(message: ServerMessage): void;
  fail(error: SessionError): void;
}

/** A spoken segment on the encoder's input timeline. */
interface SpokenSegment {
  readonly text: string;
  readonly startMs: number;
  readonly endMs: number;
  textSent: boolean;
}

/**
 * The translated speech of the session's media language: each concluded target segment is synthesized,
 * appended (speech only) to one long-running encoder, and the encoder's units are sent as
 * `target_media_chunk`s. A unit belongs to the segment its midpoint falls in; a message never mixes
 * segments, carries `text` only when it starts a segment (the field is left out otherwise: DeepL's schema types it
 * as a string, never null), and `content_type` + `headers` only the first time.
 */
export class SpeechOutput {
  private chain: Promise<void> = Promise.resolve();
  private encoder: AudioEncoder | undefined;
  private inputRate = 0;
  private inputSamples = 0;
  private readonly segments: SpokenSegment[] = [];
  private segmentCursor = 0;
  private headerUnits: Buffer[] = [];
  private firstChunkSent = false;
  private emittedMs = 0;
  private closed = false;

  constructor(
    readonly language: string,
    private readonly format: TargetAudioFormat,
    private readonly voice: VoiceGender | undefined,
    private readonly synthesizer: SpeechSynthesizer,
    private readonly encoders: AudioEncoderFactory,
    private readonly events: SpeechOutputEvents,
  ) {}

  /** Speaks a concluded target segment (text exactly as emitted in the transcript). */
  speak(segment: TargetSegment): void {
    this.chain = this.chain
      .then(async () => {
        if (this.closed) return;
        const speech = await this.synthesizer.synthesize(segment.text.trim(), this.language, this.voice);
        if (this.closed) return;
        if (!this.encoder) {
          this.inputRate = speech.sampleRate;
          this.encoder = this.encoders.create(this.format, speech.sampleRate, {
            onUnits: (units) => this.onUnits(units),
            onError: (error) => this.failWith(error),
          });
        } else if (speech.sampleRate !== this.inputRate) {
          throw new Error(`synthesizer changed its sample rate from ${this.inputRate} to ${speech.sampleRate} Hz`);
        }
        const startMs = (this.inputSamples / this.inputRate) * 1000;
        this.inputSamples += speech.pcm.length / 2;
        this.segments.push({
          text: segment.text,
          startMs,
          endMs: (this.inputSamples / this.inputRate) * 1000,
          textSent: false,
        });
        if (speech.pcm.length > 0) this.encoder.write(speech.pcm);
      })
      .catch((error: unknown) => this.failWith(error as Error));
  }

  /** After the last segment: flushes the encoder and sends what is left. */
  async finish(): Promise<void> {
    await this.chain;
    if (this.closed) return;
    if (this.encoder) await this.encoder.end();
    if (this.closed) return;
    // Segments that produced no audio unit still owe their text (the texts must add up to the transcript).
    const unsent = this.takeUnsentTexts(this.segments.length - 1);
    if (unsent !== null) this.send([], 0, unsent);
  }

  close(): void {
    this.closed = true;
    this.encoder?.close();
  }

  private onUnits(units: MediaUnit[]): void {
    if (this.closed) return;
    let group: MediaUnit[] = [];
    let groupSegment = -1;
    const flush = () => {
      if (group.length === 0) return;
      const startsSegment = !this.segments[groupSegment].textSent;
      const text = startsSegment ? this.takeUnsentTexts(groupSegment) : null;
      const duration = group.reduce((sum, unit) => sum + unit.durationMs, 0);
      this.send(
        group.map((unit) => unit.data),
        duration,
        text,
      );
      group = [];
    };
    for (const unit of units) {
      if (unit.header) {
        this.headerUnits.push(unit.data);
        continue;
      }
      const segment = this.segmentOf(unit);
      if (segment !== groupSegment) {
        flush();
        groupSegment = segment;
      }
      group.push(unit);
    }
    flush();
  }

  /** Index of the segment holding the unit's midpoint (units arrive in time order). */
  private segmentOf(unit: MediaUnit): number {
    const middle = unit.startMs + unit.durationMs / 2;
    while (this.segmentCursor < this.segments.length - 1 && middle >= this.segments[this.segmentCursor].endMs)
      this.segmentCursor += 1;
    return this.segmentCursor;
  }

  /** Texts of all segments up to `index` not sent yet, concatenated; null when none. */
  private takeUnsentTexts(index: number): string | null {
    let text = '';
    let any = false;
    for (let position = 0; position <= index; position += 1) {
      const segment = this.segments[position];
      if (segment.textSent) continue;
      segment.textSent = true;
      text += segment.text;
      any = true;
    }
    return any ? text : null;
  }

  private send(data: Buffer[], durationMs: number, text: string | null): void {
    // Rounded on the running total so the integer durations add up to the real length.
    const duration = Math.round(this.emittedMs + durationMs) - Math.round(this.emittedMs);
    this.emittedMs += durationMs;
    const segmentText = text === null ? {} : { text };
    if (!this.firstChunkSent) {
      this.firstChunkSent = true;
      const headers = this.headerUnits;
      this.headerUnits = [];
      this.events.emit({
        target_media_chunk: {
          language: this.language,
          content_type: this.format.contentType,
          headers: headers.length,
          data: [...headers, ...data],
          duration,
          ...segmentText,
        },
      });
      return;
    }
    this.events.emit({ target_media_chunk: { language: this.language, data, duration, ...segmentText } });
  }

  private failWith(error: Error): void {
    if (this.closed) return;
    this.close();
    this.events.fail(
      new SessionError(
        Reasons.synthesisFailed,
        'source_media_chunk',
        `Speech output for ${this.language} failed: ${error.message}`,
      ),
    );
  }
}
