import { isThenable, type ValueResolver } from '../context-values';
import type { Step } from './step';

/**
 * Reads the method's arguments: each resolver in order, synchronously while they are synchronous.
 * A null resolver leaves its place empty (the WebSocket connection, given later). The first failing
 * argument in order decides the error, also when an earlier one is still waiting.
 */
export function readArgumentsStep(resolvers: ReadonlyArray<ValueResolver | null>): Step {
  const argc = resolvers.length;
  return (ctx) => {
    const args = new Array(argc);
    let pending = false;
    for (let i = 0; i < argc; i++) {
      const resolve = resolvers[i];
      let v: unknown;
      try {
        v = resolve === null ? null : resolve!(ctx);
      } catch (error) {
        // An earlier argument may still be waiting (an async provider): settle it first, so its
        // rejection is never left unhandled and the first failing argument, in order, decides.
        if (!pending) throw error;
        args.length = i;
        return settleInOrder(args).then(() => {
          throw error;
        });
      }
      if (isThenable(v)) pending = true;
      args[i] = v;
    }
    ctx.args = args;
    if (pending) return settleInOrder(args).then((resolved) => void (ctx.args = resolved));
  };
}

/** Waits for every argument; rejects with the first failure in argument order (not in time order). */
function settleInOrder(values: unknown[]): Promise<unknown[]> {
  return Promise.allSettled(values).then((results) => {
    for (const r of results) if (r.status === 'rejected') throw r.reason;
    return results.map((r) => (r as PromiseFulfilledResult<unknown>).value);
  });
}
