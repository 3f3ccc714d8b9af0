import { parentPort, workerData } from 'node:worker_threads';
import { releaseFreeMemory } from './native-memory';
import { PocketSphinxDecoder } from './pocketsphinx-library';
import { UtteranceTracker } from './utterance-tracker';
import type { AcousticProfile, FromRecognitionWorker, RecognitionWorkerData, ToRecognitionWorker } from './worker-protocol';

// Worker thread entry: owns one PocketSphinx decoder and serves one stream at a time. The decoder adapts
// (cepstral mean, noise estimate) to what it hears, and that state would colour the next session's
// results, so after every stream it is replaced by a fresh one while the worker sits idle.
const port = parentPort;
if (!port) throw new Error('recognition-worker must run as a worker thread');
const send = (message: FromRecognitionWorker) => port.postMessage(message);

const { modelDirectory } = workerData as RecognitionWorkerData;
let decoder: PocketSphinxDecoder | undefined;

function loadDecoder(profile: AcousticProfile = 'wideband'): void {
  try {
    if (decoder !== undefined) {
      decoder.free();
      decoder = undefined;
      releaseFreeMemory();
    }
    decoder = new PocketSphinxDecoder(modelDirectory, profile);
    send({ type: 'ready' });
  } catch (error) {
    send({ type: 'error', stream: null, message: (error as Error).message });
  }
}

loadDecoder();

let current: { stream: number; tracker: UtteranceTracker } | undefined;

port.on('message', (message: ToRecognitionWorker) => {
  if (message.type === 'shutdown') {
    decoder?.free();
    decoder = undefined;
    port.close();
    return;
  }
  if (!decoder) return;
  try {
    switch (message.type) {
      case 'start': {
        const stream = message.stream;
        // Idle decoders are wideband; a narrowband session reloads (its audio waits in the port meanwhile).
        if (decoder.profile !== message.profile) loadDecoder(message.profile);
        if (!decoder) break;
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
        if (current?.stream === message.stream) current.tracker.feed(new Int16Array(message.samples));
        break;
      case 'end':
        if (current?.stream === message.stream) {
          current.tracker.finish();
          current = undefined;
        }
        send({ type: 'ended', stream: message.stream });
        loadDecoder();
        break;
      case 'abort':
        if (current?.stream === message.stream) {
          current = undefined;
          loadDecoder();
        }
        break;
    }
  } catch (error) {
    send({ type: 'error', stream: message.stream, message: (error as Error).message });
    current = undefined;
  }
});
