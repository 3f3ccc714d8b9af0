import type { RouteDefinition } from '../metadata/route-definition';
import { resolvedClassMetadata } from '../metadata/store';
import type { Constructor, HttpMethod } from '../metadata/types';
import type { RouteSource } from '../pipeline/define-route';
import type { CompiledRoute } from '../pipeline/route-compiler';
import type { ClassHandler } from '../pipeline/plugin';
import { compilePathPattern, joinPaths } from '../routing/path-pattern';
import type { Router, RouteSlot } from '../routing/router';
import type { ComponentFactory } from '../settings/components';
import type { SettingsView } from '../settings/settings';
import type { Logger } from '../util/log';
import { errors } from '../errors/factories';

/** A registered route and its compiled form, rebuilt when global registries change. */
export interface RouteHolder {
  /** The class, method and pattern the route came from. */
  source: RouteSource;
  /** The route's stages and definition, rebuilt when global registries change. */
  compiled: CompiledRoute;
  /** The path variables' names, in pattern order. */
  paramNames: readonly string[];
  /** The compiled route's definition (what body streamers and tools read). */
  definition: RouteDefinition;
}

/** What registering classes needs of its app. */
export interface RegistrationScope {
  readonly settings: SettingsView;
  readonly components: ComponentFactory;
  readonly logger: Logger;
  /** The plugins' handlers of classes that are no REST classes of routes (WebSocket endpoints). */
  readonly classHandlers: readonly ClassHandler[];
  /** Compiles a route (every check that can fail, fails here). */
  compile(source: RouteSource): CompiledRoute;
}

/**
 * An app's registered routes: each class's methods turned into routes, checked against each other (a class
 * registered twice, two routes matching the same paths with different variable names), then added to the router.
 * A class fails whole: none of its routes is added when one fails.
 */
export class RouteTable {
  private readonly holders: RouteHolder[] = [];
  /** One registered route per method and path shape, to find conflicting variable names without a scan. */
  private readonly byShape = new Map<string, RouteHolder>();
  private readonly registered = new Set<unknown>();
  private anyNeedsBody = false;

  constructor(readonly router: Router<RouteHolder>) {}

  /** Every registered route, in registration order. */
  all(): readonly RouteHolder[] {
    return this.holders;
  }

  /** The route of a definition (OpenAPI asks by definition). */
  of(definition: RouteDefinition): RouteHolder | undefined {
    return this.holders.find((h) => h.definition === definition);
  }

  /** Whether any route reads bodies. */
  get needsBodies(): boolean {
    return this.anyNeedsBody;
  }

  /** Registers REST classes or instances; every route is compiled and checked first, then added (`added` told). */
  register(
    targets: Array<Constructor | object>,
    scope: RegistrationScope,
    added: (slot: RouteSlot<RouteHolder>) => void,
  ): void {
    const holders: RouteHolder[] = [];
    const pendingShapes = new Map<string, RouteHolder>();
    for (const target of targets) {
      const ctor = (typeof target === 'function' ? target : (target as object).constructor) as Constructor;
      if (this.registered.has(ctor))
        throw errors.RU_ERR_DUPLICATE_CLASS(`${ctor.name} is already registered on this app`);
      const instance = typeof target === 'function' ? scope.components.get(ctor) : target;
      for (const holder of this.routesOf(ctor, instance as object, scope, (h) => this.checkConflicts(h, pendingShapes)))
        holders.push(holder);
      this.registered.add(ctor);
    }
    for (const h of holders) {
      const slot = this.router.add(h.source.method, h.source.pattern, h, h.compiled.definition.order);
      this.holders.push(h);
      const shape = shapeKey(h);
      if (!this.byShape.has(shape)) this.byShape.set(shape, h);
      if (h.compiled.needsBody) this.anyNeedsBody = true;
      added(slot);
    }
  }

  /** Compiles every route again (plugins or global registries changed); definitions stay as they were keyed. */
  recompile(compile: (source: RouteSource) => CompiledRoute): void {
    for (const h of this.holders) {
      h.compiled = compile(h.source);
      h.definition = h.compiled.definition;
    }
  }

  /** One class's routes, compiled and each `check`ed; a class without routes must be taken by a class handler. */
  private routesOf(
    ctor: Constructor,
    instance: object,
    scope: RegistrationScope,
    check: (holder: RouteHolder) => void,
  ): RouteHolder[] {
    const classMeta = resolvedClassMetadata(ctor);
    for (const [key, field] of classMeta.fields) {
      if (field.source === 'context') {
        throw errors.RU_ERR_CONTEXT_FIELD(
          `${ctor.name}.${String(key)}: REST classes are singletons and cannot have @Context fields; take the value as a @Context method argument instead`,
        );
      }
    }
    const holders: RouteHolder[] = [];
    let taken = 0;
    for (const methodMeta of classMeta.methods.values()) {
      const where = `${ctor.name}.${String(methodMeta.name)}()`;
      if (methodMeta.httpMethodConflict) {
        throw errors.RU_ERR_METHOD_TWICE(
          `${where} - Method already set to: ${methodMeta.httpMethod === methodMeta.httpMethodConflict ? methodMeta.httpMethod : `${methodMeta.httpMethodConflict}, then ${methodMeta.httpMethod}`}!`,
        );
      }
      if (methodMeta.path === undefined) {
        if (methodMeta.httpMethod === undefined) continue; // decorated for another reason (arguments only): not a route
        // As in JAX-RS, an HTTP-method decorator alone serves the class path; without one there is no path at all.
        if (classMeta.path === undefined) {
          throw errors.RU_ERR_MISSING_PATH(`${where} - Missing route @Path! Put @Path on the method or on its class.`);
        }
      }
      const method: HttpMethod = methodMeta.httpMethod ?? 'GET';
      const routePath = methodMeta.path === undefined ? classMeta.path! : joinPaths(classMeta.path, methodMeta.path);
      const pattern = compilePathPattern(
        classMeta.applicationPath ? joinPaths(classMeta.applicationPath, routePath) : routePath,
        where,
      );
      const source: RouteSource = { resourceClass: ctor, instance, classMeta, methodMeta, method, pattern };
      const compiled = scope.compile(source);
      const holder: RouteHolder = { source, compiled, paramNames: pattern.paramNames, definition: compiled.definition };
      check(holder);
      holders.push(holder);
      taken++;
    }
    const classScope = {
      resourceClass: ctor,
      instance,
      extensions: classMeta.extensions,
      metadata: classMeta,
      settings: scope.settings,
      components: scope.components,
      logger: scope.logger,
    };
    for (const handler of scope.classHandlers) if (handler(classScope)) taken++;
    if (taken === 0 && classMeta.extensions.size === 0) {
      throw errors.RU_ERR_NO_ROUTES(`${ctor.name} has no routes: decorate its methods with @GET/@POST... and @Path`);
    }
    return holders;
  }

  private checkConflicts(holder: RouteHolder, pending: Map<string, RouteHolder>): void {
    const shape = shapeKey(holder);
    const other = this.byShape.get(shape) ?? pending.get(shape);
    if (other === undefined) {
      pending.set(shape, holder);
      return;
    }
    const a = holder.source;
    const b = other.source;
    if (a.pattern.paramNames.join() !== b.pattern.paramNames.join()) {
      throw errors.RU_ERR_ROUTE_CONFLICT(
        `Conflicting routes: ${a.method} ${a.pattern.source} (${holder.compiled.definition.label}) and ${b.method} ${b.pattern.source} (${other.compiled.definition.label}) match the same paths with different variable names; use one name`,
      );
    }
  }
}

/** Routes with the same method and path shape match the same requests. */
function shapeKey(holder: RouteHolder): string {
  return `${holder.source.method} ${holder.source.pattern.shape}`;
}
