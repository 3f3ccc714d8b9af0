import type { ContextProvider } from '../context/contracts';
import { RoutingContext } from '../context/routing-context';
import type { Exchange } from './exchange';
import { User } from '../context/user';
import { UwsApp } from '../context/uws-app';
import { HttpServerRequest } from '../http/request';
import { HttpServerResponse } from '../http/response';
import type { Provided } from '../io/registry';
import { RouteDefinition } from '../metadata/route-definition';
import type { ComponentFactory } from '../settings/components';
import type { ProviderRegistration, SettingsView } from '../settings/settings';
import { isClass } from '../settings/components';
import { resolvedClassMetadata } from '../metadata/store';
import { errors } from '../errors/factories';

/** Resolves one value for a request; may be async (providers, readers). */
export type ValueResolver = (ctx: Exchange) => unknown;

/** The built-in `@Context` types, resolved without any lookup. */
const BUILT_IN = new Map<Function, ValueResolver>([
  [HttpServerRequest, (ctx) => ctx.request],
  [HttpServerResponse, (ctx) => ctx.response],
  [RoutingContext, (ctx) => ctx],
  [RouteDefinition, (ctx) => ctx.route()],
  [UwsApp, (ctx) => ctx.app],
  [User, (ctx) => ctx.user()],
]);

/** Turns a provider registration (class, instance or function) into a function of the request. */
export function providerFunction(
  reg: ProviderRegistration,
  components: ComponentFactory,
): (request: HttpServerRequest, ctx: RoutingContext) => unknown {
  if (typeof reg === 'function' && !isClass(reg))
    return reg as (request: HttpServerRequest, ctx: RoutingContext) => unknown;
  if (typeof reg === 'function' && components.isPerRequest(reg)) {
    const provider = components.accessor(reg as Provided<ContextProvider>);
    return (request, ctx) => provider(ctx).provide(request);
  }
  const instance = components.get(reg as Provided<ContextProvider>);
  return (request) => instance.provide(request);
}

/**
 * A `@Context` value: the parameter's `@ContextReader`; the method's `@ContextReader` when it provides the
 * parameter's type; an object pushed into the routing context, a built-in type, then a registered provider.
 * A value that cannot be provided gives 400.
 */
export function contextResolver(
  type: Function | undefined,
  contextReader: ProviderRegistration | undefined,
  settings: SettingsView,
  components: ComponentFactory,
  fallback: (() => unknown) | undefined,
  optional: boolean,
  methodReader?: ProviderRegistration,
): ValueResolver {
  const typeName = type?.name ?? 'unknown';
  const missing = (): unknown => {
    if (fallback) return fallback();
    if (optional) return undefined;
    throw errors.RU_ERR_CONTEXT(`Can't provide @Context of type: ${typeName}`);
  };
  const settle = (v: unknown): unknown => (v === null || v === undefined ? missing() : v);

  if (contextReader !== undefined) {
    const provide = providerFunction(contextReader, components);
    return (ctx) => thenOrNow(provide(ctx.request, ctx), settle);
  }
  if (methodReader !== undefined) {
    // One reader for a whole method serves the arguments of its type only: TypeScript erases
    // ContextProvider<T>'s T, so the type is its @Handles, else that of the value it gives.
    const declared = providedType(methodReader);
    if (type === undefined || type === Object || declared === undefined || fits(declared, type)) {
      const provide = providerFunction(methodReader, components);
      if (type === undefined || type === Object || declared !== undefined)
        return (ctx) => thenOrNow(provide(ctx.request, ctx), settle);
      const usual = contextResolver(type, undefined, settings, components, fallback, optional);
      return (ctx) => thenOrNow(provide(ctx.request, ctx), (v) => (isOfType(v, type) ? v : usual(ctx)));
    }
  }
  const builtIn = type !== undefined ? BUILT_IN.get(type) : undefined;
  if (builtIn !== undefined) return (ctx) => settle(builtIn(ctx));
  if (type === undefined || type === Object) {
    throw errors.RU_ERR_CONTEXT(`@Context needs a type: TypeScript reported none (use @Context(Type))`);
  }
  const registered = settings.contextProvider(type);
  const provide = registered !== undefined ? providerFunction(registered, components) : undefined;
  return (ctx) => {
    const pushed = ctx.get(type);
    if (pushed !== undefined) return pushed;
    if (provide === undefined) return missing();
    return thenOrNow(provide(ctx.request, ctx), settle);
  };
}

/** The type a provider declared with `@Handles` (classes and instances; functions declare none). */
function providedType(reg: ProviderRegistration): Function | undefined {
  const ctor = typeof reg === 'function' ? (isClass(reg) ? reg : undefined) : (reg as object).constructor;
  return ctor !== undefined ? resolvedClassMetadata(ctor).handles : undefined;
}

/** Can a value of type `provided` be given to an argument of type `wanted`? */
function fits(provided: Function, wanted: Function): boolean {
  return provided === wanted || provided.prototype instanceof wanted;
}

/** Is `value` of `type` (primitives by typeof)? */
function isOfType(value: unknown, type: Function): boolean {
  if (value === null || value === undefined) return false;
  if (type === String) return typeof value === 'string' || value instanceof String;
  if (type === Number) return typeof value === 'number' || value instanceof Number;
  if (type === Boolean) return typeof value === 'boolean' || value instanceof Boolean;
  return value instanceof (type as new (...args: never[]) => unknown);
}

/** Applies `fn` now for plain values, after settling for promises: keeps synchronous routes synchronous. */
function thenOrNow(value: unknown, fn: (v: unknown) => unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function') {
    return (value as PromiseLike<unknown>).then(fn);
  }
  return fn(value);
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
}
