import test from 'ava';
import koffi from 'koffi';
import { PocketSphinxDecoder } from '../src/engines/pocketsphinx/pocketsphinx-library';
import { requireEnginePackages } from './support/system-packages';

// sphinxbase writes its log through one FILE shared by every thread of the process. A decoder given `-logfn`
// opened a new FILE in ps_init and fclosed the previous one while decoders loading in other recognition workers
// still wrote to it: the heap was corrupted (free(): invalid next size, a SIGSEGV in tcache_thread_shutdown as a
// worker exited, workers deadlocked on the freed FILE's lock). Decoders must leave that FILE alone.

test.before(() => requireEnginePackages());

test.serial("loading a decoder leaves sphinxbase's shared log off: no FILE for other threads to lose", (t) => {
  const errGetLogfp = koffi.load('libsphinxbase.so.3').func('void* err_get_logfp()') as () => unknown;
  const decoder = new PocketSphinxDecoder();
  try {
    t.is(errGetLogfp(), null);
  } finally {
    decoder.free();
  }
  t.is(errGetLogfp(), null);
});

test.serial('a log file per decoder (-logfn) is refused', (t) => {
  t.throws(() => new PocketSphinxDecoder(undefined, 'wideband', ['-logfn', '/dev/null']), {
    message: /-logfn is not supported/,
  });
});
