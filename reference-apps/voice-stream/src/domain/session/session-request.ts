import type { VoiceGender } from '../../engines/speech-synthesizer';
import type { Formality } from '../../engines/translator';
import { resolveSourceFormat } from '../media/source-formats';
import { resolveTargetFormat } from '../media/target-formats';
import { API_SOURCE_LANGUAGES, API_TARGET_LANGUAGES, canonicalLanguage } from './languages';
import type { SessionConfig } from './session-config';

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
const FORMALITIES: readonly Formality[] = ['default', 'formal', 'more', 'informal', 'less'];
const VOICES: readonly VoiceGender[] = ['male', 'female'];
const KNOWN_FIELDS = [
  'message_format', 'source_media_content_type', 'source_language', 'source_language_mode', 'target_languages',
  'target_media_languages', 'target_media_content_type', 'target_media_voice', 'formality', 'glossary_id', 'spoken_terms_id',
];

function refuse(code: string, message: string): SessionRequestResult {
  return { error: { code, message } };
}

/**
 * Validates the body of `POST /v3/voice/realtime` and normalises it into a SessionConfig, or returns the
 * first problem as `{message, code}`.
 */
export function validateSessionRequest(body: unknown, capabilities: VoiceCapabilities): SessionRequestResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refuse('invalid_request', 'The request body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((name) => !KNOWN_FIELDS.includes(name));
  if (unknown.length > 0) return refuse('unknown_parameter', `Unknown parameter(s): ${unknown.join(', ')}`);
  for (const unsupported of ['glossary_id', 'spoken_terms_id']) {
    if (fields[unsupported] !== undefined && fields[unsupported] !== null) {
      return refuse('unsupported_parameter', `${unsupported} is not supported by this server (no glossaries or spoken terms offline)`);
    }
  }

  const messageFormat = fields.message_format ?? 'json';
  if (messageFormat !== 'json' && messageFormat !== 'msgpack') {
    return refuse('invalid_message_format', `message_format must be "json" or "msgpack", got ${describe(messageFormat)}`);
  }

  if (fields.source_media_content_type === undefined || fields.source_media_content_type === null) {
    return refuse('missing_parameter', 'source_media_content_type is required');
  }
  const source = resolveSourceFormat(fields.source_media_content_type);
  if ('error' in source) return refuse('invalid_content_type', source.error);

  const mode = fields.source_language_mode ?? 'auto';
  if (mode !== 'auto' && mode !== 'fixed') {
    return refuse('invalid_source_language_mode', `source_language_mode must be "auto" or "fixed", got ${describe(mode)}`);
  }
  const sourceLanguage = resolveSourceLanguage(fields.source_language, mode, capabilities);
  if (typeof sourceLanguage !== 'string') return sourceLanguage;

  const targets = languageList(fields.target_languages, 'target_languages', MAX_TARGET_LANGUAGES);
  if ('error' in targets) return targets;
  const media = languageList(fields.target_media_languages, 'target_media_languages', MAX_TARGET_MEDIA_LANGUAGES);
  if ('error' in media) return media;

  const reachable = capabilities.targetsFor(sourceLanguage);
  for (const language of [...targets.languages, ...media.languages]) {
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
  for (const language of media.languages) {
    if (!capabilities.mediaLanguages.includes(language)) {
      const spoken = capabilities.mediaLanguages.filter((candidate) => reachable.includes(candidate));
      return refuse('unsupported_target_media_language', `No voice for "${language}" on this server; spoken languages: ${spoken.join(', ')}`);
    }
  }
  const allTargets = [...new Set([...targets.languages, ...media.languages])];
  if (allTargets.length > MAX_TARGET_LANGUAGES) {
    return refuse('too_many_target_languages', `At most ${MAX_TARGET_LANGUAGES} target languages, target_media_languages included (got ${allTargets.length})`);
  }

  const target = resolveTargetFormat(fields.target_media_content_type);
  if ('error' in target) return refuse('invalid_content_type', target.error);

  const voice = fields.target_media_voice;
  if (voice !== undefined && voice !== null && !VOICES.includes(voice as VoiceGender)) {
    return refuse('invalid_target_media_voice', `target_media_voice must be "male" or "female", got ${describe(voice)}`);
  }
  const formality = fields.formality ?? 'default';
  if (!FORMALITIES.includes(formality as Formality)) {
    return refuse('invalid_formality', `formality must be one of ${FORMALITIES.join(', ')}, got ${describe(formality)}`);
  }

  return {
    config: {
      messageFormat,
      source: source.format,
      sourceLanguage,
      sourceLanguageMode: mode,
      targetLanguages: allTargets,
      targetMediaLanguages: media.languages,
      targetMedia: target.format,
      targetMediaVoice: (voice ?? undefined) as VoiceGender | undefined,
      formality: formality as Formality,
    },
  };
}

function resolveSourceLanguage(value: unknown, mode: 'auto' | 'fixed', capabilities: VoiceCapabilities): string | { error: SessionRequestError } {
  const supported = capabilities.sourceLanguages;
  if (value === undefined || value === null || value === '') {
    if (mode === 'fixed') return { error: { code: 'missing_parameter', message: 'source_language_mode "fixed" needs source_language' } };
    // No detection offline: the only recognised language is assumed.
    return supported[0];
  }
  const language = canonicalLanguage(value);
  if (!language || !(API_SOURCE_LANGUAGES as readonly string[]).includes(language)) {
    return { error: { code: 'invalid_source_language', message: `source_language ${describe(value)} is not a source language of this API` } };
  }
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

function languageList(value: unknown, field: string, max: number): { languages: string[] } | { error: SessionRequestError } {
  if (value === undefined || value === null) return { languages: [] };
  if (!Array.isArray(value)) return { error: { code: 'invalid_request', message: `${field} must be an array of language tags` } };
  if (value.length > max) return { error: { code: 'too_many_target_languages', message: `${field} allows at most ${max} language(s), got ${value.length}` } };
  const languages: string[] = [];
  for (const entry of value) {
    const language = canonicalLanguage(entry);
    if (!language) return { error: { code: 'invalid_target_language', message: `${field} contains ${describe(entry)}, which is not a language tag` } };
    if (!languages.includes(language)) languages.push(language);
  }
  return { languages };
}

/**
 * A client's value as an error message shows it: strings quoted and cut at 40 characters, lists and objects named,
 * never serialised whole (a list nested 5,000 deep overflowed JSON.stringify's stack: a 500 found by the hostile corpus).
 */
function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}
