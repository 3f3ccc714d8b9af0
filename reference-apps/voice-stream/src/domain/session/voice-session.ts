import { AudioDecodeError, type AudioDecoder } from '../../engines/audio-decoder';
import type { RecognitionStream, RecognizedSegment } from '../../engines/speech-recognizer';
import type { VoiceEngines } from '../../engines/voice-engines';
import { MessageCodec } from '../protocol/message-codec';
import { messageKind, type ClientMessage, type ErrorPayload, type ServerMessage } from '../protocol/messages';
import { SessionError } from '../protocol/protocol-violation';
import { Reasons } from '../protocol/reason-codes';
import { ChunkPolicy } from './chunk-policy';
import { MessageRateLimit } from './message-rate-limit';
import { realScheduler, type Scheduler } from './scheduler';
import type { SessionConfig } from './session-config';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './session-limits';
import type { Tracer } from '@opentelemetry/api';
import { SessionTrace } from './session-trace';
import { SpeechOutput } from './speech-output';
import { TargetTranscript } from './target-transcript';
import { spellTerms } from '../spoken-terms/spoken-terms';
import { joinable, toSentence } from './transcript-text';

/** Where a session's messages go (the WebSocket, or a test). */
export interface SessionOutput {
  send(message: ServerMessage): void;
  /** The session is over (after end_of_stream, or after `error` which is passed): close the connection. */
  close(error?: ErrorPayload): void;
}

/** How a session ended: the stream completed, an error was sent, or the client went away. */
export type SessionOutcome = 'completed' | 'failed' | 'disconnected';

export interface VoiceSessionOptions {
  readonly limits?: Partial<SessionLimits>;
  readonly scheduler?: Scheduler;
  /** With telemetry on: the session's spans (session-trace.ts). Without, none are made. */
  readonly tracer?: Tracer;
}

export type VoiceSessionState = 'streaming' | 'finishing' | 'ended';

/**
 * One stream: takes decoded client messages, runs decoder -> recogniser -> translators -> synthesizer ->
 * encoder, and emits the server messages in the spec's order, enforcing every limit. Transport-independent.
 */
export class VoiceSession {
  readonly codec: MessageCodec;
  private stateValue: VoiceSessionState = 'streaming';
  private outcomeValue: SessionOutcome | undefined;
  private readonly limits: SessionLimits;
  private readonly scheduler: Scheduler;
  private readonly policy: ChunkPolicy;
  private readonly rate: MessageRateLimit;
  /** Decoder and recogniser: started by the first audio chunk, so a connected session that sends none holds neither. */
  private audio: { readonly decoder: AudioDecoder; readonly recognition: RecognitionStream } | undefined;
  private readonly targets: TargetTranscript[];
  private readonly speech: SpeechOutput[];
  private readonly trace: SessionTrace | undefined;
  private sourceConcluded = 0;
  private sourceTentativeShown = false;
  private cancelIdle: (() => void) | undefined;
  private readonly cancelLifetime: () => void;
  private resolveDone!: () => void;
  /** Resolves when the session has ended, for any reason. */
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(
    readonly config: SessionConfig,
    private readonly engines: VoiceEngines,
    private readonly output: SessionOutput,
    options: VoiceSessionOptions = {},
  ) {
    this.limits = { ...DEFAULT_SESSION_LIMITS, ...options.limits };
    this.scheduler = options.scheduler ?? realScheduler;
    this.codec = new MessageCodec(config.messageFormat);
    this.policy = new ChunkPolicy(config.source, this.limits, this.scheduler);
    this.rate = new MessageRateLimit(this.limits.maxMessagesPerSecond, this.scheduler);
    const trace = options.tracer === undefined ? undefined : new SessionTrace(options.tracer, config);
    this.trace = trace;
    const emitter = {
      emit: (message: ServerMessage) => this.emit(message),
      fail: (error: SessionError) => this.fail(error),
    };
    this.speech = config.targetMediaLanguages.map(
      (language) =>
        new SpeechOutput(
          language,
          config.targetMedia,
          config.targetMediaVoice,
          engines.synthesizer,
          engines.encoder,
          emitter,
        ),
    );
    this.targets = config.targetLanguages.map(
      (language) =>
        new TargetTranscript(
          language,
          config.sourceLanguage,
          engines.translator,
          config.formality,
          this.limits.tentativeTranslationIntervalMs,
          this.scheduler,
          {
            ...emitter,
            concluded: (spokenLanguage, segment) =>
              this.speech.find((output) => output.language === spokenLanguage)?.speak(segment),
            translating: trace === undefined ? undefined : (targetLanguage) => trace.translating(targetLanguage),
          },
          config.glossaries.get(language),
        ),
    );
    this.restartIdleTimer();
    this.cancelLifetime = this.scheduler.schedule(this.limits.maxConnectionMs, () =>
      this.fail(
        new SessionError(
          Reasons.connectionTimeLimit,
          this.stateValue === 'streaming' ? 'source_media_chunk' : 'end_of_source_media',
          `The connection reached its maximum duration of ${Math.round(this.limits.maxConnectionMs / 60000)} minutes; request a new session`,
        ),
      ),
    );
  }

  /** Whether this session holds a decoder and recogniser yet (only after its first audio chunk). */
  get hearing(): boolean {
    return this.audio !== undefined;
  }

  get state(): VoiceSessionState {
    return this.stateValue;
  }

  /** Set once the session has ended. */
  get outcome(): SessionOutcome | undefined {
    return this.outcomeValue;
  }

  /** A method, not a property: TypeScript would keep a narrowed property across `await`. */
  private isEnded(): boolean {
    return this.stateValue === 'ended';
  }

  /** A raw WebSocket frame: decoded with the session's codec (errors end the session). */
  receiveFrame(frame: Buffer | ArrayBuffer | string, binary: boolean): void {
    if (this.stateValue === 'ended') return;
    let message: ClientMessage;
    try {
      this.rate.admit();
      message = this.codec.decode(frame, binary);
    } catch (error) {
      this.fail(asSessionError(error));
      return;
    }
    this.receive(message);
  }

  /** A decoded client message. */
  receive(message: ClientMessage): void {
    if (this.stateValue === 'ended') return;
    const kind = messageKind(message);
    if (this.stateValue === 'finishing') {
      this.fail(new SessionError(Reasons.messageAfterEnd, kind, `No ${kind} may follow end_of_source_media`));
      return;
    }
    if ('source_media_chunk' in message) {
      const data = message.source_media_chunk.data;
      try {
        this.policy.admit(data.length);
      } catch (error) {
        this.fail(asSessionError(error));
        return;
      }
      this.restartIdleTimer();
      (this.audio ??= this.startHearing()).decoder.write(data);
      return;
    }
    this.stateValue = 'finishing';
    this.cancelIdle?.();
    void this.finish();
  }

  /** The client went away: stop everything without sending. */
  disconnect(): void {
    if (this.stateValue === 'ended') return;
    this.end('disconnected');
  }

  /**
   * The recogniser's decoder (tens of MB, a worker thread) and the audio decoder (an ffmpeg process for most
   * formats) exist only for sessions that send audio: connections that never do cost a few kB.
   */
  private startHearing(): { decoder: AudioDecoder; recognition: RecognitionStream } {
    const engines = this.engines;
    const recognition = engines.recognizer.start(
      {
        onTentative: (segment) => this.onTentative(segment),
        onConcluded: (segment) => this.onConcluded(segment),
        onError: (error) => this.fail(new SessionError(Reasons.recognitionFailed, 'source_media_chunk', error.message)),
      },
      { sourceSampleRate: this.config.source.pcm?.sampleRate, vocabulary: this.config.spokenTerms?.vocabulary },
    );
    const decoder = engines.decoder.create(this.config.source, engines.recognizer.sampleRate, {
      onPcm: (pcm) => this.onPcm(pcm, recognition),
      onError: (error) =>
        this.fail(
          error instanceof AudioDecodeError
            ? new SessionError(
                Reasons.unsupportedAudioFormat,
                'source_media_chunk',
                `Audio format not supported: ${error.message}`,
              )
            : new SessionError(
                Reasons.decoderFailed,
                'source_media_chunk',
                `Decoding the source audio failed on the server: ${error.message}`,
              ),
        ),
    });
    return { decoder, recognition };
  }

  private onPcm(pcm: Buffer, recognition: RecognitionStream): void {
    if (this.stateValue === 'ended') return;
    try {
      this.policy.recordDecoded((pcm.length / 2 / this.engines.recognizer.sampleRate) * 1000);
    } catch (error) {
      this.fail(asSessionError(error));
      return;
    }
    this.trace?.heard();
    recognition.write(pcm);
  }

  private onTentative(segment: RecognizedSegment | undefined): void {
    if (this.stateValue === 'ended') return;
    const sentence = segment && { ...segment, text: toSentence(this.spelled(segment.text), false) };
    if (!sentence?.text && !this.sourceTentativeShown) return;
    this.sourceTentativeShown = Boolean(sentence?.text);
    this.emit({
      source_transcript_update: {
        concluded: [],
        tentative: sentence?.text ? [this.sourceSegment(sentence.text, sentence)] : [],
      },
    });
    for (const target of this.targets) target.tentative(sentence?.text ? sentence : undefined);
  }

  private onConcluded(segment: RecognizedSegment): void {
    if (this.stateValue === 'ended') return;
    const sentence = { ...segment, text: toSentence(this.spelled(segment.text), true) };
    if (sentence.text === '') return;
    this.trace?.concluding(sentence);
    this.emit({
      source_transcript_update: { concluded: [this.sourceSegment(sentence.text, sentence)], tentative: [] },
    });
    this.sourceConcluded += 1;
    this.sourceTentativeShown = false;
    for (const target of this.targets) target.concluded(sentence);
    this.trace?.recognized();
  }

  /** Recognised words with the session's spoken terms written as their list writes them. */
  private spelled(text: string): string {
    const terms = this.config.spokenTerms?.terms;
    return terms ? spellTerms(text, terms) : text;
  }

  private sourceSegment(text: string, segment: RecognizedSegment) {
    return {
      text: joinable(text, this.sourceConcluded === 0),
      start_time: segment.startMs,
      end_time: segment.endMs,
      language: this.config.sourceLanguage,
    };
  }

  /** end_of_source_media: flush every stage, then the end_of_* sequence and end_of_stream. */
  private async finish(): Promise<void> {
    try {
      if (this.audio) {
        await this.audio.decoder.end();
        await this.audio.recognition.end();
      }
      await Promise.all(this.targets.map((target) => target.drained()));
      if (this.isEnded()) return;
      this.emit({ end_of_source_transcript: {} });
      for (const target of this.targets) this.emit({ end_of_target_transcript: { language: target.language } });
      for (const output of this.speech) {
        await output.finish();
        if (this.isEnded()) return;
        this.emit({ end_of_target_media: { language: output.language } });
      }
      this.emit({ end_of_stream: {} });
      this.end('completed');
    } catch (error) {
      // Stage failures were reported through their listeners already; anything else is ours.
      if (!this.isEnded()) {
        this.fail(
          new SessionError(
            Reasons.recognitionFailed,
            'end_of_source_media',
            `Finishing the stream failed: ${(error as Error).message}`,
          ),
        );
      }
    }
  }

  private restartIdleTimer(): void {
    this.cancelIdle?.();
    this.cancelIdle = this.scheduler.schedule(this.limits.idleTimeoutMs, () =>
      this.fail(
        new SessionError(
          Reasons.noAudioTimeout,
          'source_media_chunk',
          `No audio received for ${Math.round(this.limits.idleTimeoutMs / 1000)} s; the session timed out`,
        ),
      ),
    );
  }

  private emit(message: ServerMessage): void {
    if (this.stateValue !== 'ended') this.output.send(message);
  }

  private fail(error: SessionError): void {
    if (this.stateValue === 'ended') return;
    const payload = error.toPayload();
    this.output.send({ error: payload });
    this.end('failed', payload);
  }

  private end(outcome: SessionOutcome, error?: ErrorPayload): void {
    this.stateValue = 'ended';
    this.outcomeValue = outcome;
    this.cancelIdle?.();
    this.cancelLifetime();
    this.audio?.decoder.close();
    this.audio?.recognition.close();
    for (const target of this.targets) target.close();
    for (const output of this.speech) output.close();
    if (outcome !== 'disconnected') this.output.close(error);
    this.trace?.end(outcome, error);
    this.resolveDone();
  }
}

function asSessionError(error: unknown): SessionError {
  if (error instanceof SessionError) return error;
  return new SessionError(Reasons.invalidMessage, 'unknown', (error as Error).message);
}
