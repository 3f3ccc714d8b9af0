import test from 'ava';
import type { DecodedWord } from '../src/engines/pocketsphinx/pocketsphinx-library';
import { UtteranceTracker, type UtteranceDecoder } from '../src/engines/pocketsphinx/utterance-tracker';
import type { WorkerSegment } from '../src/engines/pocketsphinx/worker-protocol';

const RATE = 16000;
const STEP = 1600;

/**
 * A decoder that hears each 100 ms step of loud audio as one word: `cold` until an utterance has ended (its
 * cepstral mean still the initial one), `warm` after, as PocketSphinx's live normalisation does. Its frame clock
 * runs on every sample it is fed, across utterances, as PocketSphinx's does.
 */
class FakeDecoder implements UtteranceDecoder {
  inSpeech = false;
  utterances = 0;
  /** Samples fed to each utterance. */
  readonly fed: number[] = [];
  private samples = 0;
  private warm = false;
  private heard: DecodedWord[] = [];

  constructor(readonly redecodesFirstUtterance: boolean) {}

  get frameClock(): number {
    return Math.floor(this.samples / 160);
  }

  startUtterance(): void {
    this.utterances += 1;
    this.fed.push(0);
    this.heard = [];
  }

  process(samples: Int16Array): void {
    const loud = samples.some((sample) => Math.abs(sample) > 1000);
    const startFrame = this.frameClock;
    this.samples += samples.length;
    this.fed[this.fed.length - 1] += samples.length;
    this.inSpeech = loud;
    if (loud) this.heard.push({ word: this.warm ? 'warm' : 'cold', startFrame, endFrame: this.frameClock - 1 });
  }

  words(): DecodedWord[] {
    return [...this.heard];
  }

  endUtterance(): void {
    this.warm = true;
  }
}

const silence = (seconds: number) => new Int16Array(seconds * RATE);
const speech = (seconds: number) => new Int16Array(seconds * RATE).fill(5000);

function run(decoder: FakeDecoder, parts: Int16Array[]) {
  const tentative: Array<WorkerSegment | null> = [];
  const concluded: WorkerSegment[] = [];
  const tracker = new UtteranceTracker(decoder, {
    tentative: (segment) => tentative.push(segment),
    concluded: (segment) => concluded.push(segment),
  });
  // Chunks of odd sizes, as a decoder's output comes.
  for (const part of parts) for (let at = 0; at < part.length; at += 1000) tracker.feed(part.subarray(at, at + 1000));
  tracker.finish();
  return { tentative, concluded };
}

test("a stream's first utterance is concluded from its second pass, with the first pass's times", (t) => {
  const decoder = new FakeDecoder(true);
  const { tentative, concluded } = run(decoder, [silence(2), speech(0.5), silence(1), speech(0.3), silence(0.5)]);
  t.deepEqual(concluded, [
    { text: 'warm warm warm warm warm', startMs: 2000, endMs: 2500 },
    { text: 'warm warm warm', startMs: 3500, endMs: 3800 },
  ]);
  // Tentative segments come from the first pass, as it goes.
  t.true(tentative.some((segment) => segment?.text.startsWith('cold') === true));
  // Utterances: the first, its second pass, the second, and the one left open at the end.
  t.is(decoder.utterances, 4);
  // The second pass decoded the first utterance's speech with a second of what came before it, not all of it.
  t.true(decoder.fed[1]! >= 0.5 * RATE + RATE && decoder.fed[1]! <= 0.5 * RATE + RATE + 2 * STEP, `${decoder.fed[1]}`);
});

test('without a second pass, the first utterance is concluded as its cold pass heard it', (t) => {
  const decoder = new FakeDecoder(false);
  const { concluded } = run(decoder, [silence(2), speech(0.5), silence(1), speech(0.3), silence(0.5)]);
  t.deepEqual(concluded, [
    { text: 'cold cold cold cold cold', startMs: 2000, endMs: 2500 },
    { text: 'warm warm warm', startMs: 3500, endMs: 3800 },
  ]);
  t.is(decoder.utterances, 3);
});

test('a long silence before the first speech neither cuts the utterance nor is kept for the second pass', (t) => {
  const decoder = new FakeDecoder(true);
  const { concluded } = run(decoder, [silence(60), speech(0.4), silence(1), speech(0.2), silence(0.5)]);
  t.deepEqual(concluded, [
    { text: 'warm warm warm warm', startMs: 60000, endMs: 60400 },
    { text: 'warm warm', startMs: 61400, endMs: 61600 },
  ]);
  // At most a second of lead-in, the speech and the step that heard its end.
  t.true(decoder.fed[1]! <= RATE + 0.4 * RATE + 2 * STEP, `second pass fed ${decoder.fed[1]} samples`);
});

test('a stream without speech has no second pass', (t) => {
  const decoder = new FakeDecoder(true);
  const { concluded, tentative } = run(decoder, [silence(5)]);
  t.deepEqual(concluded, []);
  t.deepEqual(tentative, []);
  t.is(decoder.utterances, 1);
});

test('speech longer than 15 s is cut into utterances of 15 s, counted from its start', (t) => {
  const decoder = new FakeDecoder(false);
  const { concluded } = run(decoder, [silence(20), speech(20), silence(1)]);
  t.deepEqual(
    concluded.map((segment) => [segment.startMs, segment.endMs]),
    [
      [20000, 35000],
      [35000, 40000],
    ],
  );
});
