import { parentPort, workerData } from 'node:worker_threads';
import { BandwidthDetector } from './bandwidth-detector';
import { releaseFreeMemory } from './native-memory';
import { PocketSphinxDecoder } from './pocketsphinx-library';
import type { CustomVocabulary } from '../speech-recognizer';
import { UtteranceTracker } from './utterance-tracker';
import {
  ControlSlot,
  ShutdownMode,
  type AcousticProfile,
  type FromRecognitionWorker,
  type RecognitionWorkerData,
  type ToRecognitionWorker,
} from './worker-protocol';

// Worker thread entry: owns one PocketSphinx decoder and serves one stream at a time. The decoder adapts
// (cepstral mean, noise estimate) to what it hears, and that state would colour the next session's
// results, so after every stream it is replaced by a fresh one while the worker sits idle.
if (!parentPort) throw new Error('recognition-worker must run as a worker thread');
const port = parentPort;
const send = (message: FromRecognitionWorker) => port.postMessage(message);

const { modelDirectory, extraArguments, control: controlBuffer } = workerData as RecognitionWorkerData;
/**
 * Written by the main thread and read here before every message: a shutdown or an aborted stream is seen at
 * once, not after the audio already queued (a flood of chunks would otherwise keep the worker, and a
 * stopping server, busy for as long as that audio takes to decode).
 */
const control = new Int32Array(controlBuffer);
const stopRequested = () => Atomics.load(control, ControlSlot.shutdown) !== 0;
const aborted = (stream: number) => Atomics.load(control, ControlSlot.abortedStream) === stream;

let decoder: PocketSphinxDecoder | undefined;
/** The decoder has heard a stream and must be replaced before the next one. */
let used = false;
/** Counts decoder loads, so a deferred refresh knows whether a stream's start already reloaded. */
let loads = 0;
let stopped = false;

function loadDecoder(profile: AcousticProfile = 'wideband', vocabulary?: CustomVocabulary): void {
  try {
    if (decoder !== undefined) {
      decoder.free();
      decoder = undefined;
      releaseFreeMemory();
    }
    decoder = new PocketSphinxDecoder(modelDirectory, profile, extraArguments, vocabulary);
    loads += 1;
    used = false;
    send({ type: 'ready' });
  } catch (error) {
    send({ type: 'error', stream: null, message: (error as Error).message });
  }
}

function stop(): void {
  if (stopped) return;
  stopped = true;
  decoder?.free();
  decoder = undefined;
  releaseFreeMemory();
  // Parked: the port stays open (the thread does not end) and every later message is ignored.
  if (Atomics.load(control, ControlSlot.shutdown) === ShutdownMode.park) send({ type: 'stopped' });
  else port.close();
}

/**
 * Replaces a used decoder once the messages already queued have been seen: a shutdown among them (the
 * worker is not kept) then skips a load that costs ~0.4 s of CPU.
 */
function refreshSoon(): void {
  const loadsBefore = loads;
  setImmediate(() => {
    if (stopRequested()) stop();
    else if (!stopped && loads === loadsBefore && current === undefined) loadDecoder();
  });
}

/** Audio of an `auto` stream before its bandwidth is known; decided after at most this much audio. */
const MAX_LISTEN_SAMPLES = 10 * 16000;

let current:
  | {
      stream: number;
      vocabulary?: CustomVocabulary;
      /** Undefined while an `auto` stream's bandwidth is still being heard. */
      tracker: UtteranceTracker | undefined;
      listening?: { detector: BandwidthDetector; pending: Int16Array[]; samples: number };
    }
  | undefined;

/** Starts recognising the current stream with `profile`, first feeding the audio heard meanwhile. */
function track(profile: AcousticProfile): void {
  const stream = current!.stream;
  // Idle decoders are fresh and wideband, without spoken terms; a narrowband stream, or one with spoken terms, loads its
  // own (its audio waits in the port meanwhile).
  const vocabulary = current!.vocabulary;
  if (used || decoder!.profile !== profile || vocabulary) loadDecoder(profile, vocabulary);
  if (!decoder) throw new Error('the decoder could not be loaded');
  used = true;
  current!.tracker = new UtteranceTracker(decoder, {
    tentative: (segment) => send({ type: 'tentative', stream, segment }),
    concluded: (segment) => send({ type: 'concluded', stream, segment }),
  });
  const pending = current!.listening?.pending ?? [];
  current!.listening = undefined;
  for (const samples of pending) current!.tracker.feed(samples);
}

port.on('message', (message: ToRecognitionWorker) => {
  if (stopped) return;
  if (message.type === 'shutdown' || stopRequested()) {
    stop();
    return;
  }
  if (!decoder) return;
  try {
    switch (message.type) {
      case 'start': {
        current = { stream: message.stream, tracker: undefined, vocabulary: message.vocabulary };
        if (message.profile === 'auto')
          current.listening = { detector: new BandwidthDetector(), pending: [], samples: 0 };
        else track(message.profile);
        break;
      }
      case 'audio':
        if (current?.stream === message.stream && !aborted(message.stream)) {
          const samples = new Int16Array(message.samples);
          const listening = current.listening;
          if (listening) {
            listening.pending.push(samples);
            listening.samples += samples.length;
            const heard =
              listening.detector.feed(samples) ??
              (listening.samples >= MAX_LISTEN_SAMPLES ? listening.detector.verdict() : undefined);
            if (heard) track(heard);
          } else {
            current.tracker?.feed(samples);
          }
        }
        break;
      case 'end':
        if (current?.stream === message.stream) {
          if (current.listening) track(current.listening.detector.verdict());
          current.tracker?.finish();
          current = undefined;
        }
        send({ type: 'ended', stream: message.stream });
        refreshSoon();
        break;
      case 'sync':
        // Messages are handled in order: every audio message sent before this one has been fed.
        send({ type: 'synced', stream: message.stream, seq: message.seq });
        break;
      case 'abort':
        if (current?.stream === message.stream) {
          current = undefined;
          refreshSoon();
        }
        break;
    }
  } catch (error) {
    send({ type: 'error', stream: message.stream, message: (error as Error).message });
    current = undefined;
  }
});

loadDecoder();
