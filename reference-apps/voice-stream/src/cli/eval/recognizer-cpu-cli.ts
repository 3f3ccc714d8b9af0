#!/usr/bin/env node
/**
 * CPU the recogniser spends per second of audio, whatever the machine's load (CPU time, not wall time):
 *   npm run recognizer-cpu -w voice-stream -- [--voice flite-rms] [--sentences 5] [--repeat 3] [--decoder-args="-lw 8"]
 * Streams the first tuning sentences (0.8 s pauses, 16 kHz PCM) through one PocketSphinx decoder in this thread,
 * as a session's worker does (100 ms steps, partial hypotheses every 200 ms, end of each utterance), and prints
 * the decoder's load time and the CPU seconds per audio second (the real-time factor on one core).
 */
import { parseArgs } from 'node:util';
import { PocketSphinxDecoder } from '../../engines/pocketsphinx/pocketsphinx-library';
import { UtteranceTracker } from '../../engines/pocketsphinx/utterance-tracker';
import { passagePcm } from './eval-audio';
import { EVAL_VOICES } from './eval-conditions';
import { TUNING_SENTENCES } from './eval-sentences';

const flags = parseArgs({
  args: process.argv.slice(2),
  options: {
    voice: { type: 'string', default: 'flite-rms' },
    sentences: { type: 'string', default: '5' },
    repeat: { type: 'string', default: '3' },
    'decoder-args': { type: 'string' },
  },
  strict: true,
}).values;
const voice = EVAL_VOICES.find((candidate) => candidate.name === flags.voice);
if (!voice)
  throw new Error(`unknown voice ${flags.voice}; one of ${EVAL_VOICES.map((known) => known.name).join(', ')}`);
const pcm = passagePcm(
  { voice, sampleRate: 16000, format: 'pcm', noise: null },
  TUNING_SENTENCES.slice(0, Number(flags.sentences)),
);
const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
const audioSeconds = samples.length / 16000;
const extra = flags['decoder-args']?.split(/\s+/).filter(Boolean) ?? [];
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};
for (let round = 0; round < Number(flags.repeat); round += 1) {
  const loadStart = process.cpuUsage();
  const decoder = new PocketSphinxDecoder(undefined, 'wideband', extra);
  const loadCpu = cpuSeconds(loadStart);
  const decodeStart = process.cpuUsage();
  const concluded: string[] = [];
  const tracker = new UtteranceTracker(decoder, {
    tentative: () => undefined,
    concluded: (segment) => concluded.push(segment.text),
  });
  tracker.feed(samples);
  tracker.finish();
  const decodeCpu = cpuSeconds(decodeStart);
  decoder.free();
  console.log(
    `round ${round + 1}: load ${loadCpu.toFixed(2)} s CPU; ${audioSeconds.toFixed(1)} s of audio in ${decodeCpu.toFixed(2)} s CPU = ${(decodeCpu / audioSeconds).toFixed(3)} s per audio second | ${concluded.join(' / ')}`,
  );
}
