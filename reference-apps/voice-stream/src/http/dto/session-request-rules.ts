import { ValidateBy, ValidateIf, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { resolveSourceFormat } from '../../domain/media/source-formats';
import { resolveTargetFormat } from '../../domain/media/target-formats';
import { API_SOURCE_LANGUAGES, canonicalLanguage } from '../../domain/session/languages';
import { describeValue, isBlank } from '../../domain/session/session-request';

/**
 * The session request's own class-validator constraints, and `refusal`, which gives any constraint the API's answer:
 * its `{message, code}` (the code as the constraint's context, which rest.uws hands to VoiceExceptionHandler with the
 * violation). The API reports one problem at a time, the first violation; class-validator reports every broken
 * constraint of a property, so each constraint here speaks only for what it checks and lets the rest pass: a value
 * that is no list is `@IsArray`'s to refuse, a list that is too long `@MaxLanguages`'s.
 */

/** A constraint's message: fixed, or made from the client's value. */
type Message = string | ((value: unknown) => string);

/** Options of a constraint whose violation the API answers with `code` and `message`. */
export function refusal(code: string, message: Message): ValidationOptions {
  return {
    message: typeof message === 'string' ? message : (args: ValidationArguments) => message(args.value),
    context: { code },
  };
}

/** Validates the property when the client sent it, null included (class-validator's `@IsOptional` skips null too). */
export function Sent(): PropertyDecorator {
  return ValidateIf((_request: object, value: unknown) => value !== undefined);
}

/**
 * The API's schema has no null for any field: null is refused with what to do instead (leave the field out). Put
 * it last (nearest the property): it then runs first, and its message is the one answered.
 */
export function NotNull(code: string, defaultMeaning: string): PropertyDecorator {
  return ValidateBy(
    { name: 'notNull', validator: { validate: (value) => value !== null } },
    {
      message: (args: ValidationArguments) =>
        `${args.property} must not be null; leave the field out for ${defaultMeaning}`,
      context: { code },
    },
  );
}

/** The id of a stored resource (glossary, spoken terms): a non-empty string of at most 100 characters. */
export function ResourceId(code: string): PropertyDecorator {
  return ValidateBy(
    {
      name: 'resourceId',
      validator: {
        validate: (value) => value === null || (typeof value === 'string' && value.length > 0 && value.length <= 100),
      },
    },
    {
      message: (args: ValidationArguments) =>
        `${args.property} must be a non-empty string of at most 100 characters, got ${describeValue(args.value)}`,
      context: { code },
    },
  );
}

/** A `source_media_content_type` this server decodes; the message says what is wrong (absent: `@IsDefined` speaks). */
export function SourceMediaType(code: string): PropertyDecorator {
  return ValidateBy(
    {
      name: 'sourceMediaType',
      validator: {
        validate: (value) => value === undefined || value === null || 'format' in resolveSourceFormat(value),
      },
    },
    refusal(code, (value) => problemOf(resolveSourceFormat(value))),
  );
}

/** A `target_media_content_type` this server encodes (absent: the default); the message says what is wrong. */
export function TargetMediaType(code: string): PropertyDecorator {
  return ValidateBy(
    { name: 'targetMediaType', validator: { validate: (value) => 'format' in resolveTargetFormat(value) } },
    refusal(code, (value) => problemOf(resolveTargetFormat(value))),
  );
}

function problemOf(result: { format: unknown } | { error: string }): string {
  return 'error' in result ? result.error : '';
}

/** A source language of the real API, in any case (`EN`); blank values pass (whether one is needed is `@IsNotEmpty`'s). */
export function ApiSourceLanguage(options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'apiSourceLanguage',
      validator: {
        validate: (value) => {
          if (isBlank(value)) return true;
          const language = canonicalLanguage(value);
          return language !== undefined && (API_SOURCE_LANGUAGES as readonly string[]).includes(language);
        },
      },
    },
    options,
  );
}

/** A list of at most `max` entries (anything else passes: `@IsArray` refuses it). */
export function MaxLanguages(max: number, options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxLanguages',
      constraints: [max],
      validator: { validate: (value) => !Array.isArray(value) || value.length <= max },
    },
    options,
  );
}

/**
 * Every entry a language tag (`xx`, `xx-YY`, `xx-Abcd`, any case); the message names the first that is not. Lists
 * longer than `max` pass: `@MaxLanguages` refuses them first.
 */
export function LanguageTags(max: number, code: string): PropertyDecorator {
  const firstNonTag = (value: unknown): unknown =>
    Array.isArray(value) ? value.find((entry) => canonicalLanguage(entry) === undefined) : undefined;
  return ValidateBy(
    {
      name: 'languageTags',
      validator: {
        validate: (value) =>
          !Array.isArray(value) || value.length > max || value.every((entry) => canonicalLanguage(entry) !== undefined),
      },
    },
    {
      message: (args: ValidationArguments) =>
        `${args.property} contains ${describeValue(firstNonTag(args.value))}, which is not a language tag`,
      context: { code },
    },
  );
}
