import type { CorpusCase } from './corpus-case';
import { changedTables, type DatabaseSnapshot } from './database-snapshot';
import { headerOf, RawHttpConnection, type RawAnswer, type RawExchange, type RawRequest } from './raw-http';

export interface CorpusRun {
  /** The app's name, for the report. */
  readonly app: string;
  readonly host: string;
  readonly port: number;
  readonly cases: readonly CorpusCase[];
  readonly seed: number;
  /** Reads the stored data; a refused request must leave it exactly as it was. */
  readonly snapshot?: () => Promise<DatabaseSnapshot>;
  /** The message a refusal gives the client, or undefined when its body does not say what was wrong. */
  readonly refusalMessage?: (answer: RawAnswer) => string | undefined;
  /** A 2xx the app means as a refusal, by its own convention (GraphQL's `{errors}` without `data`): judged as one. */
  readonly refusedWithSuccess?: (answer: RawAnswer) => boolean;
  /** A request that must still succeed once the corpus is over (the server is alive and serving). */
  readonly health: RawRequest;
  /** Longest wait for one answer (default 10 s): longer is a hang. */
  readonly timeoutMs?: number;
}

export interface CorpusReport {
  readonly app: string;
  readonly seed: number;
  readonly cases: number;
  readonly elapsedMs: number;
  /** Outcome (`200`, `404`, `closed`...) counts per kind of case. */
  readonly byKind: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** What went wrong, one line per case: empty when the app held. */
  readonly failures: readonly string[];
}

/** The message of a refusal in the shapes the apps use: {message}, {error: {message}}, {error: "..."}, {errors: [{message}]}, or text. */
export function defaultRefusalMessage(answer: RawAnswer): string | undefined {
  const text = answer.body.toString('utf8').trim();
  const type = headerOf(answer, 'content-type') ?? '';
  if (/json/i.test(type)) {
    try {
      const body = JSON.parse(text) as Record<string, unknown> & {
        error?: unknown;
        errors?: Array<{ message?: unknown }>;
      };
      const candidates = [
        body.message,
        (body.error as { message?: unknown } | undefined)?.message,
        body.error,
        body.errors?.[0]?.message,
        body.error_message,
      ];
      const message = candidates.find(
        (candidate): candidate is string => typeof candidate === 'string' && candidate.trim().length > 0,
      );
      return message;
    } catch {
      return undefined;
    }
  }
  return /^text\//i.test(type) && text.length > 0 ? text : undefined;
}

/**
 * The reason on a refusal page of uWebSockets.js itself: v20.57 answers heads it will not parse (431 past its header
 * limit, 400 for two Host headers or a malformed Content-Length) with its own page,
 * `<h1>Request Header Fields Too Large</h1><hr><i>uWebSockets/20 Server</i>`, before any route runs. The page names
 * what was wrong in the words of its status, which is all an app could say there too.
 */
function serverRefusalPage(answer: RawAnswer): string | undefined {
  if (answer.status < 400 || answer.status >= 500) return undefined;
  return /^<h1>([^<]+)<\/h1><hr><i>uWebSockets\/\d+ Server<\/i>$/.exec(answer.body.toString('latin1').trim())?.[1];
}

function describeAnswer(exchange: RawExchange): string {
  if (exchange.timedOut) return 'no answer';
  if (!exchange.answer) return 'closed without an answer';
  const body = exchange.answer.body.toString('utf8').replace(/\s+/g, ' ').slice(0, 160);
  return `${exchange.answer.status} ${body}`;
}

/** Whether the request was refused: a status of 400 and more, a 2xx the app means as a refusal, or no answer. */
function refused(exchange: RawExchange, run: CorpusRun): boolean {
  const answer = exchange.answer;
  return (
    answer === undefined || answer.status >= 400 || (answer.status < 300 && run.refusedWithSuccess?.(answer) === true)
  );
}

function outcomeOf(exchange: RawExchange, run: CorpusRun): string {
  if (exchange.timedOut) return 'timeout';
  if (!exchange.answer) return 'closed';
  return exchange.answer.status < 400 && refused(exchange, run)
    ? `${exchange.answer.status} refusal`
    : String(exchange.answer.status);
}

/** What is wrong with the outcome of one case (empty when it is right). */
function judge(entry: CorpusCase, request: RawRequest, exchange: RawExchange, run: CorpusRun): string[] {
  const problems: string[] = [];
  const answer = exchange.answer;
  if (exchange.timedOut) return [`no answer within ${run.timeoutMs ?? 10_000} ms`];
  // A corpus built around a sample the app refuses attacks nothing: the valid request must pass.
  if (entry.kind === 'baseline' && (!answer || answer.status < 101 || refused(exchange, run)))
    problems.push('the valid request was not accepted (fix the sample)');
  if (!answer) {
    if (!entry.mayClose) problems.push('connection closed without an answer');
  } else if (answer.status >= 500) {
    problems.push(`answered ${answer.status}`);
  } else if (!refused(exchange, run)) {
    if (entry.expect === 'refused') problems.push(`accepted (${answer.status}) input that must be refused`);
  } else if (request.method !== 'HEAD') {
    const message = serverRefusalPage(answer) ?? (run.refusalMessage ?? defaultRefusalMessage)(answer);
    if (message === undefined) problems.push(`refused (${answer.status}) without a message saying what was wrong`);
    else if (/\n\s+at |Internal/.test(message))
      problems.push(`refusal message reveals internals: ${message.slice(0, 120)}`);
  }
  if (entry.mustClose && answer && answer.status >= 400 && !exchange.closed)
    problems.push('connection left open after ambiguous framing');
  if (exchange.extra.length > 0)
    problems.push(
      `bytes after the answer (a request the client did not send as one was run): ${exchange.extra.toString('latin1').slice(0, 80)}`,
    );
  return problems;
}

/** Runs every case in order over one keep-alive connection (a new one after each close) and judges each outcome. */
export async function runCorpus(run: CorpusRun): Promise<CorpusReport> {
  const started = Date.now();
  const connection = new RawHttpConnection(run.host, run.port);
  const byKind = new Map<string, Map<string, number>>();
  const failures: string[] = [];
  let stored = await run.snapshot?.();
  try {
    for (const entry of run.cases) {
      const caseStarted = Date.now();
      let request: RawRequest;
      if (typeof entry.request === 'function') {
        request = await entry.request();
        stored = await run.snapshot?.(); // what the case made for itself is not the attack's doing
      } else {
        request = entry.request;
      }
      const exchange = await connection.exchange(request, run.timeoutMs);
      // Framing attacks must leave nothing on the connection: start the next case on a fresh one.
      if (request.contentLength === false || request.trailing) connection.close();
      // A smuggled tail runs (if it runs at all) behind the answer: let one more request through before judging the state.
      if (request.trailing)
        await RawHttpConnection.once(run.host, run.port, run.health, run.timeoutMs).catch(() => undefined);
      const outcome = outcomeOf(exchange, run);
      const counts = byKind.get(entry.kind) ?? new Map<string, number>();
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      byKind.set(entry.kind, counts);
      const problems = judge(entry, request, exchange, run);
      if (run.snapshot) {
        const after = await run.snapshot();
        const changed = changedTables(stored!, after);
        if (refused(exchange, run) && changed.length > 0)
          problems.push(`refused, yet stored data changed (${changed.join(', ')})`);
        stored = after;
      }
      // CORPUS_VERBOSE=1 prints every case as it ends (to find the one that hangs).
      if (process.env.CORPUS_VERBOSE)
        console.error(
          `${entry.kind} | ${entry.route} | ${entry.name.slice(0, 60)} -> ${outcome} ${Date.now() - caseStarted} ms ${problems.join('; ')}`,
        );
      if (problems.length > 0)
        failures.push(
          `${entry.kind} | ${entry.route} | ${entry.name}: ${problems.join('; ')} [${describeAnswer(exchange)}]`,
        );
    }
    const health = await RawHttpConnection.once(run.host, run.port, run.health, run.timeoutMs);
    if (!health.answer || health.answer.status >= 300)
      failures.push(`after the corpus, the health request got ${describeAnswer(health)}`);
    if (Object.hasOwn(Object.prototype, 'polluted')) failures.push('Object.prototype was polluted ("polluted" key)');
  } finally {
    connection.close();
  }
  return { app: run.app, seed: run.seed, cases: run.cases.length, elapsedMs: Date.now() - started, byKind, failures };
}

/** Outcome columns of the figures: 2xx, 101/3xx, the common refusals, other 4xx, closed, and anything worse. */
function column(outcome: string): string {
  if (/refusal$/.test(outcome)) return '2xx refusal';
  if (/^2/.test(outcome)) return '2xx';
  if (/^(1|3)/.test(outcome)) return '101/3xx';
  if (['400', '401', '403', '404', '405', '406', '413', '415'].includes(outcome)) return outcome;
  if (/^4/.test(outcome)) return 'other 4xx';
  if (outcome === 'closed') return 'closed';
  return '5xx/timeout';
}

const COLUMNS = [
  '2xx',
  '2xx refusal',
  '101/3xx',
  '400',
  '401',
  '403',
  '404',
  '405',
  '406',
  '413',
  '415',
  'other 4xx',
  'closed',
  '5xx/timeout',
];

/** The figures as a Markdown table: one row per kind of case, one column per outcome. */
export function formatCorpusReport(report: CorpusReport): string {
  const total = new Map<string, number>();
  const rows: string[] = [];
  for (const [kind, counts] of [...report.byKind].sort(([a], [b]) => a.localeCompare(b))) {
    const cells = new Map<string, number>();
    let cases = 0;
    for (const [outcome, count] of counts) {
      cells.set(column(outcome), (cells.get(column(outcome)) ?? 0) + count);
      total.set(column(outcome), (total.get(column(outcome)) ?? 0) + count);
      cases += count;
    }
    rows.push(`| ${kind} | ${cases} | ${COLUMNS.map((name) => cells.get(name) ?? 0).join(' | ')} |`);
  }
  const sum = [...total.values()].reduce((a, b) => a + b, 0);
  return [
    `${report.app}: ${report.cases} cases in ${(report.elapsedMs / 1000).toFixed(1)} s (seed ${report.seed}), ${report.failures.length} failure(s)`,
    `| kind | cases | ${COLUMNS.join(' | ')} |`,
    `| --- | ---: | ${COLUMNS.map(() => '---:').join(' | ')} |`,
    ...rows,
    `| all | ${sum} | ${COLUMNS.map((name) => total.get(name) ?? 0).join(' | ')} |`,
  ].join('\n');
}

/** A hole the corpus finds that is being fixed elsewhere, named by its issue, and how to tell its failures. */
export interface PendingHole {
  readonly issue: string;
  readonly matches: (failure: string) => boolean;
}

/**
 * The failures of a run less those of pending holes, and the pending holes that no longer occur. A test asserts both
 * are empty: a new failure fails it, and so does a fixed hole still listed (remove it, so the corpus guards the fix).
 */
export function sortFailures(
  report: CorpusReport,
  pending: readonly PendingHole[],
): { unexpected: string[]; fixed: string[]; setAside: number } {
  const unexpected = report.failures.filter((failure) => !pending.some((hole) => hole.matches(failure)));
  const fixed = pending
    .filter((hole) => !report.failures.some((failure) => hole.matches(failure)))
    .map((hole) => hole.issue);
  return { unexpected, fixed, setAside: report.failures.length - unexpected.length };
}
