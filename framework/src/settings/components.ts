import { NO_CACHE } from '../decorators/no-cache';
import type { Provided } from '../io/registry';
import { ownClassMetadata, resolvedClassMetadata } from '../metadata/store';
import type { Constructor } from '../metadata/types';
import type { SettingsView } from './settings';
import type { RoutingContext } from '../context/routing-context';
import { errors } from '../errors/factories';

/** Fills a new per-request component's fields from the request; returns a promise only when a value waits. */
export type ComponentFill = (instance: any, ctx: RoutingContext) => void | Promise<void>;

/**
 * Makes a class's `ComponentFill` (asked once per class, when it is bound at registration), or undefined when it
 * fills nothing. A plugin gives the app one (`app.fillComponents`): the built-in injection plugin fills `@Context` fields.
 */
export type ComponentFiller = (type: Constructor) => ComponentFill | undefined;

/**
 * Creates readers, writers, handlers, providers and REST classes: through the injection provider
 * when one is set, else with `new`. Instances are cached singletons (cleared by RestRouter.clearCache),
 * except classes marked `@NoCache` or with `@Context` fields, which are made per request.
 */
export class ComponentFactory {
  private readonly cache = new Map<Function, unknown>();

  /**
   * @param settings the app's settings (its injection provider)
   * @param filler the app's component filler, when a plugin gave one (read when a class is bound)
   */
  constructor(
    private readonly settings: SettingsView,
    private readonly filler: () => ComponentFiller | null = () => null,
  ) {}

  /** What fills a per-request class's fields from the request, or undefined when nothing does. */
  fillFor(ctor: Constructor): ComponentFill | undefined {
    return this.filler()?.(ctor);
  }

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
   * Decided once, at registration; components used per request go through this. A `@Context` field whose provider
   * answers asynchronously is refused (RU_ERR_ASYNC_CONTEXT_FIELD), unless `asyncFields` is `'wait'`: then the
   * accessor answers with a promise of the instance once its fields are filled.
   */
  accessor<T>(provided: Provided<T>, asyncFields?: 'refuse'): (ctx: RoutingContext) => T;
  accessor<T>(provided: Provided<T>, asyncFields: 'wait'): (ctx: RoutingContext) => T | Promise<T>;
  accessor<T>(
    provided: Provided<T>,
    asyncFields: 'refuse' | 'wait' = 'refuse',
  ): (ctx: RoutingContext) => T | Promise<T> {
    if (typeof provided !== 'function' || !isClass(provided) || !this.isPerRequest(provided)) {
      const instance = this.get(provided);
      return () => instance;
    }
    const ctor = provided as Constructor<T>;
    // Made per request: what would fail on every request is refused now, at registration.
    this.refuseUnconstructible(ctor);
    const fill = this.fillFor(ctor);
    if (fill === undefined) return () => this.instantiate(ctor);
    return (ctx) => {
      const instance = this.instantiate(ctor);
      const out = fill(instance, ctx);
      if (out === null || typeof out !== 'object' || typeof (out as PromiseLike<unknown>).then !== 'function')
        return instance;
      if (asyncFields === 'wait') return Promise.resolve(out).then(() => instance);
      throw errors.RU_ERR_ASYNC_CONTEXT_FIELD(
        `${ctor.name}: a provider of one of its @Context fields answered asynchronously; fields of readers, writers and handlers must be provided synchronously`,
      );
    };
  }

  /**
   * For a class made per request: refuses now (RU_ERR_CONSTRUCTOR_ARGUMENTS) what `create` would refuse on
   * every request, a constructor that takes arguments when no injector is configured.
   */
  refuseUnconstructible(ctor: Constructor): void {
    if (!this.settings.injector) refuseConstructorArguments(ctor);
  }

  /** A new instance, never cached. */
  create<T>(ctor: Constructor<T>): T {
    this.refuseUnconstructible(ctor);
    return this.instantiate(ctor);
  }

  /**
   * A new instance of a class `refuseUnconstructible` already accepted, at registration: for classes made per
   * request, which then skip reading the constructor's source again on every request.
   */
  instantiate<T>(ctor: Constructor<T>): T {
    const injector = this.settings.injector;
    try {
      if (injector) return injector.getInstance(ctor);
      return new (ctor as any)();
    } catch (err) {
      throw errors.RU_ERR_INSTANTIATION(
        `Cannot create ${ctor.name}: ${(err as Error)?.message ?? err}${injector ? '' : ' (without an injection provider, classes need a constructor without arguments; see RestBuilder.injectWith)'}`,
      );
    }
  }

  clear(): void {
    this.cache.clear();
  }
}

/**
 * Without an injector a class is made with `new Class()`: a constructor that declares parameters would get
 * `undefined` for each and fail on the first request that uses them, so it is refused when it is registered.
 * A derived class without a constructor of its own takes its parent's parameters.
 */
function refuseConstructorArguments(ctor: Constructor): void {
  const declared = declaredParameters(ctor);
  if (declared === 0) return;
  throw errors.RU_ERR_CONSTRUCTOR_ARGUMENTS(
    `${ctor.name}: its constructor takes ${declared === 1 ? 'an argument' : `${declared} arguments`}, and no injector is configured, ` +
      `so rest.uws would make it with \`new ${ctor.name}()\` and every argument would be undefined. Register an instance ` +
      `(\`register(new ${ctor.name}(...))\`, or the instance where a class is expected), configure an injector ` +
      `(\`RestBuilder.injectWith(...)\`, docs/reference/validation-and-injection.md), or give the parameters default values.`,
  );
}

function declaredParameters(ctor: Function): number {
  for (let c: Function = ctor; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    if (c.length > 0) return c.length;
    // An own constructor without parameters (or source text that cannot tell): nothing is passed on.
    if (
      /\bconstructor\s*\(/.test(Function.prototype.toString.call(c)) ||
      !/^class\b/.test(Function.prototype.toString.call(c))
    )
      return 0;
  }
  return 0;
}

/** Classes vs plain functions: a class has a prototype with more than the constructor, or is declared with `class`. */
export function isClass(fn: Function): boolean {
  return (
    /^class[\s{]/.test(Function.prototype.toString.call(fn)) ||
    (fn.prototype && Object.getOwnPropertyNames(fn.prototype).length > 1) ||
    ownClassMetadata(fn) !== undefined
  );
}
