/**
 * espeak-ng's IPA for US English (`espeak-ng -q --ipa -v en-us`) in the phones of PocketSphinx's US English model
 * (the CMU set without stress marks). Multi-character symbols first: the reader takes the longest that matches.
 */
const SYMBOLS: ReadonlyArray<readonly [string, readonly string[]]> = [
  // Diphthongs and affricates.
  ['eɪ', ['EY']],
  ['aɪ', ['AY']],
  ['aʊ', ['AW']],
  ['ɔɪ', ['OY']],
  ['oʊ', ['OW']],
  ['əʊ', ['OW']],
  ['tʃ', ['CH']],
  ['dʒ', ['JH']],
  // Syllabic consonants: a schwa before them, as the CMU dictionary writes "button", "bottle".
  ['n̩', ['AH', 'N']],
  ['l̩', ['AH', 'L']],
  ['m̩', ['AH', 'M']],
  // Vowels.
  ['iː', ['IY']],
  ['i', ['IY']],
  ['ɪ', ['IH']],
  ['ᵻ', ['IH']],
  ['e', ['EH']],
  ['ɛ', ['EH']],
  ['æ', ['AE']],
  ['a', ['AA']],
  ['ɑː', ['AA']],
  ['ɑ', ['AA']],
  ['ɒ', ['AA']],
  ['ɔː', ['AO']],
  ['ɔ', ['AO']],
  ['oː', ['AO']],
  ['o', ['OW']],
  ['ʊ', ['UH']],
  ['uː', ['UW']],
  ['u', ['UW']],
  ['ʌ', ['AH']],
  ['ə', ['AH']],
  ['ɐ', ['AH']],
  ['ɚ', ['ER']],
  ['ɜː', ['ER']],
  ['ɜ', ['ER']],
  // Consonants.
  ['p', ['P']],
  ['b', ['B']],
  ['t', ['T']],
  ['d', ['D']],
  ['k', ['K']],
  ['g', ['G']],
  ['ɡ', ['G']],
  ['f', ['F']],
  ['v', ['V']],
  ['θ', ['TH']],
  ['ð', ['DH']],
  ['s', ['S']],
  ['z', ['Z']],
  ['ʃ', ['SH']],
  ['ʒ', ['ZH']],
  ['h', ['HH']],
  ['x', ['K']],
  ['m', ['M']],
  ['n', ['N']],
  ['ŋ', ['NG']],
  ['l', ['L']],
  ['ɬ', ['L']],
  ['ɹ', ['R']],
  ['r', ['R']],
  ['w', ['W']],
  ['j', ['Y']],
  // The flap of "butter" and the glottal stop of "button" are a T in the CMU dictionary.
  ['ɾ', ['T']],
  ['ʔ', ['T']],
];

/** Marks that carry no phone: stress, length, syllable breaks, links, word gaps (the tie bar is removed first). */
const SILENT = /[ˈˌː.‿\s-]/u;
/** The combining tie bar of t͡ʃ: a mark on a letter, dropped before reading. */
const TIE = /\u0361/g;

/**
 * The CMU phones of one word's espeak-ng IPA, or undefined when a symbol has no mapping (the word is then left
 * out rather than given a wrong pronunciation). A phone repeated by the IPA (espeak writes "ɹɹ") is kept once.
 */
export function ipaToCmu(ipa: string): string[] | undefined {
  const phones: string[] = [];
  let position = 0;
  // Decomposed, so that a syllabic mark (U+0329) follows its consonant as the table writes it.
  const text = ipa.normalize('NFD').replace(TIE, '');
  while (position < text.length) {
    const character = text[position];
    if (SILENT.test(character)) {
      position += 1;
      continue;
    }
    const match = SYMBOLS.find(([symbol]) => text.startsWith(symbol, position));
    if (!match) return undefined;
    for (const phone of match[1]) if (phones.at(-1) !== phone || !isConsonant(phone)) phones.push(phone);
    position += match[0].length;
  }
  return phones.length > 0 ? phones : undefined;
}

const VOWELS = new Set(['AA', 'AE', 'AH', 'AO', 'AW', 'AY', 'EH', 'ER', 'EY', 'IH', 'IY', 'OW', 'OY', 'UH', 'UW']);

function isConsonant(phone: string): boolean {
  return !VOWELS.has(phone);
}
