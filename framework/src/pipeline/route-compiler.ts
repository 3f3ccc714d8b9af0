import type { ExceptionHandler } from '../context/contracts';
import type { RoutingContext } from '../context/routing-context';
import { NotAcceptableException, RegistrationError } from '../errors/http-errors';
import { bindHandlers, handleError, type BoundHandler, type ErrorPolicy } from './exception-handling';
import { Response } from '../http/response-entity';
import { HttpServerRequest } from '../http/request';
import { negotiate } from '../io/media-type';
import type { Provided } from '../io/registry';
import type { Logger } from '../util/log';
import { RouteDefinition, type ParameterDefinition } from '../metadata/route-definition';
import { designParamTypes, designReturnType, resolvedClassMetadata } from '../metadata/store';
import type { ClassMetadata, Constructor, HttpMethod, MethodMetadata, ParamMetadata } from '../metadata/types';
import type { PathPattern } from '../routing/path-pattern';
import type { ComponentFactory } from '../settings/components';
import type { SettingsView } from '../settings/settings';
import { argumentType, compileArgument, type ArgumentScope } from './arguments';
import { isThenable, type ValueResolver } from './context-values';
import type { RouteHookFactory } from './plugin';
import type { RouteHooks } from './route-hooks';

import { provideSteps } from './stages/provide';
import { readArgumentsStep } from './stages/read-arguments';
import { runSteps } from './stages/run-steps';
import type { Step } from './stages/step';

export type { Step };
import { assertDecoratorMetadata } from './decorator-metadata';
import { splitHeaders } from './header-lines';
import { compileResultWriter } from './result-writer';

/** A route turned into one function, built once at registration. */
export interface CompiledRoute {
  definition: RouteDefinition;
  /** The route reads the request body: the adapter buffers it before `handle`. */
  needsBody: boolean;
  /** Runs the whole route; never throws (errors go to the exception handlers). */
  handle(ctx: RoutingContext): void | Promise<void>;
}

export interface RouteSource {
  resourceClass: Constructor;
  instance: object;
  classMeta: ClassMetadata;
  methodMeta: MethodMetadata;
  method: HttpMethod;
  pattern: PathPattern;
}

/** Builds the RouteDefinition of a method: the merged view of class and method decorators. */
export function defineRoute(src: RouteSource): RouteDefinition {
  const { classMeta: c, methodMeta: m } = src;
  const classHeaders = splitHeaders(c.headers);
  const methodHeaders = splitHeaders(m.headers);
  const consumes = methodHeaders.consumes ?? m.consumes ?? classHeaders.consumes ?? c.consumes ?? [];
  // Method and class @Produces are merged, method first (the reference library does the same).
  const produces = methodHeaders.produces ?? classHeaders.produces ?? unique([...(m.produces ?? []), ...(c.produces ?? [])]);
  const headers = [...(c.headers ?? []), ...(m.headers ?? [])];
  const proto = src.resourceClass.prototype;
  const design = designParamTypes(proto, m.name) ?? [];
  const count = Math.max(design.length, ...[...m.params.keys()].map((i) => i + 1), 0);
  const parameters: ParameterDefinition[] = [];
  for (let i = 0; i < count; i++) {
    const p = m.params.get(i) ?? { source: 'body' as const };
    parameters.push({
      index: i,
      source: p.source,
      name: p.name,
      type: argumentType(p, design[i]),
      optional: p.optional === true || p.defaultValue !== undefined,
      defaultValue: p.defaultValue,
      raw: p.raw === true,
    });
  }
  const extensions = new Map([...c.extensions, ...m.extensions]);
  return new RouteDefinition(src.pattern.source, src.method, consumes, produces, m.order ?? 0, headers, src.resourceClass, String(m.name), parameters, designReturnType(proto, m.name), src.pattern.paramNames, extensions, c.extensions, c.applicationPath ?? '');
}

function unique<T>(list: T[]): T[] {
  return [...new Set(list)];
}

/** Does any argument (bean fields included) read the body? */
function readsBody(params: Iterable<ParamMetadata>, types: Array<Function | undefined>, seen = new Set<Function>()): boolean {
  let i = 0;
  for (const p of params) {
    const t = typeof p.explicitType === 'function' ? p.explicitType : types[i];
    i++;
    if (p.source === 'body' || p.source === 'form') return true;
    if (p.source === 'context' && t === HttpServerRequest) return true;
    if (p.source === 'bean' && typeof t === 'function' && !seen.has(t)) {
      seen.add(t);
      const meta = resolvedClassMetadata(t);
      if (readsBody([...meta.fields.values(), ...meta.constructorParams.values()], [], seen)) return true;
    }
  }
  return false;
}

export interface CompileContext {
  settings: SettingsView;
  components: ComponentFactory;
  logger: Logger;
  app: unknown;
  /** The app's plugins' route hook factories, in order. */
  hooks: readonly RouteHookFactory[];
  /** Who answers errors after the route's own handlers. */
  errors: ErrorPolicy;
}

/** Compiles one route. Every check that can fail does so here, at registration. */
export function compileRoute(src: RouteSource, cc: CompileContext): CompiledRoute {
  const definition = defineRoute(src);
  const { settings, components, logger } = cc;
  const where = `${definition.label}()`;
  const routeText = `${definition.method} ${definition.path}`;
  const m = src.methodMeta;
  const c = src.classMeta;
  const suppressCheck = m.suppressCheck === true || c.suppressCheck === true;
  const fn = (src.instance as Record<string | symbol, unknown>)[m.name];
  if (typeof fn !== 'function') throw new RegistrationError(`${where}: not a method`, 'RU_ERR_NOT_A_METHOD');
  assertDecoratorMetadata(src.resourceClass.prototype, m.name, where);

  // Arguments.
  const design = designParamTypes(src.resourceClass.prototype, m.name) ?? [];
  const undecorated = definition.parameters.filter((p) => !m.params.has(p.index));
  if (undecorated.length > 1) {
    throw new RegistrationError(`${where}: parameters ${undecorated.map((p) => p.index).join(', ')} have no decorator; only one parameter may be the body (use @BodyParam, @QueryParam, @Context...)`, 'RU_ERR_AMBIGUOUS_BODY');
  }
  // Extensions (security, validation, events...): first, since what they do to arguments shapes how those are read.
  const stages: RouteHooks[] = [];
  for (const factory of cc.hooks) {
    const s = factory({ definition, kind: 'http', classMeta: c, methodMeta: m, settings, components, logger });
    if (s) stages.push(s);
  }

  const scope: ArgumentScope = {
    label: definition.label,
    routeText,
    pathParamNames: definition.pathParamNames,
    consumes: definition.consumes,
    methodReader: m.reader ?? c.reader,
    methodContextReader: m.contextReader,
    settings,
    components,
    suppressCheck,
    bodyInstantiated: false,
  };
  const instantiated = new Set<number>();
  for (const s of stages) s.instantiatedBodies?.forEach((i) => instantiated.add(i));
  const resolvers: ValueResolver[] = definition.parameters.map((p) =>
    compileArgument(m.params.get(p.index) ?? { source: 'body' }, design[p.index], `${where} parameter ${p.index}`, instantiated.has(p.index) ? { ...scope, bodyInstantiated: true } : scope),
  );
  const allParams = definition.parameters.map((p) => m.params.get(p.index) ?? ({ source: 'body' } as ParamMetadata));

  // Exception handlers.
  // Method handlers before class handlers; an empty method @CatchWith() leaves the class's out.
  const classHandlers = m.catchWith !== undefined && m.catchWith.length === 0 ? [] : bindHandlers(c.catchWith, components);
  const routeHandlers: BoundHandler[] = [...bindHandlers(m.catchWith, components), ...classHandlers];

  const steps: Step[] = provideSteps(settings, components);
  for (const s of stages) if (s.onRequest) steps.push(s.onRequest);

  // Content negotiation before the method runs: a 406 has no side effects. An empty Accept says what no
  // Accept says (any type), so the read never needs the scan that tells an absent header from an empty one.
  const produces = definition.produces;
  const negotiates = produces.length > 0;
  if (negotiates) {
    steps.push((ctx) => {
      const chosen = negotiate(ctx.request._headerOrEmpty('accept'), produces);
      if (chosen === undefined) {
        throw new NotAcceptableException(`None of the acceptable media types is produced by ${routeText}; it produces ${produces.join(', ')}`);
      }
      ctx._contentType = chosen;
    });
  }

  const argc = resolvers.length;
  if (argc > 0) steps.push(readArgumentsStep(resolvers, (ctx, args) => void (ctx._args = args)));
  for (const s of stages) {
    const beforeHandler = s.beforeHandler;
    if (beforeHandler) steps.push((ctx) => beforeHandler(ctx, ctx._args ?? (ctx._args = [])));
  }

  const instance = src.instance;
  const method = fn as (...args: unknown[]) => unknown;
  const setResult = (ctx: RoutingContext, v: unknown) => {
    ctx._result = v;
  };
  steps.push((ctx) => {
    const out = argc === 0 ? method.call(instance) : argc === 1 ? method.call(instance, ctx._args![0]) : method.apply(instance, ctx._args!);
    if (isThenable(out)) return Promise.resolve(out).then((v) => setResult(ctx, v));
    ctx._result = out;
  });

  steps.push(compileResultWriter({ definition, writerClass: m.writer ?? c.writer, settings, components, suppressCheck, where }));

  const afters = stages.filter((s) => s.onResponse).map((s) => s.onResponse!);
  const handle = buildRunner(steps, afters, routeHandlers, cc.errors);
  return { definition, needsBody: readsBody(allParams, design) || stages.some((s) => s.needsBody), handle };
}


/**
 * Runs the steps in order, synchronously while they are synchronous; switches to promises at the
 * first step that returns one. Errors go to the exception handlers; `after` stages always run.
 */
function buildRunner(steps: Step[], afters: Array<NonNullable<RouteHooks['onResponse']>>, routeHandlers: BoundHandler[], errors: ErrorPolicy) {
  const logger = errors.logger;
  const runAfters = (ctx: RoutingContext, error: unknown): void | Promise<void> => {
    if (afters.length === 0) return;
    const entity = error === undefined ? (ctx._result instanceof Response ? ctx._result.entity : ctx._result) : undefined;
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
  const fail = (ctx: RoutingContext, error: unknown): void | Promise<void> => {
    const handled = handleError(ctx, normalizeError(error), routeHandlers, errors);
    if (afters.length === 0) return handled;
    if (isThenable(handled)) return handled.then(() => runAfters(ctx, error));
    return runAfters(ctx, error);
  };
  const run = runSteps(steps);
  const settled = (ctx: RoutingContext) => runAfters(ctx, undefined);
  return (ctx: RoutingContext): void | Promise<void> => {
    let out: void | Promise<void>;
    try {
      out = run(ctx);
    } catch (error) {
      return fail(ctx, error);
    }
    if (out !== undefined) return out.then(() => settled(ctx), (error) => fail(ctx, error));
    return runAfters(ctx, undefined);
  };
}

/** Non-Error throws (strings, objects) become Errors so handlers can match types. */
function normalizeError(error: unknown): unknown {
  if (error instanceof Error) return error;
  if (error !== null && typeof error === 'object') return error;
  return new Error(String(error));
}

