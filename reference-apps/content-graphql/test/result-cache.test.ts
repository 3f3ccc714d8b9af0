import test from 'ava';
import { ResultCache } from '../src/graphql/result-cache';

// The result cache is keyed by client input: it must stay within its bounds whatever clients send.

test('the result cache keeps at most its entry count, least recently used going first', (t) => {
  const cache = new ResultCache(3, 1_000_000);
  for (const key of ['a', 'b', 'c']) cache.set(key, `{"data":"${key}"}`);
  t.is(cache.get('a'), '{"data":"a"}', 'reading a makes b the least recently used');
  cache.set('d', '{"data":"d"}');
  t.is(cache.size, 3);
  t.is(cache.get('b'), undefined);
  t.deepEqual(['a', 'c', 'd'].map((key) => cache.get(key)), ['{"data":"a"}', '{"data":"c"}', '{"data":"d"}']);
});

test('the result cache keeps at most its size in characters, and never an entry over a quarter of it', (t) => {
  const cache = new ResultCache(1000, 1000);
  for (let i = 0; i < 20; i++) cache.set(`key${i}`, 'x'.repeat(95));
  t.true(cache.usedChars <= 1000, `${cache.usedChars} characters held`);
  t.is(cache.size, 10);
  cache.set('huge', 'x'.repeat(300));
  t.is(cache.get('huge'), undefined, 'an answer over a quarter of the budget is not kept');
  t.is(cache.size, 10, 'and evicted nothing');
  cache.clear();
  t.is(cache.usedChars, 0);
});
