import type { ClassMetadata, MethodMetadata, ParamMetadata } from './types';
import { isStandardDecoratorContext, standardDecoratorError } from './standard-decorators';
import { errors } from '../errors/factories';

/**
 * The one metadata store: decorators write here, the compiler reads here at registration.
 * Nothing on the request path reads it.
 */
const classes = new WeakMap<Function, ClassMetadata>();

function newClassMetadata(): ClassMetadata {
  return { methods: new Map(), fields: new Map(), constructorParams: new Map(), extensions: new Map() };
}

/** The class's own metadata record (created on first use). */
export function classMetadata(target: Function): ClassMetadata {
  let meta = classes.get(target);
  if (!meta) {
    meta = newClassMetadata();
    classes.set(target, meta);
  }
  return meta;
}

/** The class's own metadata, or undefined when no decorator touched it. */
export function ownClassMetadata(target: Function): ClassMetadata | undefined {
  return classes.get(target);
}

/** The metadata record of a method (created on first use). `target` is the prototype or the class. */
export function methodMetadata(target: object, name: string | symbol): MethodMetadata {
  if (isStandardDecoratorContext(name)) throw standardDecoratorError();
  const ctor = typeof target === 'function' ? target : target.constructor;
  const meta = classMetadata(ctor);
  let method = meta.methods.get(name);
  if (!method) {
    method = { name, params: new Map(), extensions: new Map() };
    meta.methods.set(name, method);
  }
  return method;
}

/**
 * Where a parameter decorator writes: a method parameter, a constructor parameter, or a field.
 * Decorators that also apply to fields pass the property key with an undefined index.
 */
export function paramMetadata(
  target: object,
  key: string | symbol | undefined,
  index: number | undefined,
): ParamMetadata {
  if (isStandardDecoratorContext(key)) throw standardDecoratorError();
  if (typeof index === 'number') {
    if (key === undefined) {
      const ctor = typeof target === 'function' ? target : target.constructor;
      const params = classMetadata(ctor).constructorParams;
      let p = params.get(index);
      if (!p) params.set(index, (p = { source: 'context' }));
      return p;
    }
    const params = methodMetadata(target, key).params;
    let p = params.get(index);
    if (!p) params.set(index, (p = { source: 'context' }));
    return p;
  }
  if (key === undefined)
    throw errors.RU_ERR_DECORATOR_TARGET(
      'rest.uws: a parameter decorator was used where neither a parameter nor a field is',
    );
  const fields = classMetadata(target.constructor).fields;
  let p = fields.get(key);
  if (!p) fields.set(key, (p = { source: 'context' }));
  return p;
}

/**
 * The class's metadata merged along its prototype chain: a subclass inherits its parents'
 * routes and settings and overrides them.
 */
export function resolvedClassMetadata(target: Function): ClassMetadata {
  const chain: Function[] = [];
  for (let c: any = target; c && c !== Function.prototype && c !== Object; c = Object.getPrototypeOf(c))
    chain.unshift(c);
  const merged = newClassMetadata();
  for (const c of chain) {
    const meta = classes.get(c);
    if (!meta) continue;
    for (const key of [
      'applicationPath',
      'path',
      'consumes',
      'produces',
      'headers',
      'reader',
      'writer',
      'catchWith',
      'suppressCheck',
      'handles',
    ] as const) {
      if (meta[key] !== undefined) (merged as any)[key] = meta[key];
    }
    for (const [k, v] of meta.methods) merged.methods.set(k, v);
    for (const [k, v] of meta.fields) merged.fields.set(k, v);
    // Constructor parameters belong to the nearest class that declares them.
    if (meta.constructorParams.size > 0) merged.constructorParams = meta.constructorParams;
    for (const [k, v] of meta.extensions) merged.extensions.set(k, v);
  }
  return merged;
}

/** Types from TypeScript's emitted metadata (requires emitDecoratorMetadata). */
export function designParamTypes(target: object, key: string | symbol | undefined): Function[] | undefined {
  const R = Reflect as any;
  if (typeof R.getMetadata !== 'function') return undefined;
  return key === undefined
    ? R.getMetadata('design:paramtypes', target)
    : R.getMetadata('design:paramtypes', target, key);
}

export function designReturnType(target: object, key: string | symbol): Function | undefined {
  const R = Reflect as any;
  return typeof R.getMetadata === 'function' ? R.getMetadata('design:returntype', target, key) : undefined;
}

export function designType(target: object, key: string | symbol): Function | undefined {
  const R = Reflect as any;
  return typeof R.getMetadata === 'function' ? R.getMetadata('design:type', target, key) : undefined;
}
