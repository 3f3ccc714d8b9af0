import test from 'ava';
import { ManualClock, systemClock } from '../src/index';

test('the system clock follows Date.now', (t) => {
  const before = Date.now();
  const now = systemClock.now();
  t.true(now >= before && now <= Date.now());
});

test('a manual clock moves only when told', (t) => {
  const clock = new ManualClock(1_000);
  t.is(clock.now(), 1_000);
  clock.advance(3_600_000);
  t.is(clock.now(), 3_601_000);
  clock.set(5);
  t.is(clock.now(), 5);
});
