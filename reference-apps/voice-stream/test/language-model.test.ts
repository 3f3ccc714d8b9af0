import test from 'ava';
import path from 'node:path';
import { EVALUATION_SENTENCES } from '../src/cli/eval/eval-sentences';
import { words } from '../src/cli/eval/word-error-rate';
import { everydayCorpus, numberWords, ordinalWords } from '../src/engines/pocketsphinx/language-model/everyday-corpus';
import { dictionaryWords, everydayModel } from '../src/engines/pocketsphinx/language-model/everyday-language-model';
import {
  buildKneserNeyModel,
  logProbability,
  perplexity,
  SENTENCE_END,
  SENTENCE_START,
  toArpa,
} from '../src/engines/pocketsphinx/language-model/kneser-ney';
import { DEFAULT_MODEL_DIRECTORY } from '../src/engines/pocketsphinx/pocketsphinx-library';

const TOY = [
  'the train leaves at nine',
  'the bus leaves at ten',
  'the train arrives at ten',
  'a train leaves at noon',
  'the bus is late',
].map((sentence) => sentence.split(' '));

const sumOver = (model: ReturnType<typeof buildKneserNeyModel>, history: string[]) =>
  model.vocabulary
    .filter((word) => word !== SENTENCE_START)
    .reduce((sum, word) => sum + 10 ** logProbability(model, history, word), 0);

test('Kneser-Ney: every history gives a distribution over the vocabulary that sums to 1', (t) => {
  const model = buildKneserNeyModel(TOY, { order: 3, extraVocabulary: ['taxi'] });
  for (const history of [
    [SENTENCE_START],
    [SENTENCE_START, 'the'],
    ['the', 'train'],
    ['train', 'leaves'],
    ['bus'],
    ['taxi'],
    ['leaves', 'at'],
    [],
  ]) {
    t.true(
      Math.abs(sumOver(model, history) - 1) < 1e-9,
      `history "${history.join(' ')}" sums to ${sumOver(model, history)}`,
    );
  }
  t.true(
    logProbability(model, ['taxi'], 'taxi') > Number.NEGATIVE_INFINITY,
    'a word only in the extra vocabulary still has a probability',
  );
});

test('Kneser-Ney: a seen continuation is likelier than an unseen one, and the lower order counts contexts', (t) => {
  const model = buildKneserNeyModel(TOY, { order: 3 });
  t.true(logProbability(model, ['leaves', 'at'], 'nine') > logProbability(model, ['leaves', 'at'], 'late'));
  t.true(logProbability(model, ['the', 'train'], 'leaves') > logProbability(model, ['the', 'train'], 'is'));
  // "at" follows one word ("leaves"/"arrives"): two contexts; "the" starts four sentences but has one context (<s>).
  t.true(
    logProbability(model, [], 'at') > logProbability(model, [], 'the'),
    'continuation counts, not raw counts, at the unigram level',
  );
  t.is(model.orders[0].get(SENTENCE_START)?.logProbability, -99);
  t.true(model.orders[0].has(SENTENCE_END));
});

test('the ARPA text lists each order with its count and the back-off weights of histories', (t) => {
  const model = buildKneserNeyModel(TOY, { order: 2 });
  const arpa = toArpa(model);
  t.regex(arpa, /^\\data\\\nngram 1=\d+\nngram 2=\d+\n/);
  t.regex(arpa, /\n-99\t<s>\t-?\d+\.\d+\n/);
  t.regex(arpa, /\\2-grams:\n[\s\S]*-?\d+\.\d+\tthe train\n/);
  t.true(arpa.endsWith('\\end\\\n'));
  t.is(arpa.match(/\n-?\d+(\.\d+)?\t[^\t\n]+ [^\t\n]+/g)?.length, model.orders[1].size);
});

test('spoken numbers and ordinals', (t) => {
  t.is(numberWords(42), 'forty two');
  t.is(numberWords(105, true), 'one hundred and five');
  t.is(numberWords(13), 'thirteen');
  t.is(ordinalWords(21), 'twenty first');
  t.is(ordinalWords(30), 'thirtieth');
  t.is(ordinalWords(12), 'twelfth');
});

test('the everyday corpus has no evaluation sentence, and every word has a pronunciation', (t) => {
  const corpus = everydayCorpus().map((sentence) => sentence.join(' '));
  const inCorpus = new Set(corpus);
  const text = `\n${corpus.join('\n')}\n`;
  for (const sentence of EVALUATION_SENTENCES) {
    const spoken = words(sentence).join(' ');
    t.false(inCorpus.has(spoken), `evaluation sentence in the corpus: ${spoken}`);
    t.false(
      text.includes(` ${spoken}\n`) || text.includes(`\n${spoken} `),
      `evaluation sentence inside a corpus sentence: ${spoken}`,
    );
  }
  const dictionary = dictionaryWords(path.join(DEFAULT_MODEL_DIRECTORY, 'cmudict-en-us.dict'));
  const model = everydayModel(dictionary);
  t.true(model.vocabulary.every((word) => word === SENTENCE_START || word === SENTENCE_END || dictionary.has(word)));
  // What the domain model makes of the evaluation sentences (reported in docs/voice-stream/recognition.md).
  const measured = perplexity(
    model,
    EVALUATION_SENTENCES.map((sentence) => words(sentence)),
  );
  t.log(
    `evaluation sentences: perplexity ${measured.perplexity.toFixed(1)}, out of vocabulary ${measured.outOfVocabulary}/${measured.words}`,
  );
});
