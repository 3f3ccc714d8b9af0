import type { DependencyContainer } from 'tsyringe';
import { designParamTypes, errors, type Constructor, type InjectionProvider } from '../../plugin';

type Tsyringe = typeof import('tsyringe');
let tsyringeModule: Tsyringe | undefined;

/** tsyringe is an optional peer dependency, loaded when a provider is made. */
function tsyringe(): Tsyringe {
  if (tsyringeModule !== undefined) return tsyringeModule;
  try {
    return (tsyringeModule = require('tsyringe') as Tsyringe);
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code === 'MODULE_NOT_FOUND')
      throw errors.RU_ERR_MISSING_PACKAGE('TsyringeInjectionProvider needs the package tsyringe: npm install tsyringe');
    throw err;
  }
}

/**
 * Resolves REST classes, readers, writers, exception handlers, events and providers through a
 * tsyringe container (the root one unless given): constructor parameters are injected, including
 * tsyringe's `@inject(token)`. Classes need not be registered: any class with a decorator (or
 * `@Inject`) is resolvable. rest.uws caches what it resolves (one instance per app) unless the
 * class is `@NoCache` or has `@Context` fields; tsyringe's own scopes apply to what they inject.
 *
 * ```ts
 * const container = tsyringeContainer.createChildContainer();
 * container.register(BOOKINGS, { useValue: bookingService });
 * new RestBuilder().injectWith(new TsyringeInjectionProvider(container)).register(BookingResource).build();
 * ```
 */
export class TsyringeInjectionProvider implements InjectionProvider {
  /** The container classes are resolved from. */
  readonly container: DependencyContainer;
  private readonly prepared = new WeakSet<Function>();

  constructor(container?: DependencyContainer) {
    this.container = container ?? tsyringe().container;
  }

  /** Resolves the class through the container, registering its constructor types on first use. */
  getInstance<T>(type: Constructor<T>): T {
    if (!this.prepared.has(type)) {
      this.prepare(type);
      this.prepared.add(type);
    }
    return this.container.resolve(type as unknown as new (...args: unknown[]) => T);
  }

  /**
   * Registers the constructor's parameter types with tsyringe, as its @injectable() would, and
   * those of the classes it depends on, so nested dependencies resolve without registration.
   */
  private prepare(type: Constructor, seen = new Set<Function>()): void {
    if (seen.has(type)) return;
    seen.add(type);
    if (this.container.isRegistered(type as never, true) || type.length === 0) return;
    const params = designParamTypes(type, undefined);
    if (params === undefined) {
      throw errors.RU_ERR_INJECTION_TYPES(
        `${type.name} takes constructor parameters, but TypeScript recorded no types for them: decorate the class with @Inject (or tsyringe's @injectable())`,
      );
    }
    for (const dependency of params) {
      if (
        typeof dependency === 'function' &&
        dependency !== Object &&
        dependency.prototype !== undefined &&
        designParamTypes(dependency, undefined) !== undefined
      ) {
        this.prepare(dependency as Constructor, seen);
      }
    }
    tsyringe().injectable()(type as never);
  }
}
