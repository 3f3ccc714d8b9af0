import { pcmDurationMs, type SourceAudioFormat } from '../media/source-formats';
import { SessionError } from '../protocol/protocol-violation';
import { Reasons } from '../protocol/reason-codes';
import type { Scheduler } from './scheduler';
import type { SessionLimits } from './session-limits';

const REQUEST = 'source_media_chunk';

/**
 * Enforces the per-chunk limits: size, duration, whole PCM frames and pacing ("next chunk no sooner than
 * half the previous chunk's duration"). Raw PCM is timed exactly from its size; compressed audio by the
 * decoded amount against twice the elapsed time.
 *
 * Pacing is judged on the running total, the pairwise rule summed over all chunks: the audio sent before a
 * chunk may not exceed twice the time since the first chunk (plus a jitter allowance). Arrival times are
 * when the server reads a frame, and TCP or a busy event loop can hand over two frames sent 50 ms apart in
 * the same millisecond; the pairwise rule would punish a compliant client for that.
 */
export class ChunkPolicy {
  private firstAt: number | undefined;
  private sentMs = 0;
  private decodedMs = 0;

  constructor(
    private readonly format: SourceAudioFormat,
    private readonly limits: SessionLimits,
    private readonly scheduler: Scheduler,
  ) {}

  /** Checks a chunk as it arrives; throws the SessionError to send. */
  admit(bytes: number): void {
    const now = this.scheduler.now();
    if (bytes > this.limits.maxChunkBytes) {
      throw new SessionError(
        Reasons.chunkTooLarge,
        REQUEST,
        `Chunk of ${bytes} bytes exceeds the limit of ${this.limits.maxChunkBytes} bytes (100 kB)`,
      );
    }
    const pcm = this.format.pcm;
    if (pcm) {
      if (bytes % pcm.bytesPerFrame !== 0) {
        throw new SessionError(
          Reasons.partialPcmFrame,
          REQUEST,
          `PCM chunk of ${bytes} bytes is not a whole number of ${pcm.bytesPerFrame}-byte frames (${pcm.encoding})`,
        );
      }
      const durationMs = pcmDurationMs(pcm, bytes);
      if (durationMs > this.limits.maxChunkMs + 1e-6) {
        throw new SessionError(
          Reasons.chunkTooLong,
          REQUEST,
          `Chunk holds ${Math.round(durationMs)} ms of audio; at most ${this.limits.maxChunkMs} ms are allowed`,
        );
      }
      if (this.firstAt !== undefined) {
        const elapsed = now - this.firstAt;
        if (this.sentMs > 2 * (elapsed + this.limits.pacingToleranceMs)) {
          throw new SessionError(
            Reasons.chunkTooSoon,
            REQUEST,
            `${Math.round(this.sentMs)} ms of audio arrived within ${Math.round(elapsed)} ms: each chunk must follow the previous one by at least half its duration (at most twice real time)`,
          );
        }
      }
      this.sentMs += durationMs;
    }
    this.firstAt ??= now;
  }

  /** Decoded audio of a compressed stream arrived: checks it does not run ahead of twice real time. */
  recordDecoded(milliseconds: number): void {
    if (this.format.pcm || this.firstAt === undefined) return;
    this.decodedMs += milliseconds;
    const elapsed = this.scheduler.now() - this.firstAt;
    const allowed = 2 * elapsed + this.limits.compressedBurstMs;
    if (this.decodedMs > allowed) {
      throw new SessionError(
        Reasons.audioAheadOfRealTime,
        REQUEST,
        `${Math.round(this.decodedMs)} ms of audio arrived within ${Math.round(elapsed)} ms; audio may be sent at most twice as fast as real time`,
      );
    }
  }
}
