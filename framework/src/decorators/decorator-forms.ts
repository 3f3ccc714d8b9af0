import { isStandardDecoratorContext, standardDecoratorError } from '../metadata/standard-decorators';
import { errors } from '../errors/factories';

/**
 * Helpers so marker decorators work both bare and called: `@GET` and `@GET()`, `@Raw` and `@Raw()`.
 * TypeScript calls a class decorator with (ctor), a method decorator with (proto, key, descriptor),
 * a field decorator with (proto, key, undefined) and a parameter decorator with (target, key, index).
 */
function isDecoratorCall(args: unknown[]): boolean {
  if (args.length === 1) return typeof args[0] === 'function' && isClassLike(args[0] as Function);
  if (args.length !== 3) return false;
  const [target, key, third] = args;
  if (target === null || (typeof target !== 'object' && typeof target !== 'function')) return false;
  if (typeof third === 'number') return true; // parameter
  return typeof key === 'string' || typeof key === 'symbol';
}

/**
 * A parameter or field decoration, never a class one: for decorators whose one argument may itself be a class,
 * as `@Context(RoutingContext)` or `@BeanParam(Filter)`, where `isDecoratorCall` would take the class for the
 * decorated one.
 */
export function isMemberDecoratorCall(args: unknown[]): boolean {
  return args.length === 3 && isDecoratorCall(args);
}

function isClassLike(fn: Function): boolean {
  return typeof fn.prototype === 'object' && fn.prototype !== null;
}

type AnyDecorator = (...args: any[]) => any;

/**
 * A decorator usable bare or with empty parentheses.
 * `apply` receives the decorator arguments TypeScript passes.
 */
export function marker<D extends AnyDecorator>(apply: D): D & (() => D) {
  return function (this: unknown, ...args: unknown[]) {
    if (args.length === 0) return apply;
    if (isDecoratorCall(args)) return apply(...args);
    if (args.length === 2 && isStandardDecoratorContext(args[1])) throw standardDecoratorError();
    throw errors.RU_ERR_DECORATOR_ARGUMENT('rest.uws: this decorator takes no arguments');
  } as any;
}
