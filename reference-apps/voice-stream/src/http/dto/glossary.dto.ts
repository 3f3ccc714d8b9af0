import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsNotEmpty,
  IsString,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import type { EntriesFormat } from '../../domain/glossary/glossary-entries';
import { GLOSSARY_LIMITS } from '../../domain/glossary/glossary';
import { describeValue } from '../../domain/session/session-request';
import { NotNull, refusal, Sent } from './session-request-rules';

const ENTRIES_FORMATS: readonly EntriesFormat[] = ['tsv', 'csv'];

/** A text of at most `bytes` UTF-8 bytes (other values pass: `@IsString` refuses them). */
function MaxBytes(bytes: number, code: string, what: string) {
  return ValidateBy(
    {
      name: 'maxBytes',
      validator: { validate: (value) => typeof value !== 'string' || Buffer.byteLength(value, 'utf8') <= bytes },
    },
    refusal(code, `${what} is longer than ${bytes} UTF-8 bytes`),
  );
}

/** One dictionary of `POST /v3/glossaries` (DeepL's GlossaryDictionary); the language pair is checked by the resource. */
export class GlossaryDictionaryDto {
  @IsDefined(refusal('missing_parameter', 'every dictionary needs source_lang'))
  @IsString(refusal('invalid_language', (value) => `source_lang must be a language code, got ${describeValue(value)}`))
  source_lang!: string;

  @IsDefined(refusal('missing_parameter', 'every dictionary needs target_lang'))
  @IsString(refusal('invalid_language', (value) => `target_lang must be a language code, got ${describeValue(value)}`))
  target_lang!: string;

  @IsDefined(refusal('missing_parameter', 'every dictionary needs entries'))
  @IsString(refusal('invalid_entries', 'entries must be a string of TSV or CSV lines'))
  entries!: string;

  /** tsv (default) or csv. */
  @Sent()
  @IsIn(
    ENTRIES_FORMATS,
    refusal('invalid_entries_format', (value) => `entries_format must be "tsv" or "csv", got ${describeValue(value)}`),
  )
  @NotNull('invalid_entries_format', 'the default (tsv)')
  entries_format?: EntriesFormat;
}

/** The body of `POST /v3/glossaries` (DeepL's CreateMultilingualGlossaryParameters). */
export class CreateGlossaryDto {
  @IsDefined(refusal('missing_parameter', 'name is required'))
  @IsString(refusal('invalid_name', 'name must be a string'))
  @IsNotEmpty(refusal('invalid_name', 'name must not be empty'))
  @MaxBytes(GLOSSARY_LIMITS.nameBytes, 'invalid_name', 'name')
  name!: string;

  @IsDefined(refusal('missing_parameter', 'dictionaries is required'))
  @IsArray(refusal('invalid_request', 'dictionaries must be an array of dictionaries'))
  @ArrayMinSize(1, refusal('invalid_request', 'dictionaries must hold at least one dictionary'))
  @ValidateNested({ each: true })
  @Type(() => GlossaryDictionaryDto)
  dictionaries!: GlossaryDictionaryDto[];
}
