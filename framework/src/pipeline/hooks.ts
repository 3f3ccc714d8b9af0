import type { RoutingContext } from '../context/routing-context';
import type { ResponseChunk } from '../http/body-pipe';
import type { RouteSend } from '../http/response';
import type { RouteDefinition } from '../metadata/route-definition';
import type { ClassMetadata, MethodMetadata } from '../metadata/types';
import type { ComponentFactory } from '../settings/components';
import type { SettingsView } from '../settings/settings';
import type { Logger } from '../util/log';
import type { CompileContext } from './compile-context';
import { isThenable, providerFunction } from './context-values';
import type { Exchange } from './exchange';
import type { RouteHooks, SendHook } from './route-hooks';

/**
 * The plugins' hooks made into what the lifecycle (lifecycle.ts) calls: each lifecycle point composed, once, into
 * one function, or null when nothing uses it (the request path then pays one null check for it). App-wide hooks are
 * composed when the app's plugins change; a route's own when the route is compiled.
 */

/** A stage of a route: returns a promise only when it really waits. */
export type Step = (ctx: Exchange) => void | Promise<void>;

/** The app's request hooks as one: true when one answered (no later hook runs). */
export function composeRequestHooks(
  hooks: ReadonlyArray<(ctx: RoutingContext) => boolean | void>,
): ((ctx: RoutingContext) => boolean) | null {
  if (hooks.length === 0) return null;
  if (hooks.length === 1) {
    const only = hooks[0]!;
    return (ctx) => only(ctx) === true;
  }
  return (ctx) => {
    for (let i = 0; i < hooks.length; i++) if (hooks[i]!(ctx) === true) return true;
    return false;
  };
}

/** Hooks that only observe (the app's response and error hooks) as one, each called in order. */
export function composeAll<A extends unknown[]>(hooks: Array<(...args: A) => void>): ((...args: A) => void) | null {
  if (hooks.length === 0) return null;
  if (hooks.length === 1) return hooks[0]!;
  return (...args) => {
    for (let i = 0; i < hooks.length; i++) hooks[i]!(...args);
  };
}

/** Send hooks run in order as one, each given the body the previous one left; null when there are none. */
export function composeSendHooks(hooks: readonly SendHook[]): SendHook | null {
  if (hooks.length === 0) return null;
  if (hooks.length === 1) return hooks[0]!;
  return (ctx, body, sent) => {
    let current: ResponseChunk | undefined = body;
    for (let i = 0; i < hooks.length; i++) {
      const out = hooks[i]!(ctx, current, sent);
      if (out !== undefined && !sent.streamed) current = out;
    }
    return current;
  };
}

/** The hooks the app's plugins give one route (or upgrade), decided now, in plugin order. */
export function routeHooksFor(
  cc: CompileContext,
  definition: RouteDefinition,
  kind: 'http' | 'websocket',
  classMeta: ClassMetadata,
  methodMeta: MethodMetadata,
): RouteHooks[] {
  const hooks: RouteHooks[] = [];
  for (const factory of cc.hooks) {
    const h = factory({
      definition,
      kind,
      classMeta,
      methodMeta,
      settings: cc.settings,
      components: cc.components,
      logger: cc.logger,
    });
    if (h) hooks.push(h);
  }
  return hooks;
}

/**
 * Steps as one, in order: synchronously while they are synchronous, and stopping once one has ended the response
 * (a plugin answered the request). Errors go to the caller. Null for no steps.
 */
function inOrder(steps: readonly Step[]): Step | null {
  if (steps.length === 0) return null;
  if (steps.length === 1) return steps[0]!;
  return (ctx) => runFrom(steps, 0, ctx);
}

function runFrom(steps: readonly Step[], from: number, ctx: Exchange): void | Promise<void> {
  for (let i = from; i < steps.length; i++) {
    const out = steps[i]!(ctx);
    if (out !== undefined) return out.then(() => (ctx.response.ended() ? undefined : runFrom(steps, i + 1, ctx)));
    if (ctx.response.ended()) return;
  }
}

/** The route's hooks of one lifecycle point (`onMatch`, `onRequest`) as one step, or null. */
export function routeStep(hooks: readonly RouteHooks[], point: 'onMatch' | 'onRequest'): Step | null {
  const steps: Step[] = [];
  for (const h of hooks) {
    const hook = h[point];
    if (hook !== undefined) steps.push(hook);
  }
  return inOrder(steps);
}

/** The route's `beforeHandler` hooks as one step, each given the arguments read (validation), or null. */
export function beforeHandlerStep(hooks: readonly RouteHooks[]): Step | null {
  const steps: Step[] = [];
  for (const h of hooks) {
    const beforeHandler = h.beforeHandler;
    if (beforeHandler) steps.push((ctx) => beforeHandler(ctx, ctx.args ?? (ctx.args = [])));
  }
  return inOrder(steps);
}

/**
 * The app's request providers (`provide`) as one step: each runs on every request of the route and pushes what it
 * provides into the routing context, where `@Context` arguments of its class find it. Null when there are none.
 */
export function providersStep(settings: SettingsView, components: ComponentFactory): Step | null {
  return inOrder(
    settings.requestProviders().map((provider): Step => {
      const provide = providerFunction(provider, components);
      return (ctx) => {
        const out = provide(ctx.request, ctx);
        const push = (v: unknown) => {
          if (v !== null && v !== undefined) ctx.put((v as object).constructor, v);
        };
        if (isThenable(out)) return Promise.resolve(out).then(push);
        push(out);
      };
    }),
  );
}

/** The route's `onResponse` hooks (events) as one: called with the answer's entity, or the error. */
export type ResponseStep = (ctx: Exchange, entity: unknown, error: unknown) => void | Promise<void>;

/** The route's `onResponse` hooks as one, each failure logged and kept from the client; null when there are none. */
export function responseStep(hooks: readonly RouteHooks[], logger: Logger): ResponseStep | null {
  const afters = hooks.filter((h) => h.onResponse !== undefined).map((h) => h.onResponse!);
  if (afters.length === 0) return null;
  return (ctx, entity, error) => {
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
}

/**
 * The route's `onSend` hooks as one (null when no plugin has one), skipped for complete bodies shorter than the
 * smallest of their `onSendMinBytes`: the lifecycle gives it to the response when the route is entered, before any
 * stage, so every answer of the route meets it.
 */
export function routeSendHook(hooks: readonly RouteHooks[]): RouteSend | null {
  const senders = hooks.filter((h) => h.onSend !== undefined);
  const hook = composeSendHooks(senders.map((h) => h.onSend!));
  if (hook === null) return null;
  const minBytes = Math.min(
    ...senders.map((h) => (Number.isFinite(h.onSendMinBytes) && h.onSendMinBytes! > 0 ? h.onSendMinBytes! : 0)),
  );
  return { hook, minBytes };
}
