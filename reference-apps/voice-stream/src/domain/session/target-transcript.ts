import type { RecognizedSegment } from '../../engines/speech-recognizer';
import type { Formality, Translator } from '../../engines/translator';
import type { GlossaryEntry } from '../glossary/glossary';
import { translateWithGlossary } from '../glossary/term-protection';
import type { ServerMessage, TargetSegment } from '../protocol/messages';
import { SessionError } from '../protocol/protocol-violation';
import { Reasons } from '../protocol/reason-codes';
import type { Scheduler } from './scheduler';
import { joinable } from './transcript-text';

export interface TargetTranscriptEvents {
  emit(message: ServerMessage): void;
  fail(error: SessionError): void;
  /** A concluded target segment was emitted (its text exactly as sent). */
  concluded(language: string, segment: TargetSegment): void;
  /** With telemetry on: a concluded segment's translation starts; what it returns is called once it is done. */
  translating?: (language: string) => (error?: unknown) => void;
}

/**
 * One target language's transcript: every concluded source sentence is translated and emitted once, in
 * source order; the tentative source text is translated at most once per interval (leading and trailing
 * edge) and dropped if a concluded segment overtook it. With glossary entries, each of their source phrases comes out
 * as its target phrase.
 */
export class TargetTranscript {
  private chain: Promise<void> = Promise.resolve();
  private concludedCount = 0;
  private generation = 0;
  private latestTentative: RecognizedSegment | undefined;
  private tentativeShown = false;
  private lastTentativeRequestAt = Number.NEGATIVE_INFINITY;
  private cancelTimer: (() => void) | undefined;
  private closed = false;

  constructor(
    readonly language: string,
    private readonly sourceLanguage: string,
    private readonly translator: Translator,
    private readonly formality: Formality,
    private readonly intervalMs: number,
    private readonly scheduler: Scheduler,
    private readonly events: TargetTranscriptEvents,
    private readonly glossary: readonly GlossaryEntry[] = [],
  ) {
    translator.prepare?.(sourceLanguage, language);
  }

  /** A concluded source sentence (already in sentence form, without the joining space). */
  concluded(sentence: RecognizedSegment): void {
    this.generation += 1;
    this.stopTimer();
    this.latestTentative = undefined;
    const translation = this.translate(sentence.text);
    const translated = this.events.translating?.(this.language);
    if (translated !== undefined) translation.then(() => translated(), translated);
    this.enqueue(async () => {
      const text = await translation;
      if (this.closed || text === '') return;
      const segment: TargetSegment = {
        text: joinable(text, this.concludedCount === 0),
        start_time: sentence.startMs,
        end_time: sentence.endMs,
      };
      this.concludedCount += 1;
      this.tentativeShown = false;
      this.events.emit({ target_transcript_update: { language: this.language, concluded: [segment], tentative: [] } });
      this.events.concluded(this.language, segment);
    });
  }

  /** The running source hypothesis changed (undefined: it was withdrawn). */
  tentative(sentence: RecognizedSegment | undefined): void {
    this.latestTentative = sentence;
    if (!sentence) {
      this.stopTimer();
      const generation = this.generation;
      this.enqueue(async () => {
        if (generation !== this.generation || !this.tentativeShown || this.closed) return;
        this.tentativeShown = false;
        this.events.emit({ target_transcript_update: { language: this.language, concluded: [], tentative: [] } });
      });
      return;
    }
    if (this.cancelTimer) return; // the trailing edge will pick up the latest text
    const wait = this.lastTentativeRequestAt + this.intervalMs - this.scheduler.now();
    if (wait <= 0) this.requestTentative();
    else
      this.cancelTimer = this.scheduler.schedule(wait, () => {
        this.cancelTimer = undefined;
        this.requestTentative();
      });
  }

  /** Resolves once everything requested so far was emitted. */
  drained(): Promise<void> {
    this.stopTimer();
    return this.chain;
  }

  close(): void {
    this.closed = true;
    this.stopTimer();
  }

  private requestTentative(): void {
    const sentence = this.latestTentative;
    if (!sentence || this.closed) return;
    this.lastTentativeRequestAt = this.scheduler.now();
    const generation = this.generation;
    const translation = this.translate(sentence.text);
    this.enqueue(async () => {
      const text = await translation;
      if (generation !== this.generation || this.closed) return;
      this.tentativeShown = text !== '';
      const tentative =
        text === ''
          ? []
          : [
              {
                text: joinable(text, this.concludedCount === 0),
                start_time: sentence.startMs,
                end_time: sentence.endMs,
              },
            ];
      this.events.emit({ target_transcript_update: { language: this.language, concluded: [], tentative } });
    });
  }

  private translate(text: string): Promise<string> {
    const translation =
      this.glossary.length > 0
        ? translateWithGlossary(
            this.translator,
            text,
            this.sourceLanguage,
            this.language,
            this.formality,
            this.glossary,
          )
        : this.translator.translate(text, this.sourceLanguage, this.language, this.formality);
    translation.catch(() => undefined); // observed through the chain
    return translation;
  }

  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch((error: unknown) => {
      if (error instanceof SessionError) this.events.fail(error);
      else
        this.events.fail(
          new SessionError(
            Reasons.translationFailed,
            'source_media_chunk',
            `Translation to ${this.language} failed: ${(error as Error).message}`,
          ),
        );
      this.closed = true;
    });
  }

  private stopTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }
}
