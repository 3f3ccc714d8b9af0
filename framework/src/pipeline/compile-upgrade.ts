import { WebSocketConnection } from '../context/websocket-connection';
import { designParamTypes } from '../metadata/store';
import type { MethodMetadata, ParamMetadata } from '../metadata/types';
import { compileArgument } from './arguments';
import type { ValueResolver } from './context-values';
import type { CompileContext } from './compile-context';
import { defineRoute } from './define-route';
import { CompiledRoute, compileCommon } from './route-compiler';
import type { WebSocketRoute } from './websocket-route';
import { errors } from '../errors/factories';

/** The HTTP half of a WebSocket endpoint, compiled like a route and run by the same lifecycle. */
export interface CompiledUpgrade {
  /** The upgrade's stages, up to the arguments' validation (no body, method or writer: the 101 takes their place). */
  readonly stages: CompiledRoute;
  /** Where the connection goes among `open`'s arguments (-1: nowhere). */
  readonly connectionIndex: number;
}

/** A declared endpoint with its compiled upgrade (compiled again when global registries change). */
export interface WebSocketEndpoint {
  readonly route: WebSocketRoute;
  upgrade: CompiledUpgrade;
}

/**
 * The HTTP half of a WebSocket endpoint, compiled as a route is (route-compiler.ts) and run by the same lifecycle
 * (lifecycle.ts, `handleUpgrade`): the `open` method's parameters are its arguments, and the upgrade takes the
 * place of the method and its writer. What is particular to an upgrade is decided here: which parameter is the
 * connection (given once the socket is open), and that nothing reads a body.
 */
export function compileUpgrade(route: WebSocketRoute, cc: CompileContext): CompiledUpgrade {
  const { endpointClass, classMeta } = route;
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
      throw errors.RU_ERR_WEBSOCKET_PARAMS(
        `${where}: parameters ${connectionIndex} and ${index} have no decorator; only the connection parameter may be undecorated`,
      );
    }
    const t = declared?.explicitType ?? design[index];
    if (t !== undefined && t !== Object && t !== WebSocketConnection) {
      throw errors.RU_ERR_WEBSOCKET_PARAMS(
        `${where}: parameter ${index} has no decorator and is not a WebSocketConnection; decorate it (@QueryParam, @Context...)`,
      );
    }
    connectionIndex = index;
  }
  for (const [index, meta] of methodMeta.params) {
    if (meta.source === 'body' || meta.source === 'form') {
      throw errors.RU_ERR_WEBSOCKET_PARAMS(
        `${where} parameter ${index}: a WebSocket upgrade has no body; use @QueryParam, @HeaderParam, @PathParam, @CookieParam or @Context`,
      );
    }
  }

  const { scope, parts } = compileCommon(cc, definition, 'websocket', classMeta, methodMeta);
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

  // No body, negotiation, method or writer: the upgrade answers with the 101, and `open` runs once the socket is.
  const stages = new CompiledRoute({
    ...parts,
    needsBody: false,
    produces: null,
    negotiate: null,
    arguments: resolvers,
    instance: null,
    method: null,
    write: null,
    onResponse: null,
  });
  return { stages, connectionIndex };
}
