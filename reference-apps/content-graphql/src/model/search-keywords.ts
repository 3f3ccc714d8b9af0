/**
 * Keyword normalization shared by the search index and search queries: lower case, accents removed,
 * punctuation turned into spaces, one space between words, and a space on both ends so that
 * `LIKE '% word%'` finds words that start with a term.
 */
export function normalizeKeywords(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/<[^>]*>/g, ' ')
    .replace(/[^\p{L}\p{N}@.*_-]+/gu, ' ')
    .replace(/(^|\s)[._-]+|[._-]+(?=\s|$)/g, ' ')
    .trim();
  return words ? ` ${words.split(/\s+/).join(' ')} ` : '';
}
