import { Type } from 'class-transformer';
import { IsArray, IsDefined, IsNotEmpty, IsString, ValidateBy, ValidateNested } from 'class-validator';
import { SPOKEN_TERMS_LIMITS } from '../../domain/spoken-terms/spoken-terms';
import { describeValue } from '../../domain/session/session-request';
import { refusal } from './session-request-rules';

/** One term list of `POST /v3/spoken-terms` (DeepL's SpokenTermsListInput); the language is checked by the resource. */
export class TermListDto {
  @IsDefined(refusal('missing_parameter', 'every term list needs lang'))
  @IsString(refusal('invalid_language', (value) => `lang must be a language code, got ${describeValue(value)}`))
  lang!: string;

  @IsDefined(refusal('missing_parameter', 'every term list needs entries'))
  @IsString(refusal('invalid_entries', 'entries must be a string of newline-separated terms'))
  entries!: string;
}

/** The body of `POST /v3/spoken-terms` (DeepL's Create Spoken Terms collection). */
export class CreateSpokenTermsDto {
  @IsDefined(refusal('missing_parameter', 'name is required'))
  @IsString(refusal('invalid_name', 'name must be a string'))
  @IsNotEmpty(refusal('invalid_name', 'name must not be empty'))
  @ValidateBy(
    {
      name: 'maxBytes',
      validator: {
        validate: (value) =>
          typeof value !== 'string' || Buffer.byteLength(value, 'utf8') <= SPOKEN_TERMS_LIMITS.nameBytes,
      },
    },
    refusal('invalid_name', `name is longer than ${SPOKEN_TERMS_LIMITS.nameBytes} UTF-8 bytes`),
  )
  name!: string;

  @IsDefined(refusal('missing_parameter', 'term_lists is required'))
  @IsArray(refusal('invalid_request', 'term_lists must be an array of term lists'))
  @ValidateNested({ each: true })
  @Type(() => TermListDto)
  term_lists!: TermListDto[];
}
