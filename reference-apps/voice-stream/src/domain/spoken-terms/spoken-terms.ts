/** A Spoken Terms collection as listed: its term lists' languages and sizes, no terms. */
export interface SpokenTermsInfo {
  readonly id: string;
  readonly name: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly termLists: ReadonlyArray<{ readonly lang: string; readonly entryCount: number }>;
}

/** A collection's terms for one language. */
export interface TermList {
  readonly lang: string;
  readonly terms: readonly string[];
}

/** DeepL's limits: 300 characters per term list, 1024 UTF-8 bytes per name; collections per key are this server's. */
export const SPOKEN_TERMS_LIMITS = { listCharacters: 300, nameBytes: 1024, collectionsPerKey: 1000 } as const;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const EDGE_SPACE = /^\s|\s$/u;

/**
 * The terms of a term list as DeepL defines them: newline-separated (a final newline allowed), case-sensitive, none
 * empty or repeated, no control characters or leading/trailing whitespace, 300 characters in all.
 */
export function parseTermList(entries: string): { terms: string[] } | { problem: string } {
  const lines = entries.endsWith('\n') ? entries.slice(0, -1).split('\n') : entries.split('\n');
  const terms: string[] = [];
  let characters = 0;
  for (const [index, term] of lines.entries()) {
    const where = `line ${index + 1}`;
    if (term === '') return { problem: `${where}: the term is empty` };
    if (CONTROL.test(term)) return { problem: `${where}: the term contains a control character` };
    if (EDGE_SPACE.test(term)) return { problem: `${where}: the term has leading or trailing whitespace` };
    const first = terms.indexOf(term);
    if (first >= 0) return { problem: `${where}: "${term}" repeats line ${first + 1}` };
    characters += [...term].length;
    terms.push(term);
  }
  if (characters > SPOKEN_TERMS_LIMITS.listCharacters)
    return {
      problem: `the terms hold ${characters} characters; a term list holds at most ${SPOKEN_TERMS_LIMITS.listCharacters}`,
    };
  return { terms };
}

/** The words of a term as a recogniser's dictionary spells them: lower case, letters, digits, `'` and `-` only. */
export function termWords(term: string): string[] {
  return term
    .toLowerCase()
    .split(/\s+/u)
    .map((word) => word.replace(/[^\p{L}\p{N}'-]/gu, '').replace(/^['-]+|['-]+$/g, ''))
    .filter((word) => word !== '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Recognised text with every spoken term written as the term list writes it ("deepl" as "DeepL", "new relic" as
 * "New Relic"): recognisers give their dictionary's lower-case words. Longest terms first.
 */
export function spellTerms(text: string, terms: readonly string[]): string {
  let spelled = text;
  for (const term of [...terms].sort((a, b) => b.length - a.length)) {
    const words = termWords(term);
    if (words.length === 0) continue;
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}'-])${words.map(escapeRegExp).join('\\s+')}(?![\\p{L}\\p{N}'-])`,
      'giu',
    );
    spelled = spelled.replace(pattern, term);
  }
  return spelled;
}
