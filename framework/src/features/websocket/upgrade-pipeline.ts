import { compileArgument, type ArgumentScope } from '../../pipeline/arguments';
import { isThenable, providerFunction, type ValueResolver } from '../../pipeline/context-values';
import { routeExtensions, type Step } from '../../pipeline/extensions';
import { defineRoute } from '../../pipeline/route-compiler';
import type { ExceptionHandler } from '../../context/contracts';
import type { RoutingContext } from '../../context/routing-context';
import { bindHandler, bindHandlers, type BoundHandler } from '../../pipeline/exception-handling';
import { RegistrationError } from '../../errors/http-errors';
import type { Provided } from '../../io/registry';
import type { RouteDefinition } from '../../metadata/route-definition';
import { designParamTypes } from '../../metadata/store';
import type { ClassMetadata, Constructor, MethodMetadata, ParamMetadata } from '../../metadata/types';
import type { PathPattern } from '../../routing/path-pattern';
import type { ComponentFactory } from '../../settings/components';
import type { SettingsView } from '../../settings/settings';
import { WebSocketConnection } from './websocket-connection';

/**
 * The HTTP half of a WebSocket endpoint, compiled once like a route: request providers, the route
 * extensions' `before` stages (authentication, authorization), the `open` method's arguments, and
 * the `afterArguments` stages (validation). Any failure is an HTTP error answer.
 */
export interface UpgradePipeline {
  /** The upgrade seen as a GET route (what extensions and `@Context() route` see). */
  definition: RouteDefinition;
  /** Runs every stage; a promise only when one really waits. Leaves `open`'s arguments in `ctx._args`. */
  run(ctx: RoutingContext): void | Promise<void>;
  /** Where the connection goes among `open`'s arguments (-1: nowhere). */
  connectionIndex: number;
  routeHandlers: BoundHandler[];
  globalHandlers: BoundHandler[];
}

export interface UpgradeSource {
  endpointClass: Constructor;
  instance: object;
  classMeta: ClassMetadata;
  pattern: PathPattern;
  settings: SettingsView;
  components: ComponentFactory;
}

export function compileUpgrade(src: UpgradeSource): UpgradePipeline {
  const { endpointClass, classMeta, settings, components } = src;
  const methodMeta: MethodMetadata = classMeta.methods.get('open') ?? { name: 'open', params: new Map(), extensions: new Map() };
  const definition = defineRoute({ resourceClass: endpointClass, instance: src.instance, classMeta, methodMeta, method: 'GET', pattern: src.pattern });
  const where = `${endpointClass.name}.open()`;
  const design = designParamTypes(endpointClass.prototype, 'open') ?? [];

  // open's one undecorated (or `@Context() c: WebSocketConnection`) parameter is the connection; the rest resolve during the upgrade.
  // TypeScript emits no parameter types for a method without parameter decorators: count by arity too.
  const open = (src.instance as { open?: unknown }).open;
  const argc = Math.max(definition.parameters.length, typeof open === 'function' ? open.length : 0);
  let connectionIndex = -1;
  for (let index = 0; index < argc; index++) {
    const declared = methodMeta.params.get(index);
    if (declared !== undefined && !(declared.source === 'context' && (declared.explicitType ?? design[index]) === WebSocketConnection)) continue;
    if (connectionIndex >= 0) {
      throw new RegistrationError(`${where}: parameters ${connectionIndex} and ${index} have no decorator; only the connection parameter may be undecorated`, 'RU_ERR_WEBSOCKET_PARAMS');
    }
    const t = declared?.explicitType ?? design[index];
    if (t !== undefined && t !== Object && t !== WebSocketConnection) {
      throw new RegistrationError(`${where}: parameter ${index} has no decorator and is not a WebSocketConnection; decorate it (@QueryParam, @Context...)`, 'RU_ERR_WEBSOCKET_PARAMS');
    }
    connectionIndex = index;
  }
  for (const [index, meta] of methodMeta.params) {
    if (meta.source === 'body' || meta.source === 'form') {
      throw new RegistrationError(`${where} parameter ${index}: a WebSocket upgrade has no body; use @QueryParam, @HeaderParam, @PathParam, @CookieParam or @Context`, 'RU_ERR_WEBSOCKET_PARAMS');
    }
  }

  const scope: ArgumentScope = {
    label: definition.label,
    routeText: `WebSocket ${definition.path}`,
    pathParamNames: definition.pathParamNames,
    consumes: [],
    methodReader: methodMeta.reader ?? classMeta.reader,
    methodContextReader: methodMeta.contextReader,
    settings,
    components,
    suppressCheck: methodMeta.suppressCheck === true || classMeta.suppressCheck === true,
    bodyInstantiated: false,
  };
  const resolvers: Array<ValueResolver | null> = [];
  for (let index = 0; index < argc; index++) {
    resolvers.push(index === connectionIndex ? null : compileArgument(methodMeta.params.get(index) as ParamMetadata, design[index], `${where} parameter ${index}`, scope));
  }

  const steps: Step[] = [];
  for (const provider of settings.requestProviders()) {
    const provide = providerFunction(provider, components);
    steps.push((ctx) => {
      const push = (v: unknown) => {
        if (v !== null && v !== undefined) ctx.put((v as object).constructor, v);
      };
      const out = provide(ctx.request, ctx);
      if (isThenable(out)) return Promise.resolve(out).then(push);
      push(out);
    });
  }
  const stages = routeExtensions()
    .map((ext) => ext.compile({ definition, classMeta, methodMeta, settings, components }))
    .filter((s) => s !== undefined);
  for (const s of stages) if (s.before) steps.push(s.before);
  steps.push((ctx) => {
    const args = new Array(argc);
    let pending = false;
    for (let i = 0; i < argc; i++) {
      const r = resolvers[i];
      // The connection does not exist yet: a placeholder validation stages can see and skip.
      const v = r === null ? null : r!(ctx);
      if (isThenable(v)) pending = true;
      args[i] = v;
    }
    ctx._args = args;
    if (pending) return Promise.all(args).then((resolved) => void (ctx._args = resolved));
  });
  for (const s of stages) if (s.afterArguments) steps.push(s.afterArguments);

  const routeHandlers = [...bindHandlers(methodMeta.catchWith, components), ...bindHandlers(classMeta.catchWith, components)];
  const globalHandlers = settings.exceptionHandlerEntries().map((e) => bindHandler(e.provider as Provided<ExceptionHandler<unknown>>, components, e.key));
  return { definition, run: sequence(steps), connectionIndex, routeHandlers, globalHandlers };
}

/** Runs steps in order, synchronously until one returns a promise. */
function sequence(steps: Step[]): (ctx: RoutingContext) => void | Promise<void> {
  const n = steps.length;
  const rest = async (first: Promise<void>, from: number, ctx: RoutingContext): Promise<void> => {
    await first;
    for (let i = from; i < n; i++) {
      const out = steps[i]!(ctx);
      if (out !== undefined) await out;
      if (ctx.response.ended()) return;
    }
  };
  return (ctx) => {
    for (let i = 0; i < n; i++) {
      const out = steps[i]!(ctx);
      if (out !== undefined) return rest(out, i + 1, ctx);
      if (ctx.response.ended()) return;
    }
  };
}
