import { isThenable } from '../context-values';
import type { Exchange } from '../exchange';
import type { Step } from './step';

/** Calls the route's method with the arguments read; what it returns (or resolves to) is the result. */
export function invokeStep(instance: object, method: (...args: unknown[]) => unknown, argc: number): Step {
  const setResult = (ctx: Exchange, v: unknown) => {
    ctx.result = v;
  };
  return (ctx) => {
    const out =
      argc === 0
        ? method.call(instance)
        : argc === 1
          ? method.call(instance, ctx.args![0])
          : method.apply(instance, ctx.args!);
    if (isThenable(out)) return Promise.resolve(out).then((v) => setResult(ctx, v));
    ctx.result = out;
  };
}
