import type { Exchange } from '../exchange';
import type { Step } from './step';

/**
 * Runs steps in order, synchronously while they are synchronous; switches to promises at the first step
 * that returns one. Stops early once a step has ended the response (a plugin answered the request).
 * Errors propagate to the caller.
 */
export function runSteps(steps: readonly Step[]): (ctx: Exchange) => void | Promise<void> {
  const n = steps.length;
  const rest = async (first: Promise<void>, from: number, ctx: Exchange): Promise<void> => {
    await first;
    for (let i = from; i < n; i++) {
      if (ctx.response.ended()) return;
      const out = steps[i]!(ctx);
      if (out !== undefined) await out;
    }
  };
  return (ctx) => {
    for (let i = 0; i < n; i++) {
      const out = steps[i]!(ctx);
      if (out !== undefined) return rest(out, i + 1, ctx);
      if (ctx.response.ended()) return;
    }
  };
}
