import { parentPort, workerData } from 'node:worker_threads';
import { PocketSphinxDecoder } from './pocketsphinx-library';
import { UtteranceTracker } from './utterance-tracker';
import type { FromRecognitionWorker, RecognitionWorkerData, ToRecognitionWorker } from './worker-protocol';

// Worker thread entry: owns one PocketSphinx decoder and serves one stream at a time.
const port = parentPort;
if (!port) throw new Error('recognition-worker must run as a worker thread');
const send = (message: FromRecognitionWorker) => port.postMessage(message);

let decoder: PocketSphinxDecoder | undefined;
try {
  decoder = new PocketSphinxDecoder((workerData as RecognitionWorkerData).modelDirectory);
  send({ type: 'ready' });
} catch (error) {
  send({ type: 'error', stream: null, message: (error as Error).message });
}

let current: { stream: number; tracker: UtteranceTracker } | undefined;

port.on('message', (message: ToRecognitionWorker) => {
  if (!decoder) return;
  try {
    switch (message.type) {
      case 'start': {
        const stream = message.stream;
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
        break;
      case 'abort':
        if (current?.stream === message.stream) {
          current.tracker.abort();
          current = undefined;
        }
        break;
    }
  } catch (error) {
    send({ type: 'error', stream: 'stream' in message ? message.stream : null, message: (error as Error).message });
    current = undefined;
  }
});
