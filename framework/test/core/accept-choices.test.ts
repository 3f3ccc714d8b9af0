import test from 'ava';
import { GET, Path, Produces, RestBuilder, inject } from '../../src/index';

/**
 * A route keeps its `@Produces` choice per Accept value, for a bounded number of values (then the kept choices are
 * dropped and made again). Whatever it keeps, every answer must be the one negotiation gives: more distinct Accept
 * values than it keeps, each answered right, and the first ones again, after the drop, answered right too.
 */

@Path('/choices')
class Choices {
  @GET
  @Produces('application/json', 'text/plain')
  both() {
    return { a: 1 };
  }
}

/**
 * The n-th Accept value, and what it must get: each value distinct from its start (a range of a type the route does
 * not produce, with its own q), the three outcomes in turn decided by its end, and the values of two outcomes of the
 * same length: a choice kept under a wrong key (a prefix, the length) is handed to a value it does not fit.
 */
function acceptOf(n: number): { accept: string; status: number; type: string | undefined } {
  const start = `text/html;q=0.${String(n).padStart(3, '0')}`;
  switch (n % 3) {
    case 0:
      return { accept: `${start}, application/json;q=0.9, text/plain;q=0.1`, status: 200, type: 'application/json' };
    case 1:
      return { accept: `${start}, application/json;q=0.1, text/plain;q=0.9`, status: 200, type: 'text/plain' };
    default:
      return { accept: `${start}, application/json;q=0, text/plain;q=0`, status: 406, type: undefined };
  }
}

test('more distinct Accept values than a route keeps, then the first ones again: every answer as negotiated', async (t) => {
  const builder = new RestBuilder().register(Choices);
  const seen = new Set<string>();
  // 200 values (the route keeps 64), then the first 70 again, then every third from the start once more.
  const order = [
    ...Array.from({ length: 200 }, (_, i) => i),
    ...Array.from({ length: 70 }, (_, i) => i),
    ...Array.from({ length: 67 }, (_, i) => 3 * i),
  ];
  const wrong: string[] = [];
  for (const n of order) {
    const { accept, status, type } = acceptOf(n);
    seen.add(accept);
    const r = await inject(builder, { url: '/choices', headers: { accept } });
    const got = r.statusCode === 406 ? undefined : r.headers['content-type'];
    if (r.statusCode !== status || got !== type)
      wrong.push(`#${n} ${accept}: ${r.statusCode} ${String(got)} (expected ${status} ${String(type)})`);
    else if (status === 200 && (type === 'application/json' ? r.body !== '{"a":1}' : r.body !== '[object Object]'))
      wrong.push(`#${n} ${accept}: body ${r.body}`);
  }
  t.is(seen.size, 200, 'the Accept values are distinct');
  t.deepEqual(wrong, []);
});

test('a value seen before and one never seen, in turn past the bound: neither takes the other one’s choice', async (t) => {
  const builder = new RestBuilder().register(Choices);
  const wrong: string[] = [];
  for (let i = 0; i < 150; i++) {
    for (const { accept, status, type } of [acceptOf(0), acceptOf(1), acceptOf(2), acceptOf(3 * i + 301)]) {
      const r = await inject(builder, { url: '/choices', headers: { accept } });
      const got = r.statusCode === 406 ? undefined : r.headers['content-type'];
      if (r.statusCode !== status || got !== type) wrong.push(`${i} ${accept}: ${r.statusCode} ${String(got)}`);
    }
  }
  t.deepEqual(wrong, []);
});

test('one value repeated, then another of the same length, then the first again: each run answered as negotiated', async (t) => {
  const builder = new RestBuilder().register(Choices);
  // acceptOf(0), (1) and (3) have the same length and differ only in their q values: the choice kept for the last
  // value must not be handed to the next one; (2) is refused with a 406.
  t.is(new Set([acceptOf(0), acceptOf(1), acceptOf(3)].map(({ accept }) => accept.length)).size, 1);
  const runs = [0, 0, 0, 1, 1, 3, 1, 2, 2, 0, 1, 0, 2, 3, 3, 1];
  const wrong: string[] = [];
  for (const n of runs) {
    const { accept, status, type } = acceptOf(n);
    const r = await inject(builder, { url: '/choices', headers: { accept } });
    const got = r.statusCode === 406 ? undefined : r.headers['content-type'];
    if (r.statusCode !== status || got !== type) wrong.push(`#${n}: ${r.statusCode} ${String(got)}`);
  }
  t.deepEqual(wrong, []);
});
