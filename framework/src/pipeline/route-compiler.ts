import { RegistrationError } from '../errors/http-errors';
import type { RouteDefinition } from '../metadata/route-definition';
import { designParamTypes } from '../metadata/store';
import type { ParamMetadata } from '../metadata/types';
import { compileArgument, type ArgumentScope } from './arguments';
import type { CompileContext } from './compile-context';
import type { ValueResolver } from './context-values';
import { defineRoute, readsBody, type RouteSource } from './define-route';
import { routeHandlersOf, type BoundHandler } from './exception-handling';
import type { Exchange } from './exchange';
import type { RouteAnswer } from './route-hooks';
import type { RouteSend } from '../http/response';
import { beforeHandlerSteps, onMatchSteps, onRequestSteps, routeHooksFor, routeSendHook } from './stages/hooks';
import { invokeStep } from './stages/invoke';
import { negotiateStep } from './stages/negotiate';
import { provideSteps } from './stages/provide';
import { readArgumentsStep } from './stages/read-arguments';
import { runRoute } from './stages/run-route';
import type { Step } from './stages/step';
import { compileResultWriter } from './stages/write-result';

export type { CompileContext, RouteSource, Step };

/** A route turned into one function, built once at registration. */
export interface CompiledRoute {
  definition: RouteDefinition;
  /** The route reads the request body: the adapter buffers it before `handle`. */
  needsBody: boolean;
  /** What the plugins' hooks may answer instead of the route (their `answers`), for the API document. */
  answers: readonly RouteAnswer[];
  /** The plugins' `onSend` hooks of the route, composed (null: none); `Exchange.enter` hands it to the response. */
  send: RouteSend | null;
  /** The route's own exception handlers (`@CatchWith`, method then class), tried before the app's. */
  handlers: readonly BoundHandler[];
  /** Runs the whole route; never throws (errors go to the exception handlers). */
  handle(ctx: Exchange): void | Promise<void>;
}

/**
 * Compiles one route into its stages, in the order they run: the app's request providers, the plugins'
 * `onRequest` hooks (security), content negotiation, reading the arguments, the plugins' `beforeHandler`
 * hooks (validation), the method, the writer; then, whatever happened, the plugins' `onResponse` hooks
 * (events), with errors going to the exception handlers. Every check that can fail does so here.
 */
export function compileRoute(src: RouteSource, cc: CompileContext): CompiledRoute {
  const definition = defineRoute(src);
  const { settings, components } = cc;
  const where = `${definition.label}()`;
  const m = src.methodMeta;
  const c = src.classMeta;
  const suppressCheck = m.suppressCheck === true || c.suppressCheck === true;
  const fn = (src.instance as Record<string | symbol, unknown>)[m.name];
  if (typeof fn !== 'function') throw new RegistrationError(`${where}: not a method`, 'RU_ERR_NOT_A_METHOD');
  const design = designParamTypes(src.resourceClass.prototype, m.name) ?? [];
  const undecorated = definition.parameters.filter((p) => !m.params.has(p.index));
  if (undecorated.length > 1) {
    throw new RegistrationError(
      `${where}: parameters ${undecorated.map((p) => p.index).join(', ')} have no decorator; only one parameter may be the body (use @BodyParam, @QueryParam, @Context...)`,
      'RU_ERR_AMBIGUOUS_BODY',
    );
  }
  // The plugins' hooks first: what they do to arguments (validation) shapes how those are read.
  const hooks = routeHooksFor(cc, definition, 'http', c, m);
  const scope: ArgumentScope = {
    label: definition.label,
    // As a client writes it: `@Path('/notes')` with `@Path('/')` is `POST /notes`, not `POST /notes/`.
    routeText: `${definition.method} ${definition.path.length > 1 ? definition.path.replace(/\/+$/, '') : definition.path}`,
    pathParamNames: definition.pathParamNames,
    consumes: definition.consumes,
    methodReader: m.reader ?? c.reader,
    methodContextReader: m.contextReader,
    settings,
    components,
    suppressCheck,
    bodyInstantiated: false,
    bodyDepthBounded: false,
  };
  const instantiated = new Set<number>();
  const depthBounded = new Set<number>();
  for (const h of hooks) {
    h.instantiatedBodies?.forEach((i) => instantiated.add(i));
    h.depthBoundedBodies?.forEach((i) => depthBounded.add(i));
  }
  const params = definition.parameters.map((p) => m.params.get(p.index) ?? ({ source: 'body' } as ParamMetadata));
  const resolvers: ValueResolver[] = definition.parameters.map((p, i) =>
    compileArgument(
      params[i]!,
      design[p.index],
      `${where} parameter ${p.index}`,
      instantiated.has(p.index)
        ? { ...scope, bodyInstantiated: true, bodyDepthBounded: depthBounded.has(p.index) }
        : scope,
    ),
  );

  const steps: Step[] = [...onMatchSteps(hooks), ...provideSteps(settings, components), ...onRequestSteps(hooks)];
  if (definition.produces.length > 0) steps.push(negotiateStep(definition.produces, scope.routeText));
  if (resolvers.length > 0) steps.push(readArgumentsStep(resolvers));
  steps.push(...beforeHandlerSteps(hooks));
  steps.push(invokeStep(src.instance, fn as (...args: unknown[]) => unknown, resolvers.length));
  steps.push(
    compileResultWriter({
      definition,
      writerClass: m.writer ?? c.writer,
      settings,
      components,
      suppressCheck,
      where,
    }),
  );

  const afters = hooks.filter((h) => h.onResponse).map((h) => h.onResponse!);
  const handlers = routeHandlersOf(m.catchWith, c.catchWith, components);
  const handle = runRoute(steps, afters, handlers, cc.errors);
  const answers = hooks.flatMap((h) => h.answers ?? []);
  return {
    definition,
    needsBody: readsBody(params, design) || hooks.some((h) => h.needsBody),
    answers,
    send: routeSendHook(hooks),
    handlers,
    handle,
  };
}
