import type { Exchange } from './exchange';
import { RegistrationError } from '../errors/http-errors';
import { WebSocketConnection } from '../context/websocket-connection';
import { designParamTypes } from '../metadata/store';
import type { MethodMetadata, ParamMetadata } from '../metadata/types';
import { compileArgument, type ArgumentScope } from './arguments';
import type { ValueResolver } from './context-values';
import type { CompileContext } from './compile-context';
import { defineRoute } from './define-route';
import { handleError, routeHandlersOf } from './exception-handling';
import { beforeHandlerSteps, onMatchSteps, onRequestSteps, routeHooksFor, routeSendHook } from './stages/hooks';
import { normalizeError } from './stages/run-route';
import { provideSteps } from './stages/provide';
import { readArgumentsStep } from './stages/read-arguments';
import { runSteps } from './stages/run-steps';
import type { Step } from './stages/step';
import type { CompiledUpgrade, WebSocketRoute } from './websocket-route';

/**
 * The HTTP half of a WebSocket endpoint, compiled like a route from the same stages: the plugins' `onSend`
 * hooks for a refusal (compression), their `onMatch` hooks (rate limits), request providers, the plugins'
 * `onRequest` hooks (authentication, authorization), the `open` method's arguments, and the plugins'
 * `beforeHandler` hooks (validation). Any failure is an HTTP error answer from the endpoint's `@CatchWith`
 * handlers and the app's.
 */
export function compileUpgrade(route: WebSocketRoute, cc: CompileContext): CompiledUpgrade {
  const { endpointClass, classMeta } = route;
  const { settings, components } = cc;
  const methodMeta: MethodMetadata = classMeta.methods.get('open') ?? {
    name: 'open',
    params: new Map(),
    extensions: new Map(),
  };
  const definition = defineRoute({
    resourceClass: endpointClass,
    instance: route.instance,
    classMeta,
    methodMeta,
    method: 'GET',
    pattern: route.pattern,
  });
  const where = `${endpointClass.name}.open()`;
  const design = designParamTypes(endpointClass.prototype, 'open') ?? [];

  // open's one undecorated (or `@Context() c: WebSocketConnection`) parameter is the connection; the rest resolve during the upgrade.
  // TypeScript emits no parameter types for a method without parameter decorators: count by arity too.
  const open = (route.instance as { open?: unknown }).open;
  const argc = Math.max(definition.parameters.length, typeof open === 'function' ? open.length : 0);
  let connectionIndex = -1;
  for (let index = 0; index < argc; index++) {
    const declared = methodMeta.params.get(index);
    if (
      declared !== undefined &&
      !(declared.source === 'context' && (declared.explicitType ?? design[index]) === WebSocketConnection)
    )
      continue;
    if (connectionIndex >= 0) {
      throw new RegistrationError(
        `${where}: parameters ${connectionIndex} and ${index} have no decorator; only the connection parameter may be undecorated`,
        'RU_ERR_WEBSOCKET_PARAMS',
      );
    }
    const t = declared?.explicitType ?? design[index];
    if (t !== undefined && t !== Object && t !== WebSocketConnection) {
      throw new RegistrationError(
        `${where}: parameter ${index} has no decorator and is not a WebSocketConnection; decorate it (@QueryParam, @Context...)`,
        'RU_ERR_WEBSOCKET_PARAMS',
      );
    }
    connectionIndex = index;
  }
  for (const [index, meta] of methodMeta.params) {
    if (meta.source === 'body' || meta.source === 'form') {
      throw new RegistrationError(
        `${where} parameter ${index}: a WebSocket upgrade has no body; use @QueryParam, @HeaderParam, @PathParam, @CookieParam or @Context`,
        'RU_ERR_WEBSOCKET_PARAMS',
      );
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
    bodyDepthBounded: false,
  };
  // The connection does not exist yet: its place stays null, which validation sees and skips.
  const resolvers: Array<ValueResolver | null> = [];
  for (let index = 0; index < argc; index++) {
    resolvers.push(
      index === connectionIndex
        ? null
        : compileArgument(
            methodMeta.params.get(index) as ParamMetadata,
            design[index],
            `${where} parameter ${index}`,
            scope,
          ),
    );
  }

  // The same stages as a route's, up to the method: providers, hooks, arguments; `open` runs once the socket is.
  const hooks = routeHooksFor(cc, definition, 'websocket', classMeta, methodMeta);
  // A refusal is an HTTP answer like a route's: the route's send hooks (compression) see it; a 101 has no body and none.
  const steps: Step[] = [...onMatchSteps(hooks), ...provideSteps(settings, components), ...onRequestSteps(hooks)];
  if (argc > 0) steps.push(readArgumentsStep(resolvers));
  steps.push(...beforeHandlerSteps(hooks));
  const run = runSteps(steps);
  const routeHandlers = routeHandlersOf(methodMeta.catchWith, classMeta.catchWith, components);
  const argsOf = (ctx: Exchange): unknown[] => ctx.args ?? [];
  return {
    definition,
    send: routeSendHook(hooks),
    connectionIndex,
    run(ctx) {
      const out = run(ctx);
      return out === undefined ? argsOf(ctx) : out.then(() => argsOf(ctx));
    },
    fail: (ctx, error) => handleError(ctx, normalizeError(error), routeHandlers, cc.errors),
  };
}
