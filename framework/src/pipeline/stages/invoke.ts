import { isThenable } from '../context-values';
import type { Exchange } from '../exchange';
import type { Step } from './step';

/** Calls the route's method with the arguments read; what it returns (or resolves to) is the result. */
export function invokeStep(instance: object, method: (...args: unknown[]) => unknown, argc: number): Step {
  const setResult = (ctx: Exchange, v: unknown) => {
    ctx.result = v;
  };
  return (ctx) => {
    // Up to three arguments are passed one by one: `apply` with an array is V8's generic CallWithArrayLike.
    const a = ctx.args!;
    const out =
      argc === 0 ? method.call(instance)
      : argc === 1 ? method.call(instance, a[0])
      : argc === 2 ? method.call(instance, a[0], a[1])
      : argc === 3 ? method.call(instance, a[0], a[1], a[2])
      : method.apply(instance, a);
    if (isThenable(out)) return Promise.resolve(out).then((v) => setResult(ctx, v));
    ctx.result = out;
  };
}
