import { HttpServerRequest } from '../http/request';
import { RouteDefinition, type ParameterDefinition } from '../metadata/route-definition';
import { designParamTypes, designReturnType, resolvedClassMetadata } from '../metadata/store';
import type { ClassMetadata, Constructor, HttpMethod, MethodMetadata, ParamMetadata } from '../metadata/types';
import type { PathPattern } from '../routing/path-pattern';
import { argumentType } from './arguments';
import { splitHeaders } from './header-lines';

/** A method declared as a route: its class, instance, decorators and path. */
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
  const produces =
    methodHeaders.produces ?? classHeaders.produces ?? unique([...(m.produces ?? []), ...(c.produces ?? [])]);
  const headers = [...(c.headers ?? []), ...(m.headers ?? [])];
  const proto = src.resourceClass.prototype;
  const design = designParamTypes(proto, m.name) ?? [];
  // Without decorator metadata (esbuild, tsx), the method's declared parameters say how many there are.
  const declared =
    design.length > 0 ? design.length : ((proto as Record<string | symbol, Function>)[m.name]?.length ?? 0);
  const count = Math.max(declared, ...[...m.params.keys()].map((i) => i + 1), 0);
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
  return new RouteDefinition(
    src.pattern.source,
    src.method,
    consumes,
    produces,
    m.order ?? 0,
    headers,
    src.resourceClass,
    String(m.name),
    parameters,
    designReturnType(proto, m.name),
    src.pattern.paramNames,
    extensions,
    c.extensions,
    c.applicationPath ?? '',
  );
}

function unique<T>(list: T[]): T[] {
  return [...new Set(list)];
}

/** Does any argument (bean fields included) read the body? */
export function readsBody(
  params: Iterable<ParamMetadata>,
  types: Array<Function | undefined>,
  seen = new Set<Function>(),
): boolean {
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
