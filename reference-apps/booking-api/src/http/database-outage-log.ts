import type { Logger } from 'rest.uws';

/**
 * Logs requests answered 503 because the database is unavailable: the first at once, then at most one line per
 * interval with how many were answered so since (an outage under load would otherwise write a line per request).
 */
export class DatabaseOutageLog {
  private lastLoggedAt = -Infinity;
  private unlogged = 0;

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  record(error: unknown, method: string, path: string): void {
    const now = this.now();
    if (now - this.lastLoggedAt < this.intervalMs) {
      this.unlogged++;
      return;
    }
    const cause =
      error instanceof Error
        ? `${(error as Error & { code?: string }).code ?? error.name}: ${error.message}`
        : String(error);
    this.logger.warn({ cause, method, path, alsoAnswered503: this.unlogged }, 'database unavailable: answered 503');
    this.lastLoggedAt = now;
    this.unlogged = 0;
  }
}
