import test from 'ava';
import { releaseFreeMemory } from '../src/engines/pocketsphinx/native-memory';

test('freed malloc memory is handed back to the system on glibc (what a recognition worker does after freeing a decoder)', (t) => {
  // Free a large batch of small allocations (Buffers under the pool size are malloc'd natively).
  let held: Buffer[] | null = Array.from({ length: 20_000 }, () => Buffer.allocUnsafeSlow(2048));
  t.is(held.length, 20_000);
  held = null;
  t.true(releaseFreeMemory());
  t.true(releaseFreeMemory(), 'a second call is harmless');
});
