/**
 * `node framework/dist/test/validation/bench/scenario3-validation.js [rounds]`: CPU cost per body of
 * turning the benchmark's scenario-3 order (1 KB, 12 items, benchmarks/src/contract/order-dto.ts) into
 * an OrderDto and validating it, with class-transformer + class-validator (`compile: false`, as before)
 * and with the compiled transform and validator (the default). One core, no HTTP; each figure is the
 * median of `rounds` timed runs after a warm-up. Needs the benchmarks built (`npx tsc -b benchmarks`).
 */
import 'reflect-metadata';
import * as os from 'node:os';
import * as path from 'node:path';
import { ClassValidator } from '../../../src/features/validation/validator';

interface Contract {
  SAMPLE_ORDER: object;
  findOrderProblem(body: unknown): string | undefined;
}

const benchmarks = path.resolve(__dirname, '../../../../../benchmarks/dist/src/contract');
const { SAMPLE_ORDER, findOrderProblem } = require(path.join(benchmarks, 'order')) as Contract;
const { OrderDto } = require(path.join(benchmarks, 'order-dto')) as { OrderDto: Function };

/** Median µs per call over `rounds` runs of `calls` calls. */
function microseconds(fn: () => unknown, calls: number, rounds: number): number {
  for (let i = 0; i < Math.min(calls, 3000); i++) fn();
  const runs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn();
    runs.push(Number(process.hrtime.bigint() - start) / calls / 1000);
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)]!;
}

function main(): void {
  const rounds = Number(process.argv[2] ?? 15);
  const body = JSON.stringify(SAMPLE_ORDER);
  const broken = JSON.parse(body) as {
    items: { sku: string; quantity: number }[];
    shippingAddress: { country: string };
    currency: string;
  };
  broken.items[2]!.sku = 'not a sku';
  broken.items[5]!.quantity = 0;
  broken.shippingAddress.country = 'gb';
  broken.currency = 'BTC';
  const brokenBody = JSON.stringify(broken);
  const before = new ClassValidator({ compile: false });
  const after = new ClassValidator();
  const modes = after.compilation(OrderDto);
  const instance = after.toInstance(OrderDto, JSON.parse(body)) as object;
  const parse = () => JSON.parse(body) as unknown;
  const full = (v: ClassValidator, text: string) => () =>
    v.validate(v.toInstance(OrderDto, JSON.parse(text)) as object);
  const rows: [string, () => unknown, number][] = [
    ['JSON.parse only', parse, 20_000],
    ['JSON.parse + hand-written check (raw uWS)', () => findOrderProblem(parse()), 20_000],
    ['before: parse + plainToInstance + validateSync', full(before, body), 1_000],
    ['after:  parse + compiled transform + compiled validator', full(after, body), 20_000],
    ['before: toInstance only (class-transformer)', () => before.toInstance(OrderDto, JSON.parse(body)), 1_000],
    ['after:  toInstance only (compiled)', () => after.toInstance(OrderDto, JSON.parse(body)), 20_000],
    ['before: validate only (class-validator)', () => before.validate(instance), 1_000],
    ['after:  validate only (compiled)', () => after.validate(instance), 50_000],
    ['before: invalid body, 4 violations', full(before, brokenBody), 1_000],
    ['after:  invalid body, 4 violations', full(after, brokenBody), 20_000],
  ];
  console.log(
    `scenario-3 order (${body.length} bytes); compiled: validation ${modes.validation.compiled}, transform ${modes.transform.compiled}`,
  );
  console.log(
    `load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, ${os.cpus().length} CPUs, node ${process.version}, median of ${rounds} runs`,
  );
  for (const [label, fn, calls] of rows)
    console.log(`${microseconds(fn, calls, rounds).toFixed(2).padStart(9)} µs  ${label}`);
  console.log(
    `load average at end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main();
