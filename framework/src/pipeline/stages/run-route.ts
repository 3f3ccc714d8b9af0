import { Response } from '../../http/response-entity';
import { isThenable } from '../context-values';
import type { Exchange } from '../exchange';
import { handleError, type BoundHandler, type ErrorPolicy } from '../exception-handling';
import type { RouteHooks } from '../route-hooks';
import { runSteps } from './run-steps';
import type { Step } from './step';

/**
 * A route's whole run: its steps in order (synchronously while they are synchronous), errors to the
 * exception handlers (the route's, then the app's), and the plugins' `onResponse` hooks (events) after the
 * answer, whatever it was. Never throws.
 */
export function runRoute(
  steps: readonly Step[],
  afters: ReadonlyArray<NonNullable<RouteHooks['onResponse']>>,
  routeHandlers: readonly BoundHandler[],
  errors: ErrorPolicy,
): (ctx: Exchange) => void | Promise<void> {
  const logger = errors.logger;
  const runAfters = (ctx: Exchange, error: unknown): void | Promise<void> => {
    if (afters.length === 0) return;
    const entity = error === undefined ? (ctx.result instanceof Response ? ctx.result.entity : ctx.result) : undefined;
    const pending: Promise<unknown>[] = [];
    for (const after of afters) {
      try {
        const out = after(ctx, entity, error);
        if (isThenable(out)) pending.push(Promise.resolve(out).catch((err) => logger.error({ err }, 'event failed')));
      } catch (err) {
        logger.error({ err }, 'event failed');
      }
    }
    if (pending.length > 0) return Promise.all(pending).then(() => undefined);
  };
  const fail = (ctx: Exchange, error: unknown): void | Promise<void> => {
    const handled = handleError(ctx, normalizeError(error), routeHandlers, errors);
    if (afters.length === 0) return handled;
    if (isThenable(handled)) return handled.then(() => runAfters(ctx, error));
    return runAfters(ctx, error);
  };
  const run = runSteps(steps);
  const settled = (ctx: Exchange) => runAfters(ctx, undefined);
  return (ctx) => {
    let out: void | Promise<void>;
    try {
      out = run(ctx);
    } catch (error) {
      return fail(ctx, error);
    }
    if (out !== undefined)
      return out.then(
        () => settled(ctx),
        (error) => fail(ctx, error),
      );
    return runAfters(ctx, undefined);
  };
}

/** Non-Error throws (strings, objects) become Errors so handlers can match types. */
export function normalizeError(error: unknown): unknown {
  if (error instanceof Error) return error;
  if (error !== null && typeof error === 'object') return error;
  return new Error(String(error));
}
