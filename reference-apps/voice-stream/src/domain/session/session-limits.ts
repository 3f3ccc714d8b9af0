/** The stream's limits (spec "Limits"); overridable for deployments, defaults are the spec's values. */
export interface SessionLimits {
  /** Largest `source_media_chunk.data`, in bytes (100 kB read as 100 x 1024). */
  readonly maxChunkBytes: number;
  /** Most audio one chunk may hold, in milliseconds. */
  readonly maxChunkMs: number;
  /** A session without a chunk for this long ends (also counted from the connection's start). */
  readonly idleTimeoutMs: number;
  /** A connection ends after this long. */
  readonly maxConnectionMs: number;
  /**
   * Wall-clock jitter forgiven on the "next chunk no sooner than half the previous chunk's duration" rule
   * (judged on the running total): frames bunched by the network or a busy server, in milliseconds.
   */
  readonly pacingToleranceMs: number;
  /**
   * Compressed audio cannot be timed per chunk before it is decoded: instead the decoded audio may not run
   * ahead of twice the elapsed time by more than this (one maximal chunk).
   */
  readonly compressedBurstMs: number;
  /** Tentative target transcripts are re-translated at most this often, per language. */
  readonly tentativeTranslationIntervalMs: number;
  /** Client messages per second (a burst of as many is allowed): 20 ms chunks at twice real time are 100/s. */
  readonly maxMessagesPerSecond: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  maxChunkBytes: 100 * 1024,
  maxChunkMs: 1000,
  idleTimeoutMs: 30_000,
  maxConnectionMs: 60 * 60 * 1000,
  pacingToleranceMs: 500,
  compressedBurstMs: 1000,
  tentativeTranslationIntervalMs: 1000,
  maxMessagesPerSecond: 200,
};
