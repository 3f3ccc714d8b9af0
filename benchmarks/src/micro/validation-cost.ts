/**
 * `node benchmarks/dist/src/micro/validation-cost.js`: CPU cost of validating scenario 3's 1 KB order in each
 * idiom the servers use, on one core, without HTTP: JSON.parse alone, then parse + hand-written check,
 * parse + Ajv compiled with Fastify's options, parse + class-transformer/class-validator, and parse + rest.uws's
 * `ClassValidator` (what `@Valid` runs: compiled transformer and validator mirroring the two libraries).
 */
import 'reflect-metadata';
import Ajv from 'ajv';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ClassValidator } from 'rest.uws';
import { SAMPLE_ORDER, findOrderProblem } from '../contract/order';
import { OrderDto } from '../contract/order-dto';
import { orderSchema } from '../contract/order-schema';

function microsecondsPerCall(fn: () => unknown, calls: number): number {
  for (let i = 0; i < Math.min(calls, 2000); i++) fn(); // warm-up: let V8 optimise
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) fn();
  return Number(process.hrtime.bigint() - start) / calls / 1000;
}

function main(): void {
  const body = JSON.stringify(SAMPLE_ORDER);
  // Fastify's default Ajv options.
  const ajvValidate = new Ajv({
    coerceTypes: 'array',
    useDefaults: true,
    removeAdditional: true,
    allErrors: false,
  }).compile(orderSchema);
  const restUws = new ClassValidator();
  restUws.prepare(OrderDto);
  const cases: [string, () => unknown, number][] = [
    ['JSON.parse only', () => JSON.parse(body), 20_000],
    ['JSON.parse + hand-written check', () => findOrderProblem(JSON.parse(body)), 20_000],
    ['JSON.parse + Ajv (compiled JSON schema)', () => ajvValidate(JSON.parse(body)), 20_000],
    [
      'JSON.parse + class-transformer + class-validator',
      () => validateSync(plainToInstance(OrderDto, JSON.parse(body) as object)),
      3_000,
    ],
    [
      'JSON.parse + rest.uws ClassValidator (toInstance + validate, compiled)',
      () => restUws.validate(restUws.toInstance(OrderDto, JSON.parse(body)) as object),
      20_000,
    ],
  ];
  for (const [name, fn, calls] of cases)
    console.log(`${microsecondsPerCall(fn, calls).toFixed(2).padStart(8)} µs  ${name}`);
}

main();
