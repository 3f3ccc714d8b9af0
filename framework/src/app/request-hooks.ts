import type { RoutingContext } from '../context/routing-context';
import type { AppRuntime } from './app-runtime';

/**
 * Adds a per-request hook to the runtime's single `onRequest` slot, chaining with whatever is
 * there (request logging and in-flight tracking both need it). The slot stays null while nobody
 * asks, so the request path pays nothing then.
 */
export function addRequestHook(rt: AppRuntime, hook: (ctx: RoutingContext) => void): void {
  const previous = rt.onRequest;
  rt.onRequest = previous === null ? hook : (ctx) => {
    previous(ctx);
    hook(ctx);
  };
}
