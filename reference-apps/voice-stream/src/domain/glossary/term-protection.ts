import type { Formality, Translator } from '../../engines/translator';
import type { GlossaryEntry } from './glossary';

/**
 * Placeholders stand for the glossary's source phrases while the sentence is translated: a made-up word of letters
 * only is an unknown word to a rule-based translator, which passes it through unchanged and keeps it in its place
 * (measured with Apertium's en-es, en-ca, en-gl pairs and the Spanish pivots to fr, it, pt).
 */
const PLACEHOLDER_STEM = 'Zxqj';
const PLACEHOLDER = new RegExp(`${PLACEHOLDER_STEM}([a-z]+)`, 'gi');

function placeholder(index: number): string {
  let suffix = '';
  let rest = index;
  do {
    suffix = String.fromCharCode(97 + (rest % 26)) + suffix;
    rest = Math.floor(rest / 26) - 1;
  } while (rest >= 0);
  return `${PLACEHOLDER_STEM}${suffix}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A sentence with its glossary phrases replaced by placeholders, and how to put the target phrases in. */
export interface ProtectedSentence {
  readonly text: string;
  /** The translation with every placeholder replaced by its target phrase. */
  restore(translated: string): string;
}

/**
 * Replaces every occurrence of a glossary source phrase in `text` (whole words, case-insensitive, the longest phrase
 * first, so "New York City" wins over "New York") by a placeholder; `restore` puts the target phrases, exactly as the
 * glossary writes them, where the placeholders came out of the translation.
 */
export function protectTerms(text: string, entries: readonly GlossaryEntry[]): ProtectedSentence {
  const byLength = [...entries].sort((a, b) => b.source.length - a.source.length);
  const targets = new Map<string, string>();
  let protectedText = text;
  for (const entry of byLength) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(entry.source)}(?![\\p{L}\\p{N}])`, 'giu');
    if (!pattern.test(protectedText)) continue;
    const token = placeholder(targets.size);
    targets.set(token.toLowerCase(), entry.target);
    protectedText = protectedText.replace(pattern, token);
  }
  return {
    text: protectedText,
    restore: (translated) =>
      targets.size === 0
        ? translated
        : translated.replace(PLACEHOLDER, (token) => targets.get(token.toLowerCase()) ?? token),
  };
}

/** Translates `text` so that every glossary source phrase in it comes out as its target phrase. */
export async function translateWithGlossary(
  translator: Translator,
  text: string,
  source: string,
  target: string,
  formality: Formality,
  entries: readonly GlossaryEntry[],
): Promise<string> {
  const sentence = protectTerms(text, entries);
  return sentence.restore(await translator.translate(sentence.text, source, target, formality));
}
