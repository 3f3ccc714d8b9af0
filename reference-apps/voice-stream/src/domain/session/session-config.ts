import type { Formality } from '../../engines/translator';
import type { CustomVocabulary } from '../../engines/speech-recognizer';
import type { GlossaryEntry } from '../glossary/glossary';
import type { VoiceGender } from '../../engines/speech-synthesizer';
import type { SourceAudioFormat } from '../media/source-formats';
import type { TargetAudioFormat } from '../media/target-formats';
import type { MessageFormat } from '../protocol/message-codec';

/** A validated, normalised session request: everything a VoiceSession needs to run. */
export interface SessionConfig {
  readonly messageFormat: MessageFormat;
  readonly source: SourceAudioFormat;
  /** The language the recogniser hears, reported as `language` of source segments. */
  readonly sourceLanguage: string;
  readonly sourceLanguageMode: 'auto' | 'fixed';
  /** Transcript targets, canonical tags, media languages included, in request order without duplicates. */
  readonly targetLanguages: readonly string[];
  /** At most one language that is also spoken. */
  readonly targetMediaLanguages: readonly string[];
  readonly targetMedia: TargetAudioFormat;
  readonly targetMediaVoice: VoiceGender | undefined;
  readonly formality: Formality;
  /** The request's glossary: the entries that apply to each target (targets without a dictionary are absent). */
  readonly glossaries: ReadonlyMap<string, readonly GlossaryEntry[]>;
  /** The request's spoken terms in the source language: words the recogniser learns, spelled as the list writes them. */
  readonly spokenTerms: { readonly terms: readonly string[]; readonly vocabulary: CustomVocabulary } | undefined;
}
