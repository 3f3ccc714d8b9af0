import { parentPort, workerData } from 'node:worker_threads';
import { releaseFreeMemory } from './native-memory';
import { PocketSphinxDecoder } from './pocketsphinx-library';
import { UtteranceTracker } from './utterance-tracker';
import { ControlSlot, type AcousticProfile, type FromRecognitionWorker, type RecognitionWorkerData, type ToRecognitionWorker } from './worker-protocol';

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

function loadDecoder(profile: AcousticProfile = 'wideband'): void {
  try {
    if (decoder !== undefined) {
      decoder.free();
      decoder = undefined;
      releaseFreeMemory();
    }
    decoder = new PocketSphinxDecoder(modelDirectory, profile, extraArguments);
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
  port.close();
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

let current: { stream: number; tracker: UtteranceTracker } | undefined;

port.on('message', (message: ToRecognitionWorker) => {
  if (message.type === 'shutdown' || stopRequested()) {
    stop();
    return;
  }
  if (!decoder) return;
  try {
    switch (message.type) {
      case 'start': {
        const stream = message.stream;
        // Idle decoders are fresh and wideband; a narrowband session reloads (its audio waits in the port meanwhile).
        if (used || decoder.profile !== message.profile) loadDecoder(message.profile);
        if (!decoder) break;
        used = true;
        current = {
          stream,
          tracker: new UtteranceTracker(decoder, {
            tentative: (segment) => send({ type: 'tentative', stream, segment }),
            concluded: (segment) => send({ type: 'concluded', stream, segment }),
          }),
        };
        break;
      }
      case 'audio':
        if (current?.stream === message.stream && !aborted(message.stream)) current.tracker.feed(new Int16Array(message.samples));
        break;
      case 'end':
        if (current?.stream === message.stream) {
          current.tracker.finish();
          current = undefined;
        }
        send({ type: 'ended', stream: message.stream });
        refreshSoon();
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
