import test from 'ava';
import { execFileSync } from 'node:child_process';
import { encodePassage, passagePcm, resample } from '../src/cli/eval/eval-audio';
import { EVAL_VOICES, type EvalVoice } from '../src/cli/eval/eval-conditions';
import { TUNING_SENTENCES } from '../src/cli/eval/eval-sentences';
import { BandwidthDetector } from '../src/engines/pocketsphinx/bandwidth-detector';
import { requireEnginePackages } from './support/system-packages';

test.before(() => requireEnginePackages(['sox']));

const voice = (name: string): EvalVoice => EVAL_VOICES.find((candidate) => candidate.name === name)!;
const samplesOf = (pcm: Buffer) => new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);

/** What the server's recogniser receives for a passage sent at `rate` in `format`: 16 kHz PCM. */
function received(name: string, rate: 8000 | 16000, format: 'pcm' | 'opus'): Int16Array {
  const pcm = passagePcm({ voice: voice(name), sampleRate: rate, format, noise: null }, TUNING_SENTENCES.slice(0, 2));
  if (format === 'pcm') return samplesOf(resample(pcm, rate, 16000));
  const ogg = encodePassage(pcm, rate, 'opus').bytes;
  // As the server's ffmpeg decoder does: Ogg Opus in, 16 kHz PCM out.
  return samplesOf(
    execFileSync(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'ogg',
        '-i',
        'pipe:0',
        '-f',
        's16le',
        '-ac',
        '1',
        '-ar',
        '16000',
        'pipe:1',
      ],
      { input: ogg, maxBuffer: 64 << 20 },
    ),
  );
}

function verdictOf(samples: Int16Array): { verdict: string; highShare: number } {
  const detector = new BandwidthDetector();
  let verdict: string | undefined;
  for (let offset = 0; offset < samples.length && !verdict; offset += 1600)
    verdict = detector.feed(samples.subarray(offset, offset + 1600));
  return { verdict: verdict ?? detector.verdict(), highShare: detector.highShare };
}

for (const name of ['flite-rms', 'flite-slt', 'espeak-en-us-140', 'espeak-en-gb-scotland-175']) {
  for (const format of ['pcm', 'opus'] as const) {
    test(`${name}, ${format}: 8 kHz audio is heard as narrowband, 16 kHz as wideband`, (t) => {
      const narrow = verdictOf(received(name, 8000, format));
      const wide = verdictOf(received(name, 16000, format));
      t.log(
        `share of energy above 4.4 kHz: 8 kHz ${narrow.highShare.toExponential(2)}, 16 kHz ${wide.highShare.toExponential(2)}`,
      );
      t.is(narrow.verdict, 'narrowband');
      t.is(wide.verdict, 'wideband');
    });
  }
}

test('silence alone is wideband (the model as shipped), and no verdict comes before enough loud audio', (t) => {
  const detector = new BandwidthDetector();
  t.is(detector.feed(new Int16Array(16000)), undefined);
  t.is(detector.verdict(), 'wideband');
});
