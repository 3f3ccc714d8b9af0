import { type Context, context, type Span, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { RecognizedSegment } from '../../engines/speech-recognizer';
import type { ErrorPayload } from '../protocol/messages';
import type { SessionConfig } from './session-config';

/**
 * The spans of one stream, made only when telemetry is on (a session without a tracer has no SessionTrace):
 *
 * - `voice.session`: the stream, from its connection to its end (`voice.session.outcome`: completed, failed,
 *   disconnected; status ERROR with the error's message when failed);
 * - `voice.recognition`, under it, one per concluded source segment: from the first audio after the previous segment
 *   to the segment's conclusion (`voice.segment.index`, `voice.segment.start_ms`/`end_ms` on the audio's timeline);
 * - `voice.translation`, under the recognition of its segment, one per target language: from the segment's
 *   conclusion to its translation (`voice.target.language`).
 */
export class SessionTrace {
  private readonly span: Span;
  private readonly context: Context;
  /** When the audio of the current segment began (ms since the epoch), undefined until audio comes. */
  private segmentStart: number | undefined;
  private segments = 0;
  /** The recognition span of the segment being concluded, while its translations start. */
  private recognition: Context | undefined;

  constructor(
    private readonly tracer: Tracer,
    private readonly config: SessionConfig,
  ) {
    this.span = tracer.startSpan('voice.session', {
      attributes: {
        'voice.source.language': config.sourceLanguage,
        'voice.target.languages': [...config.targetLanguages],
        'voice.target_media.languages': [...config.targetMediaLanguages],
        'voice.message_format': config.messageFormat,
      },
    });
    this.context = trace.setSpan(context.active(), this.span);
  }

  /** Audio reached the recogniser. */
  heard(): void {
    this.segmentStart ??= Date.now();
  }

  /** A source segment was concluded: its recognition span starts (its translations start under it, until `recognized`). */
  concluding(segment: RecognizedSegment): void {
    const index = this.segments++;
    const span = this.tracer.startSpan(
      'voice.recognition',
      {
        startTime: this.segmentStart ?? Date.now(),
        attributes: {
          'voice.source.language': this.config.sourceLanguage,
          'voice.segment.index': index,
          'voice.segment.start_ms': segment.startMs,
          'voice.segment.end_ms': segment.endMs,
        },
      },
      this.context,
    );
    this.segmentStart = undefined;
    this.recognition = trace.setSpan(this.context, span);
  }

  /** The concluded segment was sent and handed to the translators. */
  recognized(): void {
    if (this.recognition !== undefined) trace.getSpan(this.recognition)?.end();
    this.recognition = undefined;
  }

  /** A translation of the segment being concluded starts: returns what ends its span. */
  translating(language: string): (error?: unknown) => void {
    const span = this.tracer.startSpan(
      'voice.translation',
      {
        attributes: {
          'voice.source.language': this.config.sourceLanguage,
          'voice.target.language': language,
          'voice.segment.index': this.segments - 1,
        },
      },
      this.recognition ?? this.context,
    );
    return (error) => {
      if (error !== undefined) {
        if (error instanceof Error) span.recordException(error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      }
      span.end();
    };
  }

  /** The session ended. */
  end(outcome: string, error: ErrorPayload | undefined): void {
    this.recognized();
    this.span.setAttribute('voice.session.outcome', outcome);
    this.span.setAttribute('voice.segments', this.segments);
    if (error !== undefined) this.span.setStatus({ code: SpanStatusCode.ERROR, message: error.error_message });
    this.span.end();
  }
}
