/** Language tags as the real API lists them (source and target enums of the session request). */
export const API_SOURCE_LANGUAGES = [
  'ar',
  'bg',
  'bn',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'es',
  'et',
  'fi',
  'fr',
  'ga',
  'he',
  'hr',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'mt',
  'nb',
  'nl',
  'pl',
  'pt',
  'ro',
  'ru',
  'sk',
  'sl',
  'sv',
  'th',
  'tl',
  'tr',
  'uk',
  'vi',
  'zh',
] as const;

export const API_TARGET_LANGUAGES = [
  ...API_SOURCE_LANGUAGES,
  'en-GB',
  'en-US',
  'pt-BR',
  'pt-PT',
  'zh-HANS',
  'zh-HANT',
] as const;

/**
 * Canonical spelling of a BCP 47 tag as the API writes it: primary subtag lower case, region and script
 * upper case (`pt-BR`, `zh-HANS`). Returns undefined for anything that is not `xx`, `xx-YY` or `xx-Abcd`.
 */
export function canonicalLanguage(tag: unknown): string | undefined {
  if (typeof tag !== 'string') return undefined;
  const match = /^([A-Za-z]{2,3})(?:[-_]([A-Za-z]{2}|[A-Za-z]{4}))?$/.exec(tag.trim());
  if (!match) return undefined;
  return match[2] ? `${match[1].toLowerCase()}-${match[2].toUpperCase()}` : match[1].toLowerCase();
}
