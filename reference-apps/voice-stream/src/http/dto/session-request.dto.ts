import { IsArray, IsDefined, IsIn, IsNotEmpty, ValidateIf } from 'class-validator';
import type { VoiceGender } from '../../engines/speech-synthesizer';
import type { Formality } from '../../engines/translator';
import type { MessageFormat } from '../../domain/protocol/message-codec';
import {
  describeValue,
  FORMALITIES,
  isBlank,
  MAX_TARGET_LANGUAGES,
  MAX_TARGET_MEDIA_LANGUAGES,
  MESSAGE_FORMATS,
  SOURCE_LANGUAGE_MODES,
  VOICES,
  type SessionRequest,
  type SourceLanguageMode,
} from '../../domain/session/session-request';
import {
  ApiSourceLanguage,
  LanguageTags,
  MaxLanguages,
  NotNull,
  refusal,
  ResourceId,
  Sent,
  SourceMediaType,
  TargetMediaType,
} from './session-request-rules';

/**
 * The body of `POST /v3/voice/realtime`, checked by rest.uws (`@Valid`, class-validator) before the resource runs.
 * Unknown fields are refused (`unknown_parameter`: the app validates with `forbidNonWhitelisted`). The fields are
 * checked in the order they are declared, and the first broken one is answered, with the code its constraint names:
 * declare them in the order the API reports problems. No field may be null (the API's schema allows none): `@Sent`
 * validates what the client sent, null included, and `@NotNull` (last, so first to run) refuses it. What depends on the
 * installed engines (is the source language recognised, can the targets be translated and spoken) is the domain's
 * `sessionConfigOf`; whether a glossary or spoken terms id belongs to the key, the resource's.
 */
export class SessionRequestDto implements SessionRequest {
  /** A glossary of the same API key (`POST /v3/glossaries`): its dictionaries apply to the session's targets. */
  @Sent()
  @ResourceId('invalid_glossary_id')
  @NotNull('invalid_glossary_id', 'no glossary')
  glossary_id?: string;

  /** A Spoken Terms collection of the same API key (`POST /v3/spoken-terms`): words the recogniser learns. */
  @Sent()
  @ResourceId('invalid_spoken_terms_id')
  @NotNull('invalid_spoken_terms_id', 'no spoken terms')
  spoken_terms_id?: string;

  /** How the stream's messages are encoded (default json). */
  @Sent()
  @IsIn(
    MESSAGE_FORMATS,
    refusal(
      'invalid_message_format',
      (value) => `message_format must be "json" or "msgpack", got ${describeValue(value)}`,
    ),
  )
  @NotNull('invalid_message_format', 'the default (json)')
  message_format?: MessageFormat;

  /** The audio the client streams, e.g. `audio/ogg;codecs=opus` or `audio/pcm;encoding=s16le;rate=16000`. */
  @IsDefined(refusal('missing_parameter', 'source_media_content_type is required'))
  @SourceMediaType('invalid_content_type')
  source_media_content_type!: string;

  /** auto (default): the language is detected (offline: the recogniser's own); fixed: `source_language` is used. */
  @Sent()
  @IsIn(
    SOURCE_LANGUAGE_MODES,
    refusal(
      'invalid_source_language_mode',
      (value) => `source_language_mode must be "auto" or "fixed", got ${describeValue(value)}`,
    ),
  )
  @NotNull('invalid_source_language_mode', 'the default (auto)')
  source_language_mode?: SourceLanguageMode;

  /** Required when `source_language_mode` is fixed; may be left empty (""), as the API's description allows. */
  @ValidateIf(
    (request: SessionRequestDto, value: unknown) =>
      value === null || !isBlank(value) || request.source_language_mode === 'fixed',
  )
  @IsNotEmpty(refusal('missing_parameter', 'source_language_mode "fixed" needs source_language'))
  @ApiSourceLanguage(
    refusal(
      'invalid_source_language',
      (value) => `source_language ${describeValue(value)} is not a source language of this API`,
    ),
  )
  @NotNull('invalid_source_language', 'no source language (detected)')
  source_language?: string;

  /** Languages to translate the transcript into (at most 5, the spoken one included). */
  @Sent()
  @IsArray(refusal('invalid_request', 'target_languages must be an array of language tags'))
  @MaxLanguages(
    MAX_TARGET_LANGUAGES,
    refusal(
      'too_many_target_languages',
      (value) =>
        `target_languages allows at most ${MAX_TARGET_LANGUAGES} language(s), got ${(value as unknown[]).length}`,
    ),
  )
  @LanguageTags(MAX_TARGET_LANGUAGES, 'invalid_target_language')
  @NotNull('invalid_request', 'no targets ([])')
  target_languages?: string[];

  /** The language to speak (at most one; closed beta in the real API). */
  @Sent()
  @IsArray(refusal('invalid_request', 'target_media_languages must be an array of language tags'))
  @MaxLanguages(
    MAX_TARGET_MEDIA_LANGUAGES,
    refusal(
      'too_many_target_languages',
      (value) =>
        `target_media_languages allows at most ${MAX_TARGET_MEDIA_LANGUAGES} language(s), got ${(value as unknown[]).length}`,
    ),
  )
  @LanguageTags(MAX_TARGET_MEDIA_LANGUAGES, 'invalid_target_language')
  @NotNull('invalid_request', 'no spoken language ([])')
  target_media_languages?: string[];

  /** The spoken audio's format (default `audio/webm;codecs=opus`). */
  @Sent()
  @TargetMediaType('invalid_content_type')
  @NotNull('invalid_content_type', 'the default (audio/webm;codecs=opus)')
  target_media_content_type?: string;

  @Sent()
  @IsIn(
    VOICES,
    refusal(
      'invalid_target_media_voice',
      (value) => `target_media_voice must be "male" or "female", got ${describeValue(value)}`,
    ),
  )
  @NotNull('invalid_target_media_voice', "the language's default voice")
  target_media_voice?: VoiceGender;

  /** Passed to the translator (Apertium has no formality control and ignores it). */
  @Sent()
  @IsIn(
    FORMALITIES,
    refusal(
      'invalid_formality',
      (value) => `formality must be one of ${FORMALITIES.join(', ')}, got ${describeValue(value)}`,
    ),
  )
  @NotNull('invalid_formality', 'the default (default)')
  formality?: Formality;
}
