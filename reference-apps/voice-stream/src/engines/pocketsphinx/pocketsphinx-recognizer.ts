import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type {
  CustomVocabulary,
  RecognitionListener,
  RecognitionOptions,
  RecognitionStream,
  SpeechRecognizer,
} from '../speech-recognizer';
import { DEFAULT_MODEL_DIRECTORY, pinPocketSphinxLibraries } from './pocketsphinx-library';
import { Pronouncer } from './pronunciation';
import {
  ControlSlot,
  ShutdownMode,
  type StreamProfile,
  type FromRecognitionWorker,
  type RecognitionWorkerData,
  type ToRecognitionWorker,
} from './worker-protocol';

export interface PocketSphinxRecognizerOptions {
  readonly modelDirectory?: string;
  /** Decoder settings beyond the live ones (`-name value` pairs, e.g. `-maxhmmpf 10000`): to try settings in the evaluation. */
  readonly extraArguments?: readonly string[];
  /**
   * Idle workers kept for the next sessions, each with a freshly loaded decoder (~115 MB; loading takes
   * ~0.4 s of CPU, done right after the previous session so the next one starts at once).
   */
  readonly idleWorkers?: number;
}

/**
 * A worker allocates little JavaScript (audio chunks in, words out; the decoder's memory is native), but V8
 * sizes each thread's young generation like a server's main thread's: it grew to 16 MB semi-spaces and back
 * under the soak, steps of RSS that looked like a leak. 4 MB is ample for the worker's garbage.
 */
const WORKER_HEAP_LIMITS = { maxYoungGenerationSizeMb: 4 };

type WorkerHandler = (message: FromRecognitionWorker) => void;

let parkOnStop = false;

/**
 * From now on, a recognition worker that is stopped frees its decoder and stays parked instead of ending its
 * thread, and `close()` resolves once every decoder is freed. For a process about to end with `_exit` (SIGTERM,
 * SIGINT: cli/stop-on-signals.ts): the server died of SIGSEGV now and then on SIGTERM after speaking sessions,
 * while a dozen worker threads were being torn down at once (V8 isolates disposed, koffi's finalizers
 * unloading libpocketsphinx and libsphinxbase, glibc's per-thread caches freed) next to the main thread's own
 * shutdown; none of that teardown is needed when the process is about to end. Never undone.
 */
export function parkRecognitionWorkersOnStop(): void {
  parkOnStop = true;
}

/** A worker thread owning one loaded decoder. */
class RecognitionWorker {
  readonly worker: Worker;
  handler: WorkerHandler | undefined;
  failed = false;
  /** Its decoder is loaded and unused (false while it reloads after a session). */
  ready = false;
  private exited = false;
  /** Read by the worker before each message (ControlSlot): shutdown, and the stream whose audio to skip. */
  private readonly control = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));

  constructor(modelDirectory: string, extraArguments: readonly string[], onGone: (worker: RecognitionWorker) => void) {
    const data: RecognitionWorkerData = {
      modelDirectory,
      extraArguments,
      control: this.control.buffer as SharedArrayBuffer,
    };
    this.worker = new Worker(path.join(__dirname, 'recognition-worker.js'), {
      workerData: data,
      resourceLimits: WORKER_HEAP_LIMITS,
    });
    this.worker.on('message', (message: FromRecognitionWorker) => {
      if (message.type === 'ready') this.ready = true;
      if (message.type === 'error' && message.stream === null) this.failed = true;
      this.handler?.(message);
    });
    this.worker.on('error', (error) => {
      this.failed = true;
      this.handler?.({ type: 'error', stream: null, message: `recognition worker crashed: ${error.message}` });
      onGone(this);
    });
    this.worker.on('exit', (code) => {
      this.exited = true;
      if (!this.failed) this.handler?.({ type: 'error', stream: null, message: `recognition worker exited (${code})` });
      this.failed = true;
      onGone(this);
    });
  }

  post(message: ToRecognitionWorker, transfer?: ArrayBuffer[]): void {
    this.worker.postMessage(message, transfer);
  }

  /** The stream ended: the worker skips its audio still queued, then replaces its decoder. */
  abort(stream: number): void {
    Atomics.store(this.control, ControlSlot.abortedStream, stream);
    this.post({ type: 'abort', stream });
  }

  /**
   * Asks the worker to free its decoder and exit once its current native call returns (the flag is seen
   * before any queued message): `terminate()` during a koffi call aborts the whole process. Forced only if
   * the worker does not exit in time.
   */
  stop(): Promise<void> {
    if (this.exited) return Promise.resolve();
    const park = parkOnStop;
    const exited = new Promise<void>((resolve) => {
      this.worker.once('exit', () => resolve());
      // Parked: done once the decoder is freed; the thread must not keep the process alive.
      if (park)
        this.worker.on('message', (message: FromRecognitionWorker) => {
          if (message.type === 'stopped') {
            this.worker.unref();
            resolve();
          }
        });
    });
    this.worker.ref();
    this.failed = true;
    this.handler = undefined;
    Atomics.store(this.control, ControlSlot.shutdown, park ? ShutdownMode.park : ShutdownMode.exit);
    this.worker.postMessage({ type: 'shutdown' } satisfies ToRecognitionWorker);
    // Only for a worker stuck far beyond a decoder load (which takes well under a second).
    const force = setTimeout(() => void this.worker.terminate(), 60_000);
    force.unref();
    return exited.finally(() => clearTimeout(force));
  }
}

let nextStreamId = 1;

/**
 * Streaming English recognition with Debian's PocketSphinx (5prealpha) through koffi, one worker thread
 * per active session so decoding never blocks the server's event loop.
 */
export class PocketSphinxRecognizer implements SpeechRecognizer {
  readonly sampleRate = 16000;
  readonly languages = ['en'] as const;
  private readonly modelDirectory: string;
  private readonly extraArguments: readonly string[];
  private readonly maxIdle: number;
  private readonly idle: RecognitionWorker[] = [];
  private readonly all = new Set<RecognitionWorker>();
  /** Workers serving a stream, in the order their streams started. */
  private readonly busy = new Set<RecognitionWorker>();
  private readonly stopping = new Set<Promise<void>>();
  private readonly pronouncer: Pronouncer;

  constructor(options: PocketSphinxRecognizerOptions = {}) {
    this.modelDirectory = options.modelDirectory ?? DEFAULT_MODEL_DIRECTORY;
    this.pronouncer = Pronouncer.forModel(this.modelDirectory);
    this.extraArguments = options.extraArguments ?? [];
    this.maxIdle = options.idleWorkers ?? 2;
    pinPocketSphinxLibraries();
  }

  /** Loads `count` decoders ahead of the first sessions. */
  warmUp(count = this.maxIdle): void {
    while (this.idle.length < count) this.release(this.spawn());
  }

  start(listener: RecognitionListener, options: RecognitionOptions = {}): RecognitionStream {
    for (const failed of this.idle.filter((candidate) => candidate.failed)) {
      this.idle.splice(this.idle.indexOf(failed), 1);
      this.all.delete(failed);
      this.stopWorker(failed);
    }
    // A worker whose fresh decoder is loaded first; else one still reloading (it finishes sooner than a new one).
    const readyIndex = this.idle.findIndex((candidate) => candidate.ready);
    const worker = (readyIndex >= 0 ? this.idle.splice(readyIndex, 1)[0] : this.idle.pop()) ?? this.spawn();
    worker.ready = false;
    worker.worker.ref();
    this.busy.add(worker);
    // A declared rate of 8 kHz decides; anything else is heard first: a compressed stream (Opus, MP3...) has no
    // declared rate (8 kHz Opus lost each session's first sentence with the wideband profile), and 16 kHz PCM may
    // carry telephone-band sound (flite's 8 kHz voice kal: WER 0.32 as wideband, 0.16 sent as 8 kHz PCM).
    const rate = options.sourceSampleRate;
    const profile: StreamProfile = rate !== undefined && rate <= 8000 ? 'narrowband' : 'auto';
    return new PocketSphinxStream(worker, listener, profile, options.vocabulary, (done) => this.release(done));
  }

  /** Spoken terms as words of the dictionary: the CMU dictionary's pronunciations, else espeak-ng's (Pronouncer). */
  async prepareVocabulary(
    language: string,
    terms: readonly string[],
  ): Promise<{ vocabulary: CustomVocabulary; unpronounceable: string[] }> {
    if (!(this.languages as readonly string[]).includes(language))
      throw new Error(`no recognition of ${language}: spoken terms are for ${this.languages.join(', ')}`);
    return this.pronouncer.vocabulary(terms);
  }

  /** The worker threads serving streams now, oldest stream first (diagnostics; the fault tests crash one). */
  busyWorkerThreads(): Worker[] {
    return [...this.busy].map((busy) => busy.worker);
  }

  /**
   * Stops every worker, including those still finishing (the server is shutting down). Call it before the
   * process exits: a process exiting while a worker is inside a native PocketSphinx call aborts.
   */
  async close(): Promise<void> {
    const workers = [...this.all];
    this.idle.length = 0;
    this.all.clear();
    for (const worker of workers) this.stopWorker(worker);
    await Promise.all([...this.stopping]);
  }

  private stopWorker(worker: RecognitionWorker): void {
    const stopped = worker.stop().finally(() => this.stopping.delete(stopped));
    this.stopping.add(stopped);
  }

  private spawn(): RecognitionWorker {
    const worker = new RecognitionWorker(this.modelDirectory, this.extraArguments, (gone) => {
      this.all.delete(gone);
      this.busy.delete(gone);
      const index = this.idle.indexOf(gone);
      if (index >= 0) this.idle.splice(index, 1);
    });
    this.all.add(worker);
    return worker;
  }

  private release(worker: RecognitionWorker): void {
    worker.handler = undefined;
    this.busy.delete(worker);
    // It reloads its decoder after every session (and says 'ready' when done).
    worker.ready = false;
    if (!worker.failed && this.all.has(worker) && this.idle.length < this.maxIdle) {
      // An idle decoder must not keep the process alive.
      worker.worker.unref();
      this.idle.push(worker);
    } else {
      this.all.delete(worker);
      this.stopWorker(worker);
    }
  }
}

class PocketSphinxStream implements RecognitionStream {
  private readonly stream = nextStreamId++;
  private carry: Buffer | undefined;
  private finished = false;
  private ending: { resolve: () => void; reject: (error: Error) => void } | undefined;
  private endPromise: Promise<void> | undefined;
  private syncSeq = 0;
  private readonly syncs = new Map<number, () => void>();

  constructor(
    private readonly worker: RecognitionWorker,
    private readonly listener: RecognitionListener,
    profile: StreamProfile,
    vocabulary: CustomVocabulary | undefined,
    private readonly release: (worker: RecognitionWorker) => void,
  ) {
    worker.handler = (message) => this.onMessage(message);
    worker.post({ type: 'start', stream: this.stream, profile, vocabulary });
  }

  write(pcm: Buffer): void {
    if (this.finished || this.endPromise) return;
    let bytes = this.carry ? Buffer.concat([this.carry, pcm]) : pcm;
    this.carry = undefined;
    if (bytes.length % 2 === 1) {
      this.carry = Buffer.from(bytes.subarray(bytes.length - 1));
      bytes = bytes.subarray(0, bytes.length - 1);
    }
    if (bytes.length === 0) return;
    // Copy into a buffer of our own so it can be transferred to the worker without copying again.
    const samples = new ArrayBuffer(bytes.length);
    Buffer.from(samples).set(bytes);
    this.worker.post({ type: 'audio', stream: this.stream, samples }, [samples]);
  }

  drained(): Promise<void> {
    if (this.finished) return Promise.resolve();
    const seq = ++this.syncSeq;
    return new Promise<void>((resolve) => {
      this.syncs.set(seq, resolve);
      this.worker.post({ type: 'sync', stream: this.stream, seq });
    });
  }

  end(): Promise<void> {
    if (this.finished) return Promise.resolve();
    this.endPromise ??= new Promise<void>((resolve, reject) => {
      this.ending = { resolve, reject };
      this.worker.post({ type: 'end', stream: this.stream });
    });
    return this.endPromise;
  }

  close(): void {
    if (this.finished) return;
    if (!this.worker.failed) this.worker.abort(this.stream);
    this.finish();
    this.ending?.resolve();
  }

  private onMessage(message: FromRecognitionWorker): void {
    if (this.finished) return;
    if (message.type === 'ready' || message.type === 'stopped') return;
    if (message.stream !== null && message.stream !== this.stream) return;
    switch (message.type) {
      case 'tentative':
        this.listener.onTentative(message.segment ?? undefined);
        break;
      case 'concluded':
        this.listener.onConcluded(message.segment);
        break;
      case 'synced':
        this.syncs.get(message.seq)?.();
        this.syncs.delete(message.seq);
        break;
      case 'ended':
        this.finish();
        this.ending?.resolve();
        break;
      case 'error': {
        const error = new Error(`speech recognition failed: ${message.message}`);
        this.worker.failed = true;
        this.finish();
        this.listener.onError(error);
        this.ending?.reject(error);
        break;
      }
    }
  }

  private finish(): void {
    this.finished = true;
    // Nothing more will be recognised: whoever waits for the recogniser to catch up may go on (and see the end).
    for (const resolve of this.syncs.values()) resolve();
    this.syncs.clear();
    this.release(this.worker);
  }
}
