import test from 'ava';
import { PocketSphinxRecognizer } from '../src/engines/pocketsphinx/pocketsphinx-recognizer';
import type { RecognizedSegment } from '../src/engines/speech-recognizer';
import { spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';
import { wordErrorRate } from './support/word-error-rate';

test.before(() => requireEnginePackages());

test('a recognition worker thread is replaced after its sessions (sessionsPerWorker), and recognition goes on as before', async (t) => {
  t.timeout(120_000);
  const recognizer = new PocketSphinxRecognizer({ idleWorkers: 1, sessionsPerWorker: 2 });
  t.teardown(() => recognizer.close());
  const audio = spokenPassage([TABLE_SENTENCE], 300);
  const threads: number[] = [];
  for (let session = 0; session < 5; session++) {
    const concluded: RecognizedSegment[] = [];
    const stream = recognizer.start({ onTentative: () => undefined, onConcluded: (segment) => concluded.push(segment), onError: (error) => t.fail(error.message) });
    threads.push(recognizer.busyWorkerThreads()[0]!.threadId);
    for (let at = 0; at < audio.length; at += 3200) stream.write(audio.subarray(at, at + 3200));
    await stream.end();
    const transcript = concluded.map((segment) => segment.text).join(' ');
    t.true(wordErrorRate(TABLE_SENTENCE, transcript) <= 0.2, `session ${session}: ${transcript}`);
  }
  // Two sessions per thread: threads 1,1,2,2,3.
  t.is(threads[0], threads[1]);
  t.not(threads[1], threads[2]);
  t.is(threads[2], threads[3]);
  t.not(threads[3], threads[4]);
  t.is(new Set(threads).size, 3);
});

test('sessionsPerWorker below 1 is refused', (t) => {
  t.throws(() => new PocketSphinxRecognizer({ sessionsPerWorker: 0 }), { instanceOf: RangeError });
});
