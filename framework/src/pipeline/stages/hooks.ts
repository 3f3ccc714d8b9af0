import type { RouteDefinition } from '../../metadata/route-definition';
import type { ClassMetadata, MethodMetadata } from '../../metadata/types';
import type { CompileContext } from '../compile-context';
import type { RouteSend } from '../../http/response';
import type { RouteHooks } from '../route-hooks';
import { composeSendHooks } from '../send-hooks';
import type { Step } from './step';

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
 * The plugins' `onSend` hooks of the route as one (null when no plugin has one), skipped for complete bodies
 * shorter than the smallest of their `onSendMinBytes`: `Exchange.enter` gives it to the response when the route
 * is entered, before any step, so every answer of the route meets it.
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

/** The plugins' `onMatch` hooks as steps (rate limits, first of all). */
export function onMatchSteps(hooks: readonly RouteHooks[]): Step[] {
  const steps: Step[] = [];
  for (const h of hooks) if (h.onMatch) steps.push(h.onMatch);
  return steps;
}

/** The plugins' `onRequest` hooks as steps (security, before the arguments). */
export function onRequestSteps(hooks: readonly RouteHooks[]): Step[] {
  const steps: Step[] = [];
  for (const h of hooks) if (h.onRequest) steps.push(h.onRequest);
  return steps;
}

/** The plugins' `beforeHandler` hooks as steps, each given the arguments read (validation). */
export function beforeHandlerSteps(hooks: readonly RouteHooks[]): Step[] {
  const steps: Step[] = [];
  for (const h of hooks) {
    const beforeHandler = h.beforeHandler;
    if (beforeHandler) steps.push((ctx) => beforeHandler(ctx, ctx.args ?? (ctx.args = [])));
  }
  return steps;
}
