import { errors, type Logger } from '../../plugin';

/** One thing the app needs to serve requests (a database, a queue), checked on every readiness request. */
export interface ReadinessCheck {
  /** Names the check in the answer and the logs (`database`). */
  name: string;
  /**
   * Returns (or resolves) when the dependency is usable, e.g. `() => db.query('select 1')`; a throw, a
   * rejection or `false` means it is not.
   */
  check: () => unknown;
  /** How long the check may take before it counts as failed, in ms (default: the plugin's `timeoutMs`). */
  timeoutMs?: number;
}

/** What a readiness request found: every check's outcome, by name (`ok`, `failed`, `timed out after N ms`). */
export interface ReadinessResult {
  ready: boolean;
  failed: string[];
  checks: Record<string, string>;
}

interface CheckState {
  readonly check: ReadinessCheck;
  readonly timeoutMs: number;
  /** The check's call still unsettled (a hung database ping): later requests wait on it instead of piling up calls. */
  pending: Promise<unknown> | null;
  /** The last outcome, to log changes only (a failing database is logged once, not on every probe). */
  lastOk: boolean;
}

/**
 * Runs the app's readiness checks, all at once, each bounded by its timeout. Requests that arrive while a run is
 * going share it, and a check whose last call has not settled is not called again: a flood of probes against a
 * hung dependency costs one call, not one per probe.
 */
export class Readiness {
  private readonly states: CheckState[];
  private running: Promise<ReadinessResult> | null = null;

  constructor(
    checks: readonly ReadinessCheck[],
    defaultTimeoutMs: number,
    private readonly logger: () => Logger,
  ) {
    const names = new Set<string>();
    this.states = checks.map((check) => {
      if (
        check === null ||
        typeof check !== 'object' ||
        typeof check.name !== 'string' ||
        check.name === '' ||
        typeof check.check !== 'function'
      ) {
        throw errors.RU_ERR_HEALTH_OPTIONS(
          'rest.uws: health: each readiness check is { name, check: () => ..., timeoutMs? }',
        );
      }
      if (names.has(check.name))
        throw errors.RU_ERR_HEALTH_OPTIONS(
          `rest.uws: health: two readiness checks are named ${JSON.stringify(check.name)}`,
        );
      names.add(check.name);
      const timeoutMs = check.timeoutMs ?? defaultTimeoutMs;
      checkTimeout(timeoutMs, `check ${check.name}: timeoutMs`);
      return { check, timeoutMs, pending: null, lastOk: true };
    });
  }

  /** Every check's outcome; shared by the requests that arrive while it runs. */
  run(): Promise<ReadinessResult> {
    if (this.running === null) {
      this.running = this.runAll().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async runAll(): Promise<ReadinessResult> {
    const outcomes = await Promise.all(this.states.map((state) => this.runOne(state)));
    const result: ReadinessResult = { ready: true, failed: [], checks: {} };
    this.states.forEach((state, i) => {
      const { outcome, err } = outcomes[i]!;
      result.checks[state.check.name] = outcome;
      const ok = outcome === 'ok';
      if (!ok) {
        result.ready = false;
        result.failed.push(state.check.name);
      }
      this.logChange(state, ok, outcome, err);
    });
    return result;
  }

  /** One check, bounded by its timeout: `ok`, `failed` (with the error it threw) or `timed out after N ms`. */
  private runOne(state: CheckState): Promise<{ outcome: string; err?: unknown }> {
    if (state.pending === null) {
      let call: Promise<unknown>;
      try {
        call = Promise.resolve(state.check.check());
      } catch (err) {
        call = Promise.reject(err);
      }
      const settled = call.finally(() => {
        if (state.pending === settled) state.pending = null;
      });
      settled.catch(() => {}); // observed below; never an unhandled rejection
      state.pending = settled;
    }
    const pending = state.pending;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ outcome: `timed out after ${state.timeoutMs} ms` }), state.timeoutMs);
      pending.then(
        (value) => {
          clearTimeout(timer);
          resolve({ outcome: value === false ? 'failed' : 'ok' });
        },
        (err: unknown) => {
          clearTimeout(timer);
          resolve({ outcome: 'failed', err });
        },
      );
    });
  }

  /** Logs a check's change of state only; its error is logged, never sent to the client (it may name hosts). */
  private logChange(state: CheckState, ok: boolean, outcome: string, err: unknown): void {
    if (ok === state.lastOk) return;
    state.lastOk = ok;
    if (ok) this.logger().info({ check: state.check.name }, 'readiness check passes again');
    else
      this.logger().warn(
        { check: state.check.name, outcome, ...(err !== undefined ? { err } : {}) },
        'readiness check failed',
      );
  }
}

export function checkTimeout(ms: unknown, what: string): void {
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 1)
    throw errors.RU_ERR_HEALTH_OPTIONS(
      `rest.uws: health: ${what} must be a whole number of ms (1 or more), got ${String(ms)}`,
    );
}
