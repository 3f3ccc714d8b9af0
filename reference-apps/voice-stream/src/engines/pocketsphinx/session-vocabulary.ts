import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CustomVocabulary } from '../speech-recognizer';

/**
 * The share of the spoken terms' model in the language model mix (the general and everyday models share the rest).
 * Measured with test/spoken-terms.test.ts's sentences: high enough that a name said once is heard as the term, low
 * enough that sentences without it keep their words.
 */
export const TERMS_WEIGHT = 0.02;

/** A file in the temp folder, made once per content (a hash names it; renamed into place whole). */
function madeOnce(kind: string, extension: string, content: () => string, key: string): string {
  const hash = createHash('sha1').update(key).digest('hex').slice(0, 16);
  const file = path.join(tmpdir(), `voice-stream-${kind}-${hash}.${extension}`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
    writeFileSync(partial, content());
    renameSync(partial, file);
  }
  return file;
}

/** The decoder's dictionary with the vocabulary's words added (words it has already keep their own pronunciations). */
export function dictionaryWithWords(dictionaryFile: string, vocabulary: CustomVocabulary): string {
  const key = `${dictionaryFile}\0${JSON.stringify(vocabulary.words)}`;
  return madeOnce(
    'session-dictionary',
    'dict',
    () => {
      const text = readFileSync(dictionaryFile, 'utf8');
      const known = new Set(text.split('\n').map((line) => line.slice(0, line.indexOf(' ')).replace(/\(\d+\)$/, '')));
      const added = vocabulary.words
        .filter((entry) => !known.has(entry.word))
        .flatMap((entry) =>
          entry.pronunciations.map(
            (phones, index) => `${index === 0 ? entry.word : `${entry.word}(${index + 1})`} ${phones}`,
          ),
        );
      return `${text.trimEnd()}\n${added.join('\n')}\n`;
    },
    key,
  );
}

const log10 = (p: number) => Math.log10(p).toFixed(4);

/**
 * A small ARPA model of the spoken terms: every word of every term as a unigram, and within a term of several
 * words each word after the one before it as a bigram (so "new relic" is likelier whole). Mixed in with
 * TERMS_WEIGHT, it gives each term word a probability like a common word's, whatever the general model thinks of it.
 */
export function termsLanguageModel(vocabulary: CustomVocabulary): string {
  const words = vocabulary.words.map((entry) => entry.word);
  const known = new Set(words);
  const bigrams = new Set<string>();
  for (const phrase of vocabulary.phrases)
    for (let index = 1; index < phrase.length; index += 1)
      if (known.has(phrase[index - 1]) && known.has(phrase[index]))
        bigrams.add(`${phrase[index - 1]} ${phrase[index]}`);
  // Half of the mass to the end of a sentence, half shared by the words; within a term the next word is near certain.
  const wordProbability = 0.5 / Math.max(1, words.length);
  const lines = [
    '\\data\\',
    `ngram 1=${words.length + 2}`,
    ...(bigrams.size > 0 ? [`ngram 2=${bigrams.size}`] : []),
    '',
    '\\1-grams:',
    '-99.0000 <s> 0.0000',
    `${log10(0.5)} </s>`,
    ...words.map((word) => `${log10(wordProbability)} ${word} 0.0000`),
    '',
    ...(bigrams.size > 0 ? ['\\2-grams:', ...[...bigrams].map((pair) => `${log10(0.9)} ${pair}`), ''] : []),
    '\\end\\',
    '',
  ];
  const text = lines.join('\n');
  return madeOnce('terms', 'lm', () => text, text);
}
