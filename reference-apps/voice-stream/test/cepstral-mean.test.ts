import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { readFeatureFile, speechCepstralMean, withCmnInit } from '../src/cli/adapt/sphinx-model-files';
import { whiteNoise } from '../src/cli/eval/eval-audio';
import { DEFAULT_MODEL_DIRECTORY, PocketSphinxDecoder } from '../src/engines/pocketsphinx/pocketsphinx-library';
import { fliteSpeech, silence } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';

// npm run adapt writes the mean cepstrum of each profile's adaptation speech into the adapted model's feat.params
// (-cmninit): the initial mean a one-sentence session is decoded with. Checked on features sphinx_fe computes.

/** A feature file as sphinx_fe writes it: the count of floats, then the floats (little-endian). */
function featureFile(frames: number[][]): Buffer {
  const values = frames.flat();
  const bytes = Buffer.alloc(4 + values.length * 4);
  bytes.writeInt32LE(values.length, 0);
  values.forEach((value, index) => bytes.writeFloatLE(value, 4 + index * 4));
  return bytes;
}

test('a feature file is read as frames of 13, in the byte order its count matches; another file is refused', (t) => {
  const frames = [Array.from({ length: 13 }, (_, index) => index + 0.5), Array.from({ length: 13 }, () => -2)];
  t.deepEqual(
    readFeatureFile(featureFile(frames)).map((frame) => [...frame]),
    frames,
  );
  const big = Buffer.alloc(4 + 13 * 4);
  big.writeInt32BE(13, 0);
  big.writeFloatBE(7.25, 4);
  t.is(readFeatureFile(big)[0][0], 7.25);
  t.throws(() => readFeatureFile(Buffer.alloc(12)), { message: /not a Sphinx feature file/ });
});

test('the speech mean leaves out the quiet frames of each utterance', (t) => {
  const quiet = Array.from({ length: 13 }, (_, index) => (index === 0 ? 5 : 100));
  const loud = (value: number) => Array.from({ length: 13 }, (_, index) => (index === 0 ? 60 : value));
  const utterance = [quiet, quiet, quiet, loud(1), loud(3), loud(1), loud(3), quiet, quiet, quiet].map(
    (frame) => new Float32Array(frame),
  );
  const mean = speechCepstralMean([utterance]);
  t.is(mean[0], 60);
  t.is(mean[5], 2);
});

test('-cmninit is replaced in feat.params, or added when it has none', (t) => {
  t.is(
    withCmnInit('-nfilt 25\n-cmninit 40,3,-1\n-agc none\n', [1, 2.345]),
    '-nfilt 25\n-cmninit 1.00,2.35\n-agc none\n',
  );
  t.is(withCmnInit('-nfilt 25\n', [1]), '-nfilt 25\n-cmninit 1.00\n');
});

test('on flite speech computed by sphinx_fe, the speech mean is above the whole-file mean in energy (c0)', (t) => {
  requireEnginePackages(['sphinxbase-utils']);
  const folder = mkdtempSync(path.join(tmpdir(), 'voice-cmn-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const raw = path.join(folder, 'speech.raw');
  const pcm = Buffer.concat([
    silence(1000),
    fliteSpeech('The weather will be cold and windy this afternoon.'),
    silence(1000),
  ]);
  writeFileSync(raw, pcm);
  const mfc = path.join(folder, 'speech.mfc');
  execFileSync(
    'sphinx_fe',
    [
      '-argfile',
      path.join(DEFAULT_MODEL_DIRECTORY, 'en-us', 'feat.params'),
      '-samprate',
      '16000',
      '-i',
      raw,
      '-o',
      mfc,
      '-raw',
      'yes',
    ],
    { stdio: 'ignore' },
  );
  const frames = readFeatureFile(readFileSync(mfc));
  t.true(frames.length > 300, `${frames.length} frames`);
  const all = frames.reduce((sum, frame) => sum + frame[0], 0) / frames.length;
  const speech = speechCepstralMean([frames]);
  t.is(speech.length, 13);
  t.true(speech[0] > all + 1, `speech c0 ${speech[0].toFixed(1)}, every frame ${all.toFixed(1)}`);
});

test('the decoder weighs its initial mean as 500 frames: a first burst of noise moves it by its share only', (t) => {
  requireEnginePackages(['sox']);
  // Two seconds of white noise (sox, repeatable), from the first sample.
  const samples = whiteNoise(2 * 16000, 16000);
  const heard = (weight: string | undefined) => {
    const decoder = new PocketSphinxDecoder(undefined, 'wideband', weight === undefined ? [] : ['-cmnweight', weight]);
    try {
      const initial = decoder.cepstralMean();
      decoder.startUtterance();
      decoder.process(samples);
      decoder.endUtterance();
      return { initial, after: decoder.cepstralMean() };
    } finally {
      decoder.free();
    }
  };
  const weighed = heard(undefined);
  const unweighed = heard('0');
  t.is(weighed.initial.frames, 500);
  t.is(unweighed.initial.frames, 0);
  t.deepEqual(weighed.initial.mean, unweighed.initial.mean, 'the same -cmninit either way');
  const heardFrames = unweighed.after.frames;
  t.true(heardFrames > 50, `${heardFrames} frames of the noise reached the mean`);
  t.is(weighed.after.frames, 500 + heardFrames);
  // Unweighed, the noise's own mean replaces the initial one; weighed, c0 moves by the noise's share of the frames.
  const start = weighed.initial.mean[0];
  const noiseMean = unweighed.after.mean[0];
  t.true(Math.abs(noiseMean - start) > 5, `noise c0 ${noiseMean.toFixed(1)}, initial ${start.toFixed(1)}`);
  const expected = start + ((noiseMean - start) * heardFrames) / (500 + heardFrames);
  t.true(Math.abs(weighed.after.mean[0] - expected) < 0.5, `c0 ${weighed.after.mean[0]}, expected ${expected}`);
});

test('-cmnweight takes a whole number of frames', (t) => {
  t.throws(() => new PocketSphinxDecoder(undefined, 'wideband', ['-cmnweight', '-3']), {
    message: '-cmnweight is a whole number of frames, not -3',
  });
});
