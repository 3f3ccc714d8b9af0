/**
 * `node benchmarks/dist/src/micro/request-log-cost.js | cat > /dev/null`: CPU per access log line (the line
 * `logRequests()` writes for each request) on stdout, a pipe as under a log collector, with pino's
 * synchronous stdout (one `write` per line) and with createLogger's default `BufferedDestination` (the
 * lines of an event-loop turn written together). The log lines go to stdout; the results to stderr.
 * Requests are simulated in turns of LINES_PER_TURN lines, as uWebSockets.js answers several requests in one
 * turn under load; at one line per turn the buffered destination writes each line alone, like the sync one.
 */
import { BufferedDestination, createLogger, type PinoLogger } from 'rest.uws';

const TURNS = 4000;

/** CPU microseconds (user + system, all threads) per line over `turns` turns of `perTurn` lines. */
async function cpuPerLine(logger: PinoLogger, perTurn: number, turns: number): Promise<number> {
  const line = {
    method: 'GET',
    path: '/hello',
    status: 200,
    durationMs: 0.042,
    reqId: '4f1c6a52-3b1e-4d5e-9b0a-2d9c1f0e7a55',
  };
  const turn = () => {
    for (let i = 0; i < perTurn; i++) logger.info(line, 'request');
  };
  for (let i = 0; i < 200; i++) {
    turn(); // warm-up: let V8 optimise
    await new Promise((resolve) => setImmediate(resolve));
  }
  const start = process.cpuUsage();
  for (let i = 0; i < turns; i++) {
    turn();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / (turns * perTurn);
}

async function main(): Promise<void> {
  if (process.stdout.isTTY) throw new Error('pipe stdout somewhere: node request-log-cost.js | cat > /dev/null');
  const sync = createLogger({ level: 'info', sync: true });
  const buffered = createLogger({ level: 'info' }, new BufferedDestination());
  const rows: string[] = [];
  for (const perTurn of [1, 8, 32]) {
    // Interleaved, three rounds: the machine may be shared.
    const s: number[] = [];
    const b: number[] = [];
    for (let round = 0; round < 3; round++) {
      s.push(await cpuPerLine(sync, perTurn, TURNS / perTurn));
      b.push(await cpuPerLine(buffered, perTurn, TURNS / perTurn));
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[1]!;
    rows.push(
      `${String(perTurn).padStart(3)} lines a turn: sync ${median(s).toFixed(2).padStart(6)} µs/line, buffered ${median(b).toFixed(2).padStart(6)} µs/line`,
    );
  }
  process.stderr.write(`${rows.join('\n')}\n`);
}

void main();
