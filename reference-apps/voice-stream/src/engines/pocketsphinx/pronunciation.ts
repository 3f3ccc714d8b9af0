import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { termWords } from '../../domain/spoken-terms/spoken-terms';
import type { CustomVocabulary } from '../speech-recognizer';
import { ipaToCmu } from './ipa-to-cmu';

const run = promisify(execFile);

/** Pronunciations already derived, by word (a session's terms are mostly the same from one session to the next). */
const CACHE_SIZE = 2000;

/**
 * Pronunciations of new words for PocketSphinx's US English model: the CMU dictionary's own when it has the word
 * (all of its variants), otherwise espeak-ng's phonemes (`--ipa`, voice en-us) mapped to the model's phones. Both
 * are offline: the dictionary ships with the model, espeak-ng is a Debian package.
 */
export class Pronouncer {
  private dictionary: Promise<string> | undefined;
  private readonly cache = new Map<string, readonly string[]>();

  constructor(private readonly dictionaryFile: string) {}

  static forModel(modelDirectory: string): Pronouncer {
    return new Pronouncer(path.join(modelDirectory, 'cmudict-en-us.dict'));
  }

  /**
   * The vocabulary of `terms` (every word of every term, each with its pronunciations), and the words no
   * pronunciation was found for.
   */
  async vocabulary(terms: readonly string[]): Promise<{ vocabulary: CustomVocabulary; unpronounceable: string[] }> {
    const words = [...new Set(terms.flatMap(termWords))];
    const found = await Promise.all(words.map(async (word) => [word, await this.pronounce(word)] as const));
    return {
      vocabulary: {
        words: found
          .filter(([, pronunciations]) => pronunciations.length > 0)
          .map(([word, pronunciations]) => ({ word, pronunciations })),
        phrases: terms.map(termWords).filter((phrase) => phrase.length > 0),
      },
      unpronounceable: found.filter(([, pronunciations]) => pronunciations.length === 0).map(([word]) => word),
    };
  }

  /** The word's pronunciations (space-separated phones), or none. */
  async pronounce(word: string): Promise<readonly string[]> {
    const cached = this.cache.get(word);
    if (cached) return cached;
    const fromDictionary = dictionaryPronunciations(await this.dictionaryText(), word);
    const pronunciations = fromDictionary.length > 0 ? fromDictionary : await espeakPronunciation(word);
    this.cache.set(word, pronunciations);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    return pronunciations;
  }

  private dictionaryText(): Promise<string> {
    this.dictionary ??= readFile(this.dictionaryFile, 'utf8').then((text) => `\n${text}`);
    return this.dictionary;
  }
}

/** Every `word` / `word(2)` ... line of the dictionary text. */
function dictionaryPronunciations(text: string, word: string): string[] {
  const found: string[] = [];
  for (const head of [`\n${word} `, `\n${word}(`]) {
    let at = text.indexOf(head);
    while (at >= 0) {
      const end = text.indexOf('\n', at + 1);
      const line = text.slice(at + 1, end < 0 ? undefined : end);
      const space = line.indexOf(' ');
      if (line.slice(0, space).replace(/\(\d+\)$/, '') === word) found.push(line.slice(space + 1).trim());
      at = text.indexOf(head, at + 1);
    }
  }
  return found;
}

async function espeakPronunciation(word: string): Promise<string[]> {
  try {
    const { stdout } = await run('espeak-ng', ['-q', '--ipa', '-v', 'en-us', word], { timeout: 5000 });
    const phones = ipaToCmu(stdout.trim());
    return phones ? [phones.join(' ')] : [];
  } catch {
    return [];
  }
}
