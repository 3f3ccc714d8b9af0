#!/usr/bin/env node
/**
 * The everyday domain language model (src/engines/pocketsphinx/language-model):
 *   npm run language-model -w voice-stream -- [--arpa out.arpa] [--set tuning|evaluation]
 * Prints the corpus's size, the model's n-gram counts and discounts, and its perplexity and out-of-vocabulary
 * rate on the tuning (or evaluation) sentences; writes the ARPA file with --arpa.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_MODEL_DIRECTORY } from '../../engines/pocketsphinx/pocketsphinx-library';
import { everydayCorpus } from '../../engines/pocketsphinx/language-model/everyday-corpus';
import { dictionaryWords, everydayModel } from '../../engines/pocketsphinx/language-model/everyday-language-model';
import { perplexity, toArpa } from '../../engines/pocketsphinx/language-model/kneser-ney';
import { EVALUATION_SENTENCES, TUNING_SENTENCES } from '../eval/eval-sentences';
import { words } from '../eval/word-error-rate';

const flags = parseArgs({
  args: process.argv.slice(2),
  options: { arpa: { type: 'string' }, set: { type: 'string', default: 'tuning' } },
  strict: true,
}).values;
const dictionary = dictionaryWords(path.join(DEFAULT_MODEL_DIRECTORY, 'cmudict-en-us.dict'));
const corpus = everydayCorpus();
const model = everydayModel(dictionary);
console.log(
  `corpus: ${corpus.length} sentences, ${corpus.reduce((sum, sentence) => sum + sentence.length, 0)} words, vocabulary ${model.vocabulary.length - 2}`,
);
console.log(
  `n-grams: ${model.orders.map((table, index) => `${index + 1}-grams ${table.size}`).join(', ')}; discounts ${model.discounts.map((d) => d.toFixed(3)).join(', ')}`,
);
const sentences = (flags.set === 'evaluation' ? EVALUATION_SENTENCES : TUNING_SENTENCES).map((sentence) =>
  words(sentence),
);
const measured = perplexity(model, sentences);
const known = new Set(model.vocabulary);
const oov = [...new Set(sentences.flat().filter((word) => !known.has(word)))];
console.log(
  `${flags.set} sentences: perplexity ${measured.perplexity.toFixed(1)}, out of vocabulary ${measured.outOfVocabulary}/${measured.words}${oov.length ? ` (${oov.join(', ')})` : ''}`,
);
if (flags.arpa) {
  writeFileSync(flags.arpa, toArpa(model));
  console.log(`wrote ${flags.arpa}`);
}
