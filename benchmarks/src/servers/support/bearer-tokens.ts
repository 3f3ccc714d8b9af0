/** Scenario 5's token provider: a Bearer token resolves to a user, or to nothing. */
import { BEARER_TOKEN, BENCH_USER } from '../../contract/routes';

export type BenchUser = typeof BENCH_USER;

const usersByToken = new Map<string, BenchUser>([[BEARER_TOKEN, BENCH_USER]]);

/** Reads `Authorization: Bearer <token>`; undefined when absent, malformed or unknown. */
export function userFromAuthorization(header: string | undefined): BenchUser | undefined {
  if (!header?.startsWith('Bearer ')) return undefined;
  return usersByToken.get(header.slice(7).trim());
}
