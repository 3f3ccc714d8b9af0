import type { RoutingContext } from '../context/routing-context';
import type { RouteDefinition } from '../metadata/route-definition';
import type { ClassMetadata, MethodMetadata } from '../metadata/types';
import type { ComponentFactory } from '../settings/components';
import type { SettingsView } from '../settings/settings';

/** One stage of a compiled route: returns a promise only when it really waits. */
export type Step = (ctx: RoutingContext) => void | Promise<void>;

/** What an extension adds to one route; each part optional. */
export interface RouteStages {
  /** Before arguments are resolved (authentication, authorization). */
  before?: Step;
  /** After arguments are resolved, before the method runs (validation). `ctx._args` holds them. */
  afterArguments?: Step;
  /** After the response was produced, with the entity or the error (events). Failures are logged only. */
  after?: (ctx: RoutingContext, entity: unknown, error: unknown) => void | Promise<void>;
  /** The route must buffer the request body even without a body argument. */
  needsBody?: boolean;
  /**
   * Indexes of class-typed body parameters this extension makes instances of when a built-in reader
   * read them (validation), prototype keys stripped: the JSON reader then leaves its shallow copy out.
   */
  instantiatedBodies?: ReadonlySet<number>;
}

export interface CompileScope {
  definition: RouteDefinition;
  classMeta: ClassMetadata;
  methodMeta: MethodMetadata;
  settings: SettingsView;
  components: ComponentFactory;
}

/**
 * A feature applied to routes at compile time (security, events, validation...). Decorators only
 * record metadata; an extension turns it into stages, once per route, in `order`.
 */
export interface RouteExtension {
  name: string;
  order: number;
  compile(scope: CompileScope): RouteStages | undefined;
}

const extensions: RouteExtension[] = [];

export function registerRouteExtension(extension: RouteExtension): void {
  if (extensions.some((e) => e.name === extension.name)) return;
  extensions.push(extension);
  extensions.sort((a, b) => a.order - b.order);
}

export function routeExtensions(): readonly RouteExtension[] {
  return extensions;
}
