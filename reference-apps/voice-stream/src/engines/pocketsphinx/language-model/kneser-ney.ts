/**
 * An n-gram language model estimated from text with interpolated Kneser-Ney smoothing (Chen & Goodman's
 * formulation, one absolute discount per order), written in the ARPA format PocketSphinx reads.
 *
 * - The highest order counts what was seen; each lower order counts in how many different contexts an n-gram
 *   continues (its "continuation count"), except n-grams that begin the sentence (`<s> ...`), which have no
 *   left context and keep their own counts.
 * - p(w | h) = max(c(h w) - D, 0) / c(h .) + gamma(h) p(w | h'), with gamma(h) = D N1+(h .) / c(h .) and h' the
 *   history without its first word; the unigrams are interpolated with a uniform distribution over the
 *   vocabulary, so every word of it has a probability.
 * - D = n1 / (n1 + 2 n2) per order (n1, n2: how many n-grams of that order were counted once and twice).
 * - In ARPA form, a seen n-gram stores its interpolated probability and a history stores gamma(h) as its back-off
 *   weight: an unseen w after h then gets gamma(h) p(w | h'), exactly the interpolated value.
 */

export const SENTENCE_START = '<s>';
export const SENTENCE_END = '</s>';

/** One order's n-grams: the n-gram's words joined by spaces -> its log10 probability and back-off weight. */
export interface ArpaEntry {
  readonly logProbability: number;
  /** log10 back-off weight; present only for n-grams that are histories of a longer one. */
  readonly logBackoff?: number;
}

export interface NgramModel {
  readonly order: number;
  /** `orders[n - 1]` holds the n-grams. */
  readonly orders: ReadonlyArray<ReadonlyMap<string, ArpaEntry>>;
  /** Every word with a unigram, `<s>` and `</s>` included. */
  readonly vocabulary: readonly string[];
  /** The discount used at each order (diagnostics). */
  readonly discounts: readonly number[];
}

export interface KneserNeyOptions {
  /** Highest n-gram order (default 3). */
  readonly order?: number;
  /** Words given a unigram even when the text never uses them (they get only the uniform share). */
  readonly extraVocabulary?: Iterable<string>;
}

const key = (words: readonly string[]) => words.join(' ');

/** Estimates the model from sentences already split into words (lower case, no punctuation). */
export function buildKneserNeyModel(
  sentences: Iterable<readonly string[]>,
  options: KneserNeyOptions = {},
): NgramModel {
  const order = options.order ?? 3;
  if (!Number.isInteger(order) || order < 1) throw new Error(`order must be a positive integer, not ${order}`);
  // counts[n - 1]: n-gram -> the count KN uses at that order.
  const counts: Array<Map<string, number>> = Array.from({ length: order }, () => new Map());
  const raw = counts[order - 1];
  // Raw counts of every order for the n-grams beginning a sentence (no left context to count).
  const vocabulary = new Set<string>([SENTENCE_START, SENTENCE_END]);
  for (const sentence of sentences) {
    if (sentence.length === 0) continue;
    const words = [SENTENCE_START, ...sentence, SENTENCE_END];
    for (const word of sentence) vocabulary.add(word);
    for (let end = 1; end < words.length; end += 1) {
      // Highest order: the n-gram ending at `end` (shorter at the sentence's start: those are counted raw).
      const start = Math.max(0, end - order + 1);
      const gram = words.slice(start, end + 1);
      if (gram.length === order) raw.set(key(gram), (raw.get(key(gram)) ?? 0) + 1);
      else counts[gram.length - 1].set(key(gram), (counts[gram.length - 1].get(key(gram)) ?? 0) + 1);
    }
  }
  for (const word of options.extraVocabulary ?? []) vocabulary.add(word);
  // Continuation counts: each distinct (n+1)-gram adds one to the n-gram it ends with (unless that n-gram
  // begins with <s>: those keep the raw counts gathered above).
  for (let n = order; n >= 2; n -= 1) {
    const lower = counts[n - 2];
    for (const gram of counts[n - 1].keys()) {
      const suffix = gram.slice(gram.indexOf(' ') + 1);
      if (suffix.startsWith(`${SENTENCE_START} `) || suffix === SENTENCE_START) continue;
      lower.set(suffix, (lower.get(suffix) ?? 0) + 1);
    }
  }
  const discounts = counts.map((table) => {
    let once = 0;
    let twice = 0;
    for (const count of table.values()) {
      if (count === 1) once += 1;
      else if (count === 2) twice += 1;
    }
    const discount = once + 2 * twice === 0 ? 0.5 : once / (once + 2 * twice);
    return Math.min(0.95, Math.max(0.05, discount));
  });
  // Per history: total count and number of distinct continuations, per order.
  const histories = counts.map((table) => {
    const totals = new Map<string, { total: number; distinct: number }>();
    for (const [gram, count] of table) {
      const cut = gram.lastIndexOf(' ');
      const history = cut < 0 ? '' : gram.slice(0, cut);
      const entry = totals.get(history) ?? { total: 0, distinct: 0 };
      entry.total += count;
      entry.distinct += 1;
      totals.set(history, entry);
    }
    return totals;
  });

  const probabilities: Array<Map<string, number>> = Array.from({ length: order }, () => new Map());
  const gamma: Array<Map<string, number>> = Array.from({ length: order }, () => new Map());
  // Unigrams: discounted continuation counts, interpolated with the uniform distribution over the vocabulary.
  const unigramTotals = histories[0].get('') ?? { total: 0, distinct: 0 };
  const predicted = [...vocabulary].filter((word) => word !== SENTENCE_START);
  const uniformShare = unigramTotals.total === 0 ? 1 : (discounts[0] * unigramTotals.distinct) / unigramTotals.total;
  for (const word of predicted) {
    const count = counts[0].get(word) ?? 0;
    const seen = unigramTotals.total === 0 ? 0 : Math.max(count - discounts[0], 0) / unigramTotals.total;
    probabilities[0].set(word, seen + uniformShare / predicted.length);
  }
  for (let n = 2; n <= order; n += 1) {
    const discount = discounts[n - 1];
    for (const [history, { total, distinct }] of histories[n - 1])
      gamma[n - 1].set(history, (discount * distinct) / total);
    for (const [gram, count] of counts[n - 1]) {
      const cut = gram.lastIndexOf(' ');
      const history = gram.slice(0, cut);
      const { total } = histories[n - 1].get(history)!;
      const lower = lowerProbability(probabilities, gram.slice(gram.indexOf(' ') + 1), n - 1);
      probabilities[n - 1].set(gram, Math.max(count - discount, 0) / total + gamma[n - 1].get(history)! * lower);
    }
  }

  const orders: Array<Map<string, ArpaEntry>> = probabilities.map((table, index) => {
    const entries = new Map<string, ArpaEntry>();
    const n = index + 1;
    const nextGamma = n < order ? gamma[n] : undefined;
    for (const [gram, probability] of table) {
      const backoff = nextGamma?.get(gram);
      entries.set(gram, {
        logProbability: Math.log10(probability),
        ...(backoff !== undefined ? { logBackoff: Math.log10(backoff) } : {}),
      });
    }
    return entries;
  });
  // <s> is never predicted; it only starts histories.
  const startBackoff = order > 1 ? gamma[1].get(SENTENCE_START) : undefined;
  orders[0].set(SENTENCE_START, {
    logProbability: -99,
    ...(startBackoff !== undefined ? { logBackoff: Math.log10(startBackoff) } : {}),
  });
  return { order, orders, vocabulary: [...vocabulary], discounts };
}

/**
 * The interpolated probability of `gram` (n words) at order n, backing off through shorter histories
 * for n-grams that order never counted.
 */
function lowerProbability(probabilities: ReadonlyArray<ReadonlyMap<string, number>>, gram: string, n: number): number {
  const own = probabilities[n - 1].get(gram);
  if (own !== undefined) return own;
  if (n === 1) throw new Error(`no unigram for "${gram}"`);
  // Not reached for suffixes of counted n-grams (every suffix is counted at the lower order); kept for safety.
  return lowerProbability(probabilities, gram.slice(gram.indexOf(' ') + 1), n - 1);
}

/** log10 p(word | history) under the model's back-off (ARPA) reading; history is the preceding words. */
export function logProbability(model: NgramModel, history: readonly string[], word: string): number {
  const context = history.slice(Math.max(0, history.length - model.order + 1));
  let backoff = 0;
  for (let start = 0; start <= context.length; start += 1) {
    const used = context.slice(start);
    const entry = model.orders[used.length].get(key([...used, word]));
    if (entry) return backoff + entry.logProbability;
    backoff += model.orders[used.length - 1]?.get(key(used))?.logBackoff ?? 0;
  }
  return Number.NEGATIVE_INFINITY;
}

/** Perplexity and out-of-vocabulary count of sentences (OOV words are skipped, as SRILM does). */
export function perplexity(
  model: NgramModel,
  sentences: Iterable<readonly string[]>,
): { perplexity: number; words: number; outOfVocabulary: number } {
  const known = new Set(model.vocabulary);
  let logSum = 0;
  let predicted = 0;
  let words = 0;
  let outOfVocabulary = 0;
  for (const sentence of sentences) {
    let history = [SENTENCE_START];
    for (const word of [...sentence, SENTENCE_END]) {
      if (word !== SENTENCE_END) words += 1;
      if (!known.has(word)) {
        outOfVocabulary += 1;
        history = [SENTENCE_START];
        continue;
      }
      logSum += logProbability(model, history, word);
      predicted += 1;
      history = [...history, word];
    }
  }
  return { perplexity: predicted === 0 ? Number.NaN : 10 ** (-logSum / predicted), words, outOfVocabulary };
}

/** The model as an ARPA file's text. */
export function toArpa(model: NgramModel): string {
  const lines = ['\\data\\'];
  model.orders.forEach((table, index) => lines.push(`ngram ${index + 1}=${table.size}`));
  const number = (value: number) => (value <= -99 ? '-99' : value.toFixed(6));
  model.orders.forEach((table, index) => {
    lines.push('', `\\${index + 1}-grams:`);
    for (const gram of [...table.keys()].sort()) {
      const entry = table.get(gram)!;
      lines.push(
        `${number(entry.logProbability)}\t${gram}${entry.logBackoff !== undefined ? `\t${number(entry.logBackoff)}` : ''}`,
      );
    }
  });
  lines.push('', '\\end\\', '');
  return lines.join('\n');
}
