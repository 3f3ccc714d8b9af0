import { IsArray, IsDefined, IsIn, IsNotEmpty, IsOptional, ValidateIf } from 'class-validator';
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
  refusal,
  SourceMediaType,
  TargetMediaType,
  Unsupported,
} from './session-request-rules';

const NO_GLOSSARIES = 'is not supported by this server (no glossaries or spoken terms offline)';

/**
 * The body of `POST /v3/voice/realtime`, checked by rest.uws (`@Valid`, class-validator) before the resource runs.
 * Unknown fields are refused (`unknown_parameter`: the app validates with `forbidNonWhitelisted`). The fields are
 * checked in the order they are declared, and the first broken one is answered, with the code its constraint names:
 * declare them in the order the API reports problems. What depends on the installed engines (is the source language
 * recognised, can the targets be translated and spoken) is the domain's `sessionConfigOf`.
 */
export class SessionRequestDto implements SessionRequest {
  @IsOptional()
  @Unsupported(refusal('unsupported_parameter', `glossary_id ${NO_GLOSSARIES}`))
  glossary_id?: string | null;

  @IsOptional()
  @Unsupported(refusal('unsupported_parameter', `spoken_terms_id ${NO_GLOSSARIES}`))
  spoken_terms_id?: string | null;

  /** How the stream's messages are encoded (default json). */
  @IsOptional()
  @IsIn(
    MESSAGE_FORMATS,
    refusal(
      'invalid_message_format',
      (value) => `message_format must be "json" or "msgpack", got ${describeValue(value)}`,
    ),
  )
  message_format?: MessageFormat | null;

  /** The audio the client streams, e.g. `audio/ogg;codecs=opus` or `audio/pcm;encoding=s16le;rate=16000`. */
  @IsDefined(refusal('missing_parameter', 'source_media_content_type is required'))
  @SourceMediaType('invalid_content_type')
  source_media_content_type!: string;

  /** auto (default): the language is detected (offline: the recogniser's own); fixed: `source_language` is used. */
  @IsOptional()
  @IsIn(
    SOURCE_LANGUAGE_MODES,
    refusal(
      'invalid_source_language_mode',
      (value) => `source_language_mode must be "auto" or "fixed", got ${describeValue(value)}`,
    ),
  )
  source_language_mode?: SourceLanguageMode | null;

  /** Required when `source_language_mode` is fixed. */
  @ValidateIf(
    (request: SessionRequestDto, value: unknown) => !isBlank(value) || request.source_language_mode === 'fixed',
  )
  @IsNotEmpty(refusal('missing_parameter', 'source_language_mode "fixed" needs source_language'))
  @ApiSourceLanguage(
    refusal(
      'invalid_source_language',
      (value) => `source_language ${describeValue(value)} is not a source language of this API`,
    ),
  )
  source_language?: string | null;

  /** Languages to translate the transcript into (at most 5, the spoken one included). */
  @IsOptional()
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
  target_languages?: string[] | null;

  /** The language to speak (at most one; closed beta in the real API). */
  @IsOptional()
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
  target_media_languages?: string[] | null;

  /** The spoken audio's format (default `audio/webm;codecs=opus`). */
  @TargetMediaType('invalid_content_type')
  target_media_content_type?: string | null;

  @IsOptional()
  @IsIn(
    VOICES,
    refusal(
      'invalid_target_media_voice',
      (value) => `target_media_voice must be "male" or "female", got ${describeValue(value)}`,
    ),
  )
  target_media_voice?: VoiceGender | null;

  /** Passed to the translator (Apertium has no formality control and ignores it). */
  @IsOptional()
  @IsIn(
    FORMALITIES,
    refusal(
      'invalid_formality',
      (value) => `formality must be one of ${FORMALITIES.join(', ')}, got ${describeValue(value)}`,
    ),
  )
  formality?: Formality | null;
}
