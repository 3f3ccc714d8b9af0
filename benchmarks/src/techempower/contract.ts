/**
 * What every TechEmpower implementation answers, from the Framework Benchmarks' test requirements
 * ("Project Information Framework Tests Overview"): the six test types' paths, bodies and rules.
 */

export const PATHS = {
  json: '/json',
  db: '/db',
  queries: '/queries',
  fortunes: '/fortunes',
  updates: '/updates',
  plaintext: '/plaintext',
} as const;

export const HELLO_MESSAGE = 'Hello, World!';
/** The World table's row count; ids and random numbers are 1..WORLD_ROWS. */
export const WORLD_ROWS = 10_000;
/** `queries` is clamped to 1..MAX_QUERIES; a missing, non-integer or smaller value counts as 1. */
export const MAX_QUERIES = 500;
/** The fortune every /fortunes request adds to the list before sorting (never stored). */
export const EXTRA_FORTUNE_MESSAGE = 'Additional fortune added at request time.';

export interface World {
  id: number;
  randomNumber: number;
}

export interface Fortune {
  id: number;
  message: string;
}

/** The Fortune table's twelve rows, as the benchmark's database set-up stores them. */
export const FORTUNES: readonly Fortune[] = [
  { id: 1, message: 'fortune: No such file or directory' },
  { id: 2, message: "A computer scientist is someone who fixes things that aren't broken." },
  { id: 3, message: 'After enough decimal places, nobody gives a damn.' },
  { id: 4, message: 'A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1' },
  { id: 5, message: 'A computer program does what you tell it to do, not what you want it to do.' },
  { id: 6, message: 'Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen' },
  { id: 7, message: 'Any program that runs right is obsolete.' },
  { id: 8, message: 'A list is only as strong as its weakest link. — Donald Knuth' },
  { id: 9, message: 'Feature: A bug with seniority.' },
  { id: 10, message: 'Computers make very fast, very accurate mistakes.' },
  { id: 11, message: '<script>alert("This should not be displayed in a browser alert box.");</script>' },
  { id: 12, message: 'フレームワークのベンチマーク' },
];

/** The `queries` parameter as the rules read it: 1..500, 1 when missing or not an integer. */
export function clampQueries(text: string | undefined | null): number {
  const value = text ? Number.parseInt(text, 10) : Number.NaN;
  if (!(value >= 1)) return 1;
  return Math.min(value, MAX_QUERIES);
}

/** A random id or number in 1..10,000. */
export function randomWorldNumber(): number {
  return ((Math.random() * WORLD_ROWS) | 0) + 1;
}
