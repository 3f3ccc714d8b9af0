import type { CustomVocabulary } from '../speech-recognizer';

/**
 * `wideband`: the model as shipped. `narrowband`: telephone-band audio (8 kHz PCM, A-law, µ-law), which
 * starts from a cepstral mean measured on such audio.
 */
export type AcousticProfile = 'wideband' | 'narrowband';

/** What a stream asks for: a profile, or `auto` (the worker listens first: BandwidthDetector). */
export type StreamProfile = AcousticProfile | 'auto';

/** Messages between the main thread and a PocketSphinx worker. `stream` tags which session they belong to. */
export type ToRecognitionWorker =
  | {
      readonly type: 'start';
      readonly stream: number;
      readonly profile: StreamProfile;
      /** The session's spoken terms: the stream gets a decoder of its own with them. */
      readonly vocabulary?: CustomVocabulary;
    }
  | { readonly type: 'audio'; readonly stream: number; readonly samples: ArrayBuffer }
  | { readonly type: 'end'; readonly stream: number }
  | { readonly type: 'abort'; readonly stream: number }
  /** Answered with `synced` once the audio sent before it has been recognised (flow control of file jobs). */
  | { readonly type: 'sync'; readonly stream: number; readonly seq: number }
  /** Free the decoder and exit (terminating a worker inside a native call would abort the process). */
  | { readonly type: 'shutdown' };

/** What `ControlSlot.shutdown` holds. */
export const ShutdownMode = {
  running: 0,
  /** Free the decoder and end the thread. */
  exit: 1,
  /**
   * Free the decoder, say `stopped`, and stay parked without ending the thread: the process is about to `_exit`
   * (a signal), and a thread's teardown (its V8 isolate, koffi's finalizers unloading PocketSphinx's libraries,
   * glibc's per-thread caches) is native work that only risks a crash with nothing to gain.
   */
  park: 2,
} as const;

export interface WorkerSegment {
  readonly text: string;
  readonly startMs: number;
  readonly endMs: number;
}

export type FromRecognitionWorker =
  | { readonly type: 'ready' }
  /** The decoder is freed and the worker parked (ShutdownMode.park): it handles nothing more. */
  | { readonly type: 'stopped' }
  | { readonly type: 'tentative'; readonly stream: number; readonly segment: WorkerSegment | null }
  | { readonly type: 'concluded'; readonly stream: number; readonly segment: WorkerSegment }
  | { readonly type: 'ended'; readonly stream: number }
  | { readonly type: 'synced'; readonly stream: number; readonly seq: number }
  | { readonly type: 'error'; readonly stream: number | null; readonly message: string };

/** Slots of the Int32Array over `RecognitionWorkerData.control`. */
export const ControlSlot = {
  /** A ShutdownMode other than running: free the decoder and exit (or park) before handling anything else. */
  shutdown: 0,
  /** The stream id whose queued audio is to be skipped (the session ended). */
  abortedStream: 1,
} as const;

export interface RecognitionWorkerData {
  readonly modelDirectory: string;
  /** Decoder settings beyond the live ones (`-name value` pairs). */
  readonly extraArguments: readonly string[];
  /** Two Int32 slots (ControlSlot) the main thread writes and the worker reads before each message. */
  readonly control: SharedArrayBuffer;
}
