import { SessionError } from '../protocol/protocol-violation';
import { Reasons } from '../protocol/reason-codes';
import type { Scheduler } from './scheduler';

/**
 * Frames a client may send per second, as a token bucket (a burst of one second's worth, refilled
 * continuously). The spec bounds audio to twice real time but not the number of messages: without this,
 * 2-byte chunks would be within the pacing rules at 32 000 messages a second, each decoded and handed to the
 * recogniser. Checked before a frame is decoded, so a flood costs little.
 */
export class MessageRateLimit {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly scheduler: Scheduler,
  ) {
    this.tokens = perSecond;
    this.last = scheduler.now();
  }

  /** Counts one frame; throws the SessionError to send when the client is over the rate. */
  admit(): void {
    const now = this.scheduler.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) {
      throw new SessionError(
        Reasons.tooManyMessages,
        'unknown',
        `More than ${this.perSecond} messages per second; send audio in chunks of 50-250 ms (at most twice real time)`,
      );
    }
    this.tokens -= 1;
  }
}
