import type { Logger } from 'rest.uws';
import { RawHttpConnection, type RawAnswer, type RawHeader } from './raw-http';

/** A probe's answer as a test compares it: the status and the parsed JSON body. */
export interface ProbeAnswer {
  status: number;
  body: unknown;
}

/** What `/health` and `/ready` answered before, during and after a database outage. */
export interface ProbeRound {
  health: ProbeAnswer;
  ready: ProbeAnswer;
  /** `/ready` once the database is gone. */
  down: ProbeAnswer;
  /** `/health` once the database is gone. */
  healthWhileDown: ProbeAnswer;
  /** `/ready` once the database is back (polled up to 10 s), when the outage can be ended. */
  readyAgain?: ProbeAnswer;
}

async function probe(port: number, target: string): Promise<ProbeAnswer> {
  const answer = await requestOnce(port, 'GET', target);
  return { status: answer.status, body: JSON.parse(answer.body.toString('utf8')) };
}

/**
 * Probes a server on 127.0.0.1 (rest.uws `health()` with a readiness check named `database`) around an outage:
 * `/health` and `/ready`, then `takeAway()` (close the database, cut it off), the two again, then, when `takeAway`
 * returned how to end the outage, `/ready` until it passes again. Compare with `expectedProbeRound`.
 */
export async function probesAroundOutage(
  port: number,
  takeAway: () => Promise<(() => Promise<void>) | void>,
): Promise<ProbeRound> {
  const health = await probe(port, '/health');
  const ready = await probe(port, '/ready');
  const restore = await takeAway();
  let round: ProbeRound;
  try {
    round = { health, ready, down: await probe(port, '/ready'), healthWhileDown: await probe(port, '/health') };
  } catch (error) {
    await restore?.();
    throw error;
  }
  if (restore) {
    await restore();
    let again = await probe(port, '/ready');
    for (const deadline = Date.now() + 10_000; again.status !== 200 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await probe(port, '/ready');
    }
    round.readyAgain = again;
  }
  return round;
}

/** What the probes must answer: liveness always, readiness until the database goes (503 naming it), and after. */
export function expectedProbeRound(restored: boolean): ProbeRound {
  const ok = { status: 200, body: { status: 'ok' } };
  const ready = { status: 200, body: { status: 'ok', checks: { database: 'ok' } } };
  return {
    health: ok,
    ready,
    down: { status: 503, body: { status: 'unavailable', failed: ['database'], checks: { database: 'failed' } } },
    healthWhileDown: ok,
    ...(restored ? { readyAgain: ready } : {}),
  };
}

/**
 * One request to a server on 127.0.0.1 on a connection of its own, as sent (no decompression, no header added but
 * Host and Content-Length); fails when no answer comes.
 */
export async function requestOnce(
  port: number,
  method: string,
  target: string,
  headers: readonly RawHeader[] = [],
  body?: string | Buffer,
): Promise<RawAnswer> {
  const exchange = await RawHttpConnection.once('127.0.0.1', port, {
    method,
    target,
    headers,
    body: body === undefined ? undefined : Buffer.from(body),
  });
  if (exchange.answer === undefined) throw new Error(`no answer to ${method} ${target}`);
  return exchange.answer;
}

/** A line a `recordingLogger` kept. */
export interface LoggedLine {
  level: 'error' | 'warn' | 'info' | 'debug';
  fields: any;
  message?: string;
}

/** A logger (rest.uws `Logger`) that keeps every line, at every level, in `lines`: the access log, the app's errors. */
export function recordingLogger(lines: LoggedLine[]): Logger {
  const at = (level: LoggedLine['level']) => (fields: unknown, message?: string) =>
    void lines.push({ level, fields, message });
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
