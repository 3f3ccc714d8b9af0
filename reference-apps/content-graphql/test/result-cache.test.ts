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
  t.deepEqual(
    ['a', 'c', 'd'].map((key) => cache.get(key)),
    ['{"data":"a"}', '{"data":"c"}', '{"data":"d"}'],
  );
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

test('answers by request body: the same bytes, schema and site find the answer as UTF-8 bytes; anything else does not', (t) => {
  const cache = new ResultCache();
  const body = Buffer.from('{"query":"{ entry(slug: \\"été\\") { title } }"}');
  cache.setRawBodyAnswer('schema-a', 1, body, '{"data":{"title":"Été"}}');
  t.deepEqual(cache.rawBodyAnswer('schema-a', 1, Buffer.from(body)), Buffer.from('{"data":{"title":"Été"}}', 'utf8'));
  const lastByteChanged = Buffer.from(body);
  lastByteChanged[lastByteChanged.length - 1] = 0x20;
  t.is(
    cache.rawBodyAnswer('schema-a', 1, lastByteChanged),
    undefined,
    'a body of the same length that differs in one byte',
  );
  t.is(cache.rawBodyAnswer('schema-b', 1, body), undefined, 'another schema (another token)');
  t.is(cache.rawBodyAnswer('schema-a', 2, body), undefined, 'another site');
  body.fill(0x20);
  t.truthy(
    cache.rawBodyAnswer('schema-a', 1, Buffer.from('{"query":"{ entry(slug: \\"été\\") { title } }"}')),
    'the body was copied: memory reused by the request does not change the key',
  );
});

test('answers by request body are dropped with the cache: on clear() and when the cached results expire', (t) => {
  const cache = new ResultCache();
  const body = Buffer.from('{"query":"{ ping }"}');
  cache.setRawBodyAnswer('s', 1, body, '{"data":{"ping":"pong"}}');
  cache.clear();
  t.is(cache.rawBodyAnswer('s', 1, body), undefined, 'clear()');
  cache.setRawBodyAnswer('s', 1, body, '{"data":{"ping":"pong"}}');
  cache.expireAt(1000);
  t.truthy(cache.rawBodyAnswer('s', 1, body, 999));
  t.is(cache.rawBodyAnswer('s', 1, body, 1000), undefined, 'past the expiry');
});

test('answers by request body stay within their bounds: bodies sharing a length evict each other only, and past the count or size everything goes', (t) => {
  const cache = new ResultCache(10, 4000);
  const sameLength = (i: number) => Buffer.from(`{"query":"{ a${i} }"}`);
  for (let i = 0; i < 6; i++) cache.setRawBodyAnswer('s', 1, sameLength(i), `{"n":${i}}`);
  t.deepEqual(
    [0, 1, 2, 3, 4, 5].map((i) => cache.rawBodyAnswer('s', 1, sameLength(i))?.toString()),
    [undefined, undefined, '{"n":2}', '{"n":3}', '{"n":4}', '{"n":5}'],
    'four bodies of one length are kept, the oldest go',
  );
  const other = Buffer.from('{"query":"{ a much longer query }"}');
  cache.setRawBodyAnswer('s', 1, other, '{"other":true}');
  t.is(cache.rawBodyUsage.entries, 5);
  for (let i = 0; i < 6; i++)
    cache.setRawBodyAnswer('s', 1, Buffer.from(`{"query":"{ b${'x'.repeat(i + 40)} }"}`), '{}');
  t.true(cache.rawBodyUsage.entries <= 10, `${cache.rawBodyUsage.entries} entries held`);
  t.is(cache.rawBodyAnswer('s', 1, other), undefined, 'the eleventh entry dropped everything held before it');
  cache.clear();
  cache.setRawBodyAnswer('s', 1, Buffer.from('{"q":1}'), 'x'.repeat(600));
  t.is(
    cache.rawBodyUsage.entries,
    0,
    "an answer over a quarter of the budget (half the result cache's characters) is not kept",
  );
  for (let i = 0; i < 8; i++)
    cache.setRawBodyAnswer('s', 1, Buffer.from(`{"q":${'1'.repeat(i + 1)}}`), 'y'.repeat(400));
  t.true(cache.rawBodyUsage.bytes <= 2000, `${cache.rawBodyUsage.bytes} bytes held`);
});
