import test from 'ava';
import { MemoryRateLimitStore } from '../../src/index';
import { hitAt } from '../../src/features/rate-limit/gcra';

const window = { limit: 600, windowMs: 60_000 };

test('600 per minute: a burst of 600, then one every 100 ms', (t) => {
  let now = 0;
  const store = new MemoryRateLimitStore({ now: () => now });
  for (let i = 0; i < 600; i++) t.true(store.hit('k', window).allowed);
  const refused = store.hit('k', window);
  t.false(refused.allowed);
  t.is(refused.retryAfterMs, 100);
  t.is(refused.resetMs, 60_000);
  now += 99;
  t.false(store.hit('k', window).allowed);
  now += 1;
  t.true(store.hit('k', window).allowed);
});

test('limits that do not divide the window evenly allow exactly `limit` at once', (t) => {
  for (const limit of [3, 7, 11, 13, 997]) {
    let state = hitAt(undefined, 5, { limit, windowMs: 1000 });
    let allowed = state.state.allowed ? 1 : 0;
    for (let i = 1; i < limit + 5; i++) {
      state = hitAt(state.tat, 5, { limit, windowMs: 1000 });
      if (state.state.allowed) allowed++;
    }
    t.is(allowed, limit, `limit ${limit}`);
  }
});

test('memory stays bounded under a flood of keys: at most maxKeys, the least recently seen forgotten', (t) => {
  const now = 0;
  const store = new MemoryRateLimitStore({ maxKeys: 1000, now: () => now });
  for (let i = 0; i < 50_000; i++) store.hit(`flood-${i}`, window);
  t.is(store.size, 1000);
  // The most recent keys are still counted.
  t.is(store.hit('flood-49999', window).remaining, 598);
});

test('keys whose bucket is full again are dropped as requests come', (t) => {
  let now = 0;
  const store = new MemoryRateLimitStore({ now: () => now });
  for (let i = 0; i < 100; i++) store.hit(`early-${i}`, { limit: 10, windowMs: 1000 });
  t.is(store.size, 100);
  now += 1000; // every early bucket is full again
  // Each hit drops up to two full buckets from the front: 50 hits clear the 100 early keys.
  for (let i = 0; i < 49; i++) store.hit(`late-${i % 3}`, { limit: 10_000, windowMs: 1000 });
  t.is(store.size, 3 + 100 - 2 * 49);
  store.hit('late-0', { limit: 10_000, windowMs: 1000 });
  t.is(store.size, 3);
});
