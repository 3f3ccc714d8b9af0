import type { Clock } from 'app-support';
import { CAPTURE_WINDOW_MS } from './booking-status';
import type { BookingRepository } from '../storage/booking-repository';

/** Writes CAPTURE_TIMEOUT for every booking left UNCAPTURED past its window and gives the seats back. */
export class CaptureTimeoutSweeper {
  static readonly BATCH = 200;

  constructor(
    private readonly bookings: BookingRepository,
    private readonly clock: Clock,
  ) {}

  /** Returns the booking ids timed out by this round. */
  async runOnce(): Promise<number[]> {
    const expired: number[] = [];
    for (;;) {
      const now = this.clock.now();
      const batch = await this.bookings.expireOverdue(now - CAPTURE_WINDOW_MS, now, {}, CaptureTimeoutSweeper.BATCH);
      expired.push(...batch);
      if (batch.length < CaptureTimeoutSweeper.BATCH) return expired;
    }
  }
}
