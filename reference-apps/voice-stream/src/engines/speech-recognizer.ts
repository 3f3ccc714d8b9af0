/** A piece of recognised speech, timed in milliseconds from the start of the audio stream. */
export interface RecognizedSegment {
  readonly text: string;
  readonly startMs: number;
  readonly endMs: number;
}

export interface RecognitionListener {
  /** The running (not yet final) hypothesis of the current utterance; `undefined` clears it. */
  onTentative(segment: RecognizedSegment | undefined): void;
  /** An utterance ended: its final text. Concluded segments arrive in time order and never overlap. */
  onConcluded(segment: RecognizedSegment): void;
  onError(error: Error): void;
}

/** One session's recognition: PCM in, tentative and concluded segments out. */
export interface RecognitionStream {
  /** PCM s16le mono at the recogniser's `sampleRate`; any length (odd trailing bytes are kept). */
  write(pcm: Buffer): void;
  /** End of audio: resolves after the last concluded segment was reported. */
  end(): Promise<void>;
  close(): void;
  /**
   * Optional flow control: resolves once the audio written so far has been recognised. A producer faster than the
   * recogniser (a file read from disk) waits on it so that audio never piles up in memory.
   */
  drained?(): Promise<void>;
}

/**
 * Words a session adds to the recogniser (its spoken terms): each with its pronunciations in the recogniser's phone
 * set, and the terms as word sequences (a term of several words is likelier as a whole). Plain data: it travels
 * with a session to the instance that runs its stream.
 */
export interface CustomVocabulary {
  readonly words: ReadonlyArray<{ readonly word: string; readonly pronunciations: readonly string[] }>;
  readonly phrases: ReadonlyArray<readonly string[]>;
}

/** What the session knows about its audio, so the recogniser can pick a fitting acoustic set-up. */
export interface RecognitionOptions {
  /** Sample rate of the client's audio before resampling, when the format declares it (PCM, G.711). */
  readonly sourceSampleRate?: number;
  /** The session's own words (spoken terms), made by `prepareVocabulary`. */
  readonly vocabulary?: CustomVocabulary;
}

/**
 * Streaming speech recognition. Implement this (and register it in `createOfflineEngines` or pass your own
 * `VoiceEngines`) to plug a stronger engine.
 */
export interface SpeechRecognizer {
  /** Input sample rate in Hz. */
  readonly sampleRate: number;
  /** BCP 47 source languages this recogniser understands. */
  readonly languages: readonly string[];
  start(listener: RecognitionListener, options?: RecognitionOptions): RecognitionStream;
  /**
   * Optional: the vocabulary of spoken terms in `language` (pronunciations worked out offline), and the words it
   * found no pronunciation for. A recogniser without it cannot take spoken terms.
   */
  prepareVocabulary?(
    language: string,
    terms: readonly string[],
  ): Promise<{ vocabulary: CustomVocabulary; unpronounceable: string[] }>;
}
