import type { RouteSend } from '../http/response';
import { negotiate } from '../io/media-type';
import type { RouteDefinition } from '../metadata/route-definition';
import { designParamTypes } from '../metadata/store';
import type { ClassMetadata, MethodMetadata, ParamMetadata } from '../metadata/types';
import { compileArgument, type ArgumentScope } from './arguments';
import type { CompileContext } from './compile-context';
import type { ValueResolver } from './context-values';
import { defineRoute, readsBody, type RouteSource } from './define-route';
import { routeHandlersOf, type BoundHandler, type ErrorPolicySource } from './exception-handling';
import {
  beforeHandlerStep,
  providersStep,
  type ResponseStep,
  responseStep,
  routeHooksFor,
  routeSendHook,
  routeStep,
  type Step,
} from './hooks';
import { compileResultWriter } from './result-writer';
import type { RouteAnswer, RouteHooks } from './route-hooks';
import { errors } from '../errors/factories';

/**
 * A route (or a WebSocket upgrade) as the lifecycle runs it (lifecycle.ts, `runStages`), decided once at
 * registration: each stage it needs, in the order they run, and null for each it does not (a hook no plugin gives
 * the route costs it one null check). One class, so that every route has the same shape for V8.
 */
export class CompiledRoute {
  /** The route's definition: path, method, media types, parameters, decorators. */
  readonly definition: RouteDefinition;
  /** The route reads the request body: the transport reads it before the route runs. */
  readonly needsBody: boolean;
  /** What the plugins' hooks may answer instead of the route (their `answers`), for the API document. */
  readonly answers: readonly RouteAnswer[];
  /** The plugins' `onSend` hooks of the route, composed: the response runs them after the app's. */
  readonly send: RouteSend | null;
  /** The route's own exception handlers (`@CatchWith`, method then class), tried before the app's. */
  readonly handlers: readonly BoundHandler[];
  /** Where the app's error policy is read when the route fails (it changes when plugins are added). */
  readonly errors: ErrorPolicySource;
  /** `GET /users/{id}` (`WebSocket /chat` for an upgrade), for messages. */
  readonly routeText: string;
  readonly onMatch: Step | null;
  readonly provide: Step | null;
  readonly onRequest: Step | null;
  /** The media types negotiated against Accept (null: the route produces no declared type). */
  readonly produces: readonly string[] | null;
  /** The type of `produces` chosen for an Accept value ('' for none), undefined when none is acceptable. */
  readonly negotiate: ((accept: string) => string | undefined) | null;
  /** One resolver per argument of the method; null where the transport gives the value (a WebSocket connection). */
  readonly arguments: ReadonlyArray<ValueResolver | null>;
  readonly beforeHandler: Step | null;
  /** The method and its instance (null for an upgrade, whose handler is the upgrade itself). */
  readonly instance: object | null;
  readonly method: ((...args: unknown[]) => unknown) | null;
  readonly write: Step | null;
  readonly onResponse: ResponseStep | null;

  constructor(parts: CompiledRoute) {
    this.definition = parts.definition;
    this.needsBody = parts.needsBody;
    this.answers = parts.answers;
    this.send = parts.send;
    this.handlers = parts.handlers;
    this.errors = parts.errors;
    this.routeText = parts.routeText;
    this.onMatch = parts.onMatch;
    this.provide = parts.provide;
    this.onRequest = parts.onRequest;
    this.produces = parts.produces;
    this.negotiate = parts.negotiate;
    this.arguments = parts.arguments;
    this.beforeHandler = parts.beforeHandler;
    this.instance = parts.instance;
    this.method = parts.method;
    this.write = parts.write;
    this.onResponse = parts.onResponse;
  }
}

/** What a route and an upgrade compile alike: the plugins' hooks, the app's providers, the exception handlers. */
export interface CommonStages {
  readonly hooks: readonly RouteHooks[];
  readonly scope: ArgumentScope;
  readonly parts: Pick<
    CompiledRoute,
    | 'definition'
    | 'answers'
    | 'send'
    | 'handlers'
    | 'errors'
    | 'routeText'
    | 'onMatch'
    | 'provide'
    | 'onRequest'
    | 'beforeHandler'
  >;
}

/**
 * The stages a route and a WebSocket upgrade share, compiled for one of them: the plugins' hooks first (what they do
 * to arguments, validation, shapes how those are read), the argument scope, the providers and the handlers.
 */
export function compileCommon(
  cc: CompileContext,
  definition: RouteDefinition,
  kind: 'http' | 'websocket',
  classMeta: ClassMetadata,
  methodMeta: MethodMetadata,
): CommonStages {
  const hooks = routeHooksFor(cc, definition, kind, classMeta, methodMeta);
  // As a client writes it: `@Path('/notes')` with `@Path('/')` is `POST /notes`, not `POST /notes/`.
  const path = definition.path.length > 1 ? definition.path.replace(/\/+$/, '') : definition.path;
  const routeText = kind === 'http' ? `${definition.method} ${path}` : `WebSocket ${definition.path}`;
  const scope: ArgumentScope = {
    label: definition.label,
    routeText,
    pathParamNames: definition.pathParamNames,
    consumes: kind === 'http' ? definition.consumes : [],
    methodReader: methodMeta.reader ?? classMeta.reader,
    methodContextReader: methodMeta.contextReader,
    settings: cc.settings,
    components: cc.components,
    suppressCheck: methodMeta.suppressCheck === true || classMeta.suppressCheck === true,
    bodyInstantiated: false,
    bodyDepthBounded: false,
  };
  return {
    hooks,
    scope,
    parts: {
      definition,
      answers: hooks.flatMap((h) => h.answers ?? []),
      send: routeSendHook(hooks),
      handlers: routeHandlersOf(methodMeta.catchWith, classMeta.catchWith, cc.components),
      errors: cc.errors,
      routeText,
      onMatch: routeStep(hooks, 'onMatch'),
      provide: providersStep(cc.settings, cc.components),
      onRequest: routeStep(hooks, 'onRequest'),
      beforeHandler: beforeHandlerStep(hooks),
    },
  };
}

/**
 * Compiles one HTTP route: every stage the lifecycle runs for it, and every check that can fail (the method, its
 * parameters, readers and writers against their types) fails now, at registration.
 */
export function compileRoute(src: RouteSource, cc: CompileContext): CompiledRoute {
  const definition = defineRoute(src);
  const where = `${definition.label}()`;
  const m = src.methodMeta;
  const c = src.classMeta;
  const fn = (src.instance as Record<string | symbol, unknown>)[m.name];
  if (typeof fn !== 'function') throw errors.RU_ERR_NOT_A_METHOD(`${where}: not a method`);
  const design = designParamTypes(src.resourceClass.prototype, m.name) ?? [];
  const undecorated = definition.parameters.filter((p) => !m.params.has(p.index));
  if (undecorated.length > 1) {
    throw errors.RU_ERR_AMBIGUOUS_BODY(
      `${where}: parameters ${undecorated.map((p) => p.index).join(', ')} have no decorator; only one parameter may be the body (use @BodyParam, @QueryParam, @Context...)`,
    );
  }
  const { hooks, scope, parts } = compileCommon(cc, definition, 'http', c, m);
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
  const write = compileResultWriter({
    definition,
    writerClass: m.writer ?? c.writer,
    settings: cc.settings,
    components: cc.components,
    suppressCheck: scope.suppressCheck,
    where,
  });
  return new CompiledRoute({
    ...parts,
    needsBody: readsBody(params, design) || hooks.some((h) => h.needsBody),
    produces: definition.produces.length > 0 ? definition.produces : null,
    negotiate: definition.produces.length > 0 ? keptChoices(definition.produces) : null,
    arguments: resolvers,
    instance: src.instance,
    method: fn as (...args: unknown[]) => unknown,
    write,
    onResponse: responseStep(hooks, cc.logger),
  });
}

/** Accept values whose choice a route keeps; past this the kept choices are dropped and made again. */
const KEPT_CHOICES = 64;

/**
 * A route's negotiation, its choice kept per Accept value: clients send the same few, so a request costs one lookup
 * (matching the ranges made substrings of every produced type, garbage on every request). The last value and its
 * choice are kept apart too: a header read is a new string each request, and comparing it with the last one costs
 * less than the hash a map lookup computes over every character (about 11 instructions a character; TechEmpower's
 * and browsers' Accept values are 60 to 100 characters long).
 */
function keptChoices(produces: readonly string[]): (accept: string) => string | undefined {
  const choices = new Map<string, string | undefined>();
  let lastAccept: string | null = null;
  let lastChoice: string | undefined;
  return (accept) => {
    if (accept === lastAccept) return lastChoice;
    let chosen = choices.get(accept);
    if (chosen === undefined && !choices.has(accept)) {
      chosen = negotiate(accept, produces);
      if (choices.size >= KEPT_CHOICES) choices.clear();
      choices.set(accept, chosen);
    }
    lastAccept = accept;
    lastChoice = chosen;
    return chosen;
  };
}
