import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { everydayCorpus } from './everyday-corpus';
import { buildKneserNeyModel, toArpa, type NgramModel } from './kneser-ney';

/** Words of a PocketSphinx dictionary (alternate pronunciations `word(2)` folded into `word`). */
export function dictionaryWords(dictionaryFile: string): Set<string> {
  const words = new Set<string>();
  for (const line of readFileSync(dictionaryFile, 'utf8').split('\n')) {
    const word = line.slice(0, line.indexOf(' ')).replace(/\(\d+\)$/, '');
    if (word) words.add(word);
  }
  return words;
}

/** The domain model of the everyday corpus (trigram, Kneser-Ney); throws if a corpus word has no pronunciation. */
export function everydayModel(dictionary: ReadonlySet<string>): NgramModel {
  const corpus = everydayCorpus();
  const missing = new Set(corpus.flat().filter((word) => !dictionary.has(word)));
  if (missing.size > 0)
    throw new Error(`the everyday corpus uses words the dictionary does not have: ${[...missing].join(', ')}`);
  return buildKneserNeyModel(corpus, { order: 3 });
}

/**
 * The everyday model as an ARPA file in the temp folder, made once per corpus and dictionary (a few hundred
 * milliseconds) and shared by every decoder (written atomically, so parallel workers never read half a file).
 */
export function everydayLanguageModelFile(dictionaryFile: string): string {
  const source = `${everydayCorpus()
    .map((words) => words.join(' '))
    .join('\n')}\0${dictionaryFile}`;
  const hash = createHash('sha1').update(source).digest('hex').slice(0, 16);
  const file = path.join(tmpdir(), `voice-stream-everyday-${hash}.arpa`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
    writeFileSync(partial, toArpa(everydayModel(dictionaryWords(dictionaryFile))));
    renameSync(partial, file);
  }
  return file;
}
