import type { CustomVocabulary } from '../../engines/speech-recognizer';
import type { VoiceGender } from '../../engines/speech-synthesizer';
import type { Formality } from '../../engines/translator';
import { resolveSourceFormat } from '../media/source-formats';
import { resolveTargetFormat } from '../media/target-formats';
import { dictionaryLanguageOf, type GlossaryDictionary, type GlossaryEntry } from '../glossary/glossary';
import type { MessageFormat } from '../protocol/message-codec';
import { API_TARGET_LANGUAGES, canonicalLanguage } from './languages';
import type { SessionConfig } from './session-config';

/**
 * The body of `POST /v3/voice/realtime` once its form is checked (the HTTP layer's `SessionRequestDto` does that):
 * known fields only, enumerations within their values, media types this server reads or writes, language tags that
 * are tags, lists within their sizes. Absent fields (undefined or null) take the documented defaults.
 */
export interface SessionRequest {
  readonly message_format?: MessageFormat | null;
  readonly source_media_content_type: string;
  readonly source_language?: string | null;
  readonly source_language_mode?: SourceLanguageMode | null;
  readonly target_languages?: readonly string[] | null;
  readonly target_media_languages?: readonly string[] | null;
  readonly target_media_content_type?: string | null;
  readonly target_media_voice?: VoiceGender | null;
  readonly formality?: Formality | null;
  readonly glossary_id?: string | null;
  readonly spoken_terms_id?: string | null;
}

/**
 * What the request's ids name, looked up for the requesting API key by the caller (the resource): the glossary's
 * dictionaries. Kept with the request, so the session runs with them as they were when it was requested.
 */
export interface SessionResources {
  readonly glossary?: readonly GlossaryDictionary[];
  /** The term lists of the request's spoken_terms_id, each with its vocabulary for the recogniser when it hears the list's language. */
  readonly spokenTerms?: ReadonlyArray<{
    readonly lang: string;
    readonly terms: readonly string[];
    readonly vocabulary?: CustomVocabulary;
  }>;
}

export type SourceLanguageMode = 'auto' | 'fixed';

/** What the installed engines can do; the request is checked against it. */
export interface VoiceCapabilities {
  readonly sourceLanguages: readonly string[];
  /** Translation targets per source language. */
  targetsFor(source: string): readonly string[];
  /** Languages the synthesizer can speak. */
  readonly mediaLanguages: readonly string[];
}

/** A refused session request: the `{message, code}` body of a 400 answer. */
export interface SessionRequestError {
  readonly message: string;
  readonly code: string;
}

export type SessionRequestResult = { readonly config: SessionConfig } | { readonly error: SessionRequestError };

export const MAX_TARGET_LANGUAGES = 5;
export const MAX_TARGET_MEDIA_LANGUAGES = 1;
export const MESSAGE_FORMATS: readonly MessageFormat[] = ['json', 'msgpack'];
export const SOURCE_LANGUAGE_MODES: readonly SourceLanguageMode[] = ['auto', 'fixed'];
export const FORMALITIES: readonly Formality[] = ['default', 'formal', 'more', 'informal', 'less'];
export const VOICES: readonly VoiceGender[] = ['male', 'female'];

function refuse(code: string, message: string): SessionRequestResult {
  return { error: { code, message } };
}

/**
 * What this server makes of a checked session request: the defaults filled in, tags canonical, duplicates merged,
 * and the rules that depend on the installed engines (a recognisable source language, translatable targets, a voice
 * for the spoken one), plus the total of at most 5 targets with the spoken one. Returns the config, or the first
 * problem as `{message, code}`.
 */
export function sessionConfigOf(
  request: SessionRequest,
  capabilities: VoiceCapabilities,
  resources: SessionResources = {},
): SessionRequestResult {
  const source = resolveSourceFormat(request.source_media_content_type);
  if ('error' in source) return refuse('invalid_content_type', source.error);
  const mode = request.source_language_mode ?? 'auto';
  const sourceLanguage = recognisedLanguage(request.source_language, capabilities);
  if (typeof sourceLanguage !== 'string') return sourceLanguage;

  const targets = canonicalList(request.target_languages);
  const media = canonicalList(request.target_media_languages);
  const reachable = capabilities.targetsFor(sourceLanguage);
  for (const language of [...targets, ...media]) {
    if (!(API_TARGET_LANGUAGES as readonly string[]).includes(language) && !reachable.includes(language)) {
      return refuse('invalid_target_language', `"${language}" is not a target language of this API`);
    }
    if (!reachable.includes(language)) {
      return refuse(
        'unsupported_target_language',
        `Target language "${language}" is not supported by this server's offline translator; supported: ${reachable.join(', ')}`,
      );
    }
  }
  for (const language of media) {
    if (!capabilities.mediaLanguages.includes(language)) {
      const spoken = capabilities.mediaLanguages.filter((candidate) => reachable.includes(candidate));
      return refuse(
        'unsupported_target_media_language',
        `No voice for "${language}" on this server; spoken languages: ${spoken.join(', ')}`,
      );
    }
  }
  const allTargets = [...new Set([...targets, ...media])];
  if (allTargets.length > MAX_TARGET_LANGUAGES) {
    return refuse(
      'too_many_target_languages',
      `At most ${MAX_TARGET_LANGUAGES} target languages, target_media_languages included (got ${allTargets.length})`,
    );
  }
  const target = resolveTargetFormat(request.target_media_content_type);
  if ('error' in target) return refuse('invalid_content_type', target.error);
  const glossaries = glossariesFor(request.glossary_id, resources.glossary, sourceLanguage, allTargets);
  if ('error' in glossaries) return glossaries;
  const spokenTerms = spokenTermsFor(request.spoken_terms_id, resources.spokenTerms, sourceLanguage);
  if ('error' in spokenTerms) return spokenTerms;

  return {
    config: {
      messageFormat: request.message_format ?? 'json',
      source: source.format,
      sourceLanguage,
      sourceLanguageMode: mode,
      targetLanguages: allTargets,
      targetMediaLanguages: media,
      targetMedia: target.format,
      targetMediaVoice: request.target_media_voice ?? undefined,
      formality: request.formality ?? 'default',
      glossaries: glossaries.byTarget,
      spokenTerms: spokenTerms.list,
    },
  };
}

/** The term list of the source language, with its vocabulary. */
function spokenTermsFor(
  id: string | null | undefined,
  lists: SessionResources['spokenTerms'],
  source: string,
): { list: SessionConfig['spokenTerms'] } | { error: SessionRequestError } {
  if (isBlank(id)) return { list: undefined };
  if (!lists)
    return { error: { code: 'spoken_terms_not_found', message: `Spoken Terms collection "${id}" not found` } };
  const list = lists.find((candidate) => candidate.lang === source);
  if (!list?.vocabulary)
    return {
      error: {
        code: 'spoken_terms_language_mismatch',
        message: `Spoken Terms collection "${id}" has no term list for the source language (${source})`,
      },
    };
  return { list: { terms: list.terms, vocabulary: list.vocabulary } };
}

/** Each target's glossary entries: the dictionary from the source language to the target's base language. */
function glossariesFor(
  id: string | null | undefined,
  dictionaries: readonly GlossaryDictionary[] | undefined,
  source: string,
  targets: readonly string[],
): { byTarget: ReadonlyMap<string, readonly GlossaryEntry[]> } | { error: SessionRequestError } {
  const byTarget = new Map<string, readonly GlossaryEntry[]>();
  if (isBlank(id)) return { byTarget };
  if (!dictionaries) return { error: { code: 'glossary_not_found', message: `Glossary "${id}" not found` } };
  for (const target of targets) {
    const dictionary = dictionaries.find(
      (d) => d.sourceLang === dictionaryLanguageOf(source) && d.targetLang === dictionaryLanguageOf(target),
    );
    if (dictionary) byTarget.set(target, dictionary.entries);
  }
  if (byTarget.size === 0) {
    const pairs = targets.map((target) => `${dictionaryLanguageOf(source)}-${dictionaryLanguageOf(target)}`);
    return {
      error: {
        code: 'glossary_language_mismatch',
        message:
          targets.length === 0
            ? 'glossary_id needs target_languages: a glossary applies to translations'
            : `Glossary "${id}" has no dictionary for the session's language pairs (${[...new Set(pairs)].join(', ')})`,
      },
    };
  }
  return { byTarget };
}

/** The source language the recogniser hears: the one asked for, if it is installed; none asked for: the only one there is. */
function recognisedLanguage(
  value: string | null | undefined,
  capabilities: VoiceCapabilities,
): string | { error: SessionRequestError } {
  const supported = capabilities.sourceLanguages;
  // No detection offline: without a language (mode "auto"), the only recognised language is assumed.
  if (isBlank(value)) return supported[0];
  const language = canonicalLanguage(value);
  if (language === undefined)
    return {
      error: {
        code: 'invalid_source_language',
        message: `source_language ${describeValue(value)} is not a source language of this API`,
      },
    };
  if (!supported.includes(language)) {
    return {
      error: {
        code: 'unsupported_source_language',
        message: `Source language "${language}" is not supported by this server's offline recogniser; supported: ${supported.join(', ')}`,
      },
    };
  }
  return language;
}

/** Canonical tags in request order, duplicates merged (entries that are no tag are left out: the request's check refuses them). */
function canonicalList(value: readonly string[] | null | undefined): string[] {
  const languages: string[] = [];
  for (const entry of value ?? []) {
    const language = canonicalLanguage(entry);
    if (language !== undefined && !languages.includes(language)) languages.push(language);
  }
  return languages;
}

/** Absent, null or the empty string: a field left out. */
export function isBlank(value: unknown): value is undefined | null | '' {
  return value === undefined || value === null || value === '';
}

/**
 * A client's value as an error message shows it: strings quoted and cut at 40 characters, lists and objects named,
 * never serialised whole (a list nested 5,000 deep overflowed JSON.stringify's stack: a 500 found by the hostile corpus).
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}
