import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { mixtureWeightsFile, readSendump } from '../src/cli/adapt/sphinx-model-files';
import { DEFAULT_MODEL_DIRECTORY } from '../src/engines/pocketsphinx/pocketsphinx-library';
import { requireEnginePackages } from './support/system-packages';

// The acoustic adaptation (npm run adapt) rebuilds sphinxtrain's mixture_weights from the model's sendump. Checked
// against sphinxtrain itself: mk_s2sendump, given the rebuilt file, writes the model's sendump back.

const SENDUMP = path.join(DEFAULT_MODEL_DIRECTORY, 'en-us', 'sendump');

test.before(() => requireEnginePackages(['sphinxtrain', 'pocketsphinx']));

test('the shipped sendump reads as 5126 senones x 3 streams x 128 densities of distributions', (t) => {
  const mixture = readSendump(readFileSync(SENDUMP));
  t.deepEqual([mixture.senones, mixture.features, mixture.densities], [5126, 3, 128]);
  for (const row of [0, 1, 7000, 5126 * 3 - 1]) {
    const weights = mixture.weights.subarray(row * 128, (row + 1) * 128);
    t.true(Math.abs(weights.reduce((sum, weight) => sum + weight, 0) - 1) < 1e-5);
    t.true(weights.every((weight) => weight > 0 && weight <= 1));
  }
});

test('mk_s2sendump turns the rebuilt mixture_weights back into the shipped sendump', (t) => {
  const folder = mkdtempSync(path.join(tmpdir(), 'voice-stream-sendump-'));
  try {
    const original = readFileSync(SENDUMP);
    const mdef = path.join(folder, 'mdef.txt');
    execFileSync('pocketsphinx_mdef_convert', ['-text', path.join(DEFAULT_MODEL_DIRECTORY, 'en-us', 'mdef'), mdef], {
      stdio: 'pipe',
    });
    writeFileSync(path.join(folder, 'mixture_weights'), mixtureWeightsFile(readSendump(original)));
    const again = path.join(folder, 'sendump');
    execFileSync(
      '/usr/lib/sphinxtrain/mk_s2sendump',
      ['-pocketsphinx', 'yes', '-moddeffn', mdef, '-mixwfn', path.join(folder, 'mixture_weights'), '-sendumpfn', again],
      { stdio: 'pipe' },
    );
    const rebuilt = readFileSync(again);
    t.is(rebuilt.length, original.length);
    const weights = 5126 * 3 * 128;
    const start = original.length - weights;
    t.true(rebuilt.subarray(0, start).equals(original.subarray(0, start)), 'same header');
    // mk_s2sendump floors weights at 1e-5 (-mwfloor), a quantised value of about 112: every weight above the
    // floor comes back exactly.
    let compared = 0;
    let different = 0;
    for (let index = start; index < original.length; index += 1) {
      if (original[index] >= 110) continue;
      compared += 1;
      if (rebuilt[index] !== original[index]) different += 1;
    }
    t.true(compared > weights / 2);
    t.is(different, 0);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a truncated or foreign sendump is refused with the reason', (t) => {
  const original = readFileSync(SENDUMP);
  t.throws(() => readSendump(original.subarray(0, original.length - 1000)), {
    message: /bytes of weights, expected 3 x 128 x 5126/,
  });
  t.throws(() => readSendump(Buffer.from('not a sendump at all')), { message: /sendump: / });
});
