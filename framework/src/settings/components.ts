import { NO_CACHE } from '../decorators/no-cache';
import { RegistrationError } from '../errors/http-errors';
import type { Provided } from '../io/registry';
import { ownClassMetadata, resolvedClassMetadata } from '../metadata/store';
import type { Constructor } from '../metadata/types';
import type { SettingsView } from './settings';
import type { RoutingContext } from '../context/routing-context';

/** Marker read by the component factory: `@NoCache` classes are created for every request. */

/** Makes the function that fills a per-request component's `@Context` fields (installed by injection/, which compiles them like arguments). */
export type ContextFieldFillerFactory = (ctor: Constructor, settings: SettingsView, components: ComponentFactory) => (instance: any, ctx: RoutingContext) => unknown;
let contextFieldFiller: ContextFieldFillerFactory | null = null;

/** Installs the `@Context` field filler (done once by the injection module). */
export function setContextFieldFiller(factory: ContextFieldFillerFactory): void {
  contextFieldFiller = factory;
}

/**
 * Creates readers, writers, handlers, providers and REST classes: through the injection provider
 * when one is set, else with `new`. Instances are cached singletons (cleared by RestRouter.clearCache),
 * except classes marked `@NoCache` or with `@Context` fields, which are made per request.
 */
export class ComponentFactory {
  private readonly cache = new Map<Function, unknown>();

  constructor(private readonly settings: SettingsView) {}

  /** Is this component made per request? */
  isPerRequest(provided: Provided<unknown>): boolean {
    if (typeof provided !== 'function') return false;
    const meta = resolvedClassMetadata(provided);
    if (meta.extensions.has(NO_CACHE)) return true;
    for (const f of meta.fields.values()) if (f.source === 'context') return true;
    return false;
  }

  /** A cached instance (or the given instance). */
  get<T>(provided: Provided<T>): T {
    if (typeof provided !== 'function' || !isClass(provided)) return provided as T;
    const ctor = provided as Constructor<T>;
    let instance = this.cache.get(ctor) as T | undefined;
    if (instance === undefined) {
      instance = this.create(ctor);
      this.cache.set(ctor, instance);
    }
    return instance;
  }

  /**
   * How a request gets a component: the cached instance, or, for `@NoCache` classes and classes with
   * `@Context` fields, a new instance per request with its fields filled from that request.
   * Decided once, at registration; components used per request go through this.
   */
  accessor<T>(provided: Provided<T>): (ctx: RoutingContext) => T {
    if (typeof provided !== 'function' || !isClass(provided) || !this.isPerRequest(provided)) {
      const instance = this.get(provided);
      return () => instance;
    }
    const ctor = provided as Constructor<T>;
    const fill = contextFieldFiller?.(ctor, this.settings, this);
    return (ctx) => {
      const instance = this.create(ctor);
      if (fill === undefined) return instance;
      const out = fill(instance, ctx);
      if (out !== null && typeof out === 'object' && typeof (out as PromiseLike<unknown>).then === 'function') {
        throw new Error(`${ctor.name}: a provider of one of its @Context fields answered asynchronously; fields of readers, writers and handlers must be provided synchronously`);
      }
      return instance;
    };
  }

  /** A new instance, never cached. */
  create<T>(ctor: Constructor<T>): T {
    const injector = this.settings.injector;
    try {
      if (injector) return injector.getInstance(ctor);
      return new (ctor as any)();
    } catch (err) {
      throw new RegistrationError(`Cannot create ${ctor.name}: ${(err as Error)?.message ?? err}${injector ? '' : ' (without an injection provider, classes need a constructor without arguments; see RestBuilder.injectWith)'}`, 'RU_ERR_INSTANTIATION');
    }
  }

  clear(): void {
    this.cache.clear();
  }
}

/** Classes vs plain functions: a class has a prototype with more than the constructor, or is declared with `class`. */
export function isClass(fn: Function): boolean {
  return /^class[\s{]/.test(Function.prototype.toString.call(fn)) || (fn.prototype && Object.getOwnPropertyNames(fn.prototype).length > 1) || ownClassMetadata(fn) !== undefined;
}
