/**
 * A few simultaneous live speech sessions for the whole soak, each started again as soon as it ends (staggered
 * at the start, as independent users connect), with what happened counted per interval.
 */
import type { SideLoad } from '../soak-target';
import type { StreamingIntervalCounts } from '../soak-results';
import { runStreamingSession, type SessionOutcome, type SessionPlan } from './streaming-session';

function percentile95(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)];
}

export class StreamingLoad implements SideLoad {
  private stopping = false;
  private loops: Promise<void>[] = [];
  private counts = StreamingLoad.empty();
  private latencies: number[] = [];

  /** `planFor(slot, round)` gives the session a slot runs in its round-th turn (slots keep their own API key). */
  constructor(
    private readonly slots: number,
    private readonly planFor: (slot: number, round: number) => SessionPlan,
    private readonly staggerMs = 2000,
  ) {}

  private static empty(): StreamingIntervalCounts {
    return { started: 0, completed: 0, failed: 0, phrases: 0, translationP95Ms: NaN, failures: [] };
  }

  start(): void {
    for (let slot = 0; slot < this.slots; slot++) this.loops.push(this.loop(slot));
  }

  private async loop(slot: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, slot * this.staggerMs));
    for (let round = 0; !this.stopping; round++) {
      this.counts.started++;
      let outcome: SessionOutcome;
      try {
        outcome = await runStreamingSession(this.planFor(slot, round));
      } catch (error) {
        outcome = {
          failure: `client error: ${(error as Error).message}`,
          phrases: 0,
          latenciesMs: [],
          recognized: '',
          mediaChunks: 0,
        };
      }
      this.counts.phrases += outcome.phrases;
      this.latencies.push(...outcome.latenciesMs);
      if (outcome.failure) {
        this.counts.failed++;
        if (this.counts.failures.length < 5)
          this.counts.failures.push(`slot ${slot} round ${round}: ${outcome.failure}`);
        // A failing server should not be hammered in a tight loop.
        await new Promise((resolve) => setTimeout(resolve, 1000));
      } else {
        this.counts.completed++;
      }
    }
  }

  takeInterval(): StreamingIntervalCounts {
    const counts = { ...this.counts, translationP95Ms: percentile95(this.latencies) };
    this.counts = StreamingLoad.empty();
    this.latencies = [];
    return counts;
  }

  async stop(): Promise<StreamingIntervalCounts> {
    this.stopping = true;
    await Promise.all(this.loops);
    return this.takeInterval();
  }
}
