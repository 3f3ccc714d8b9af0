/** The corpus's seed: CORPUS_SEED when set (to replay a run), else a fixed one, so CI tries the same cases every time. */
export function corpusSeed(fallback = 20261125): number {
  const text = process.env.CORPUS_SEED;
  if (text === undefined || text === '') return fallback;
  const seed = Number(text);
  if (!Number.isInteger(seed)) throw new Error(`CORPUS_SEED must be an integer, got "${text}"`);
  return seed;
}
