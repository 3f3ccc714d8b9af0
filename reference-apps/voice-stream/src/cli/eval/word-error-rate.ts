/** Lower-case words without punctuation (apostrophes kept: "o'clock"). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9'\s]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** Word error rate: word-level edit distance divided by the reference length. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const { errors, referenceWords } = wordErrors(reference, hypothesis);
  return errors / Math.max(1, referenceWords);
}

/** Substitutions, deletions and insertions (word-level edit distance), and the reference's length. */
export function wordErrors(reference: string, hypothesis: string): { errors: number; referenceWords: number } {
  const expected = words(reference);
  const actual = words(hypothesis);
  let previous = Array.from({ length: actual.length + 1 }, (_, index) => index);
  for (let row = 1; row <= expected.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= actual.length; column += 1) {
      const substitution = previous[column - 1] + (expected[row - 1] === actual[column - 1] ? 0 : 1);
      current[column] = Math.min(substitution, previous[column] + 1, current[column - 1] + 1);
    }
    previous = current;
  }
  return { errors: previous[actual.length], referenceWords: expected.length };
}
