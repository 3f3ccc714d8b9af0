import os from 'node:os';
import { VoiceApiError } from './voice-api-error';

/**
 * Concurrent sessions one core sustains in real time with the offline engines (recogniser RTF ~0.11 plus
 * ffmpeg, Apertium and synthesis; measured in docs/voice-stream/operations.md).
 */
const SESSIONS_PER_CORE = 3;
/** Resident memory budgeted per session that hears audio (a recognition decoder and its thread, ffmpeg). */
const BUDGET_PER_ACTIVE_SESSION_BYTES = 128 * 1024 * 1024;

/**
 * The default global session limit, sized for this machine: three sessions per core, and no more than half
 * of the memory at the budget of an active session. 6 on a 2-core machine.
 */
export function defaultMaxSessions(cores = os.availableParallelism(), memoryBytes = os.totalmem()): number {
  return Math.max(
    1,
    Math.min(SESSIONS_PER_CORE * cores, Math.floor(memoryBytes / 2 / BUDGET_PER_ACTIVE_SESSION_BYTES)),
  );
}

/** A place held for an upgrade between its token check and its socket's `open`. */
export interface CapacityReservation {
  /** The stream opened: the place is its own until the returned release is called (idempotent). */
  take(): () => void;
  /** The upgrade failed: the place is free again. */
  cancel(): void;
}

/** How long a reserved place waits for its socket to open (an upgrade the client abandoned frees it then). */
const RESERVATION_MS = 10_000;

/** Seconds a refused client is asked to wait (`Retry-After`): about the length of a spoken sentence or two. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The global limit on concurrent sessions of this instance: streams (connected, with or without audio) plus
 * upgrades in flight. Sessions beyond it are answered 503 `server_busy` at the session request and at the
 * upgrade (before the token is used, so it stays valid for a retry).
 */
export class SessionCapacity {
  private streams = 0;
  private reserved = 0;

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`The session limit must be a positive integer, not ${max}`);
  }

  /** Streams running now (upgrades in flight not counted). */
  get running(): number {
    return this.streams;
  }

  /** Throws 503 server_busy when no place is free. */
  check(): void {
    if (this.streams + this.reserved >= this.max) {
      throw new VoiceApiError(
        503,
        'server_busy',
        `This server runs its maximum of ${this.max} concurrent voice sessions; retry in a few seconds`,
        RETRY_AFTER_SECONDS,
      );
    }
  }

  /** Holds a place for an upgrade (throws 503 server_busy when none is free). */
  reserve(): CapacityReservation {
    this.check();
    this.reserved += 1;
    let state: 'reserved' | 'taken' | 'released' = 'reserved';
    const unreserve = () => {
      if (state !== 'reserved') return;
      state = 'released';
      this.reserved -= 1;
      clearTimeout(expiry);
    };
    const expiry = setTimeout(unreserve, RESERVATION_MS);
    expiry.unref();
    return {
      take: () => {
        // A socket that opens after its reservation expired still counts: it runs, so it costs.
        if (state === 'reserved') {
          this.reserved -= 1;
          clearTimeout(expiry);
        }
        state = 'taken';
        this.streams += 1;
        let released = false;
        return () => {
          if (released) return;
          released = true;
          this.streams -= 1;
        };
      },
      cancel: unreserve,
    };
  }
}
