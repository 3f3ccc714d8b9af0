import {
  componentAccessor,
  isThenable,
  resolvedClassMetadata,
  type ComponentAccessor,
  type RestPlugin,
  type RouteHooks,
  type RouteScope,
  type RoutingContext,
} from '../../plugin';
import type { RestEvent } from './contracts';
import { EVENTS, type EventBinding } from './event-decorator';

/** Does the entity fit the type an event declared with `@Handles` (none: anything)? Primitives by typeof. */
function entityMatches(type: Function | undefined, entity: unknown): boolean {
  if (type === undefined) return true;
  if (entity === null || entity === undefined) return false;
  if (type === Object) return true;
  if (type === String) return typeof entity === 'string' || entity instanceof String;
  if (type === Number) return typeof entity === 'number' || entity instanceof Number;
  if (type === Boolean) return typeof entity === 'boolean' || entity instanceof Boolean;
  return entity instanceof (type as new (...args: never[]) => unknown);
}

interface CompiledEvent {
  name: string;
  get: ComponentAccessor<RestEvent<unknown>>;
  /** Should it fire for this outcome? */
  fires(status: number, error: unknown): boolean;
  entityType: Function | undefined;
}

function compileEvent(
  binding: EventBinding,
  access: (b: EventBinding) => ComponentAccessor<RestEvent<unknown>>,
): CompiledEvent {
  const ctor = typeof binding.event === 'function' ? binding.event : (binding.event as object).constructor;
  const { response, exception } = binding;
  let fires: CompiledEvent['fires'];
  if (exception !== undefined)
    fires = (status, error) =>
      error instanceof (exception as new () => Error) && (response === undefined || status === response);
  else if (response !== undefined) fires = (status) => status === response;
  else fires = (status, error) => error === undefined && status >= 200 && status < 300;
  return { name: ctor.name, get: access(binding), fires, entityType: resolvedClassMetadata(ctor).handles };
}

/**
 * Events (`@Event`): routes with events get an `onResponse` hook that, once the response is produced,
 * fires each matching event in declaration order with the entity (or the error). Each event's failure
 * is logged on its own and never reaches the client; asynchronous events are awaited before the
 * request finishes.
 */
export const eventsPlugin: RestPlugin = {
  name: 'events',
  setup(app) {
    app.route(compileEvents);
  },
};

function compileEvents(scope: RouteScope): RouteHooks | undefined {
  if (scope.kind !== 'http') return undefined;
  const bindings = scope.definition.extensions.get(EVENTS) as EventBinding[] | undefined;
  if (bindings === undefined || bindings.length === 0) return undefined;
  const logger = scope.logger;
  const label = scope.definition.label;
  const events = bindings.map((b) =>
    compileEvent(b, (x) => componentAccessor(x.event, scope.components) as ComponentAccessor<RestEvent<unknown>>),
  );

  const report = (event: CompiledEvent, err: unknown) =>
    logger.error({ err, event: event.name, route: label }, 'event failed');
  const runOne = (event: CompiledEvent, entity: unknown, ctx: RoutingContext): void | Promise<void> => {
    try {
      const instance = event.get(ctx);
      const out = isThenable(instance)
        ? Promise.resolve(instance).then((e) => e.execute(entity, ctx))
        : instance.execute(entity, ctx);
      if (isThenable(out)) return Promise.resolve(out).then(undefined, (err) => report(event, err));
    } catch (err) {
      report(event, err);
    }
  };

  return {
    onResponse(ctx, entity, error) {
      const response = ctx.response;
      // Nothing was produced (the method left the response to the next route): nothing to report.
      if (error === undefined && !response.ended() && !response.headersSent()) return;
      const status = response.getStatusCode();
      const subject = error !== undefined ? error : entity;
      let pending: Promise<void> | undefined;
      for (const event of events) {
        if (!event.fires(status, error) || !entityMatches(event.entityType, subject)) continue;
        if (pending !== undefined) {
          pending = pending.then(() => runOne(event, subject, ctx));
          continue;
        }
        const out = runOne(event, subject, ctx);
        if (out !== undefined) pending = out;
      }
      return pending;
    },
  };
}
