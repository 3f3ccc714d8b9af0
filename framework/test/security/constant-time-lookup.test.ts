import test from 'ava';
import crypto from 'node:crypto';
import { BearerAuthenticationProvider, Context, GET, Path, RestBuilder, User } from '../../src/index';
import { listen } from '../support/server';

/**
 * Guessing tokens by timing: the work a token lookup does must not depend on which token matched, how close
 * a guess came, or whether one matched at all. Counted rather than timed: every lookup of the provider's
 * table compares the candidate with every token, in constant time (crypto.timingSafeEqual), and nothing
 * else decides the answer.
 */

@Path('/')
class Me {
  @GET @Path('/me') me(@Context() user: User): string {
    return user.name;
  }
}

const tokens = Object.fromEntries(
  Array.from({ length: 20 }, (_, i) => [`tok_${String(i).padStart(2, '0')}_${'x'.repeat(i)}`, new User(`user${i}`)]),
);
const names = Object.keys(tokens);

test('Bearer tokens of fromTokens: every lookup compares with all 20 tokens in constant time, whichever matched and for a miss', async (t) => {
  const server = await listen(
    new RestBuilder().register(Me).authenticateWith(BearerAuthenticationProvider.fromTokens(tokens)).build(),
  );
  t.teardown(() => server.close());
  const original = crypto.timingSafeEqual;
  let comparisons = 0;
  crypto.timingSafeEqual = ((a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
    comparisons++;
    return original(a, b);
  }) as typeof crypto.timingSafeEqual;
  t.teardown(() => {
    crypto.timingSafeEqual = original;
  });
  const candidates: Array<[string, number]> = [
    [names[0]!, 200], // the first token
    [names[10]!, 200], // one in the middle
    [names[19]!, 200], // the last
    [`${names[19]!.slice(0, -1)}y`, 401], // a near miss of the last, same length
    ['tok_05_xx', 401], // a prefix of a token
    ['z'.repeat(500), 401], // longer than every token
  ];
  for (const [token, status] of candidates) {
    const before = comparisons;
    const res = await fetch(`${server.url}/me`, { headers: { authorization: `Bearer ${token}` } });
    t.is(res.status, status, token);
    t.is(comparisons - before, names.length, `comparisons for ${token.slice(0, 20)}`);
  }
});
