import { paramMetadata } from '../metadata/store';
import type { ArgumentOptions, CookieParamOptions, ParamSource } from '../metadata/types';
import { errors } from '../errors/factories';
import { isMemberDecoratorCall, marker } from './decorator-forms';

/** Decorates a method parameter, a constructor parameter (of a bean) or a field (of a bean). */
export type ArgumentDecorator = (target: object, key: string | symbol | undefined, index?: number) => void;

function named<O extends ArgumentOptions = ArgumentOptions>(source: ParamSource, decorator: string) {
  return (name: string, options: O = {} as O): ArgumentDecorator => {
    if (typeof name !== 'string' || name.length === 0) {
      throw errors.RU_ERR_DECORATOR_ARGUMENT(
        `rest.uws: @${decorator} takes the name of the value, e.g. @${decorator}("id")`,
      );
    }
    return (target, key, index) => {
      const p = paramMetadata(target, key, index);
      p.source = source;
      p.name = name;
      if (options.optional !== undefined) p.optional = options.optional;
      if (options.type !== undefined) p.explicitType = options.type;
      if ((options as CookieParamOptions).signed === true) p.signed = true;
    };
  };
}

/** A path variable: `{id}` or `:id`. Always required. */
export const PathParam = named('path', 'PathParam');
/** A query value, URL-decoded (see `@Raw`). */
export const QueryParam = named('query', 'QueryParam');
/** A matrix parameter of a path segment: `/cars;color=red`. */
export const MatrixParam = named('matrix', 'MatrixParam');
/** A cookie value; `{ signed: true }` takes it only when its signature checks (see `cookies()`). */
export const CookieParam = named<CookieParamOptions>('cookie', 'CookieParam');
/** A request header value (case-insensitive name). */
export const HeaderParam = named('header', 'HeaderParam');
/** A field of an `application/x-www-form-urlencoded` (or multipart) body. */
export const FormParam = named('form', 'FormParam');

/**
 * The request body, read by the reader for its type or the route's `@Consumes` media type.
 * A method parameter without any decorator is the body too.
 */
export const BodyParam: ((options?: ArgumentOptions) => ArgumentDecorator) & ArgumentDecorator = ((...args: any[]) => {
  const apply =
    (options: ArgumentOptions = {}): ArgumentDecorator =>
    (target, key, index) => {
      const p = paramMetadata(target, key, index);
      p.source = 'body';
      if (options.optional !== undefined) p.optional = options.optional;
      if (options.type !== undefined) p.explicitType = options.type;
    };
  if (isMemberDecoratorCall(args)) return apply()(args[0], args[1], args[2]);
  return apply(args[0]);
}) as any;

/**
 * Builds an object from the decorated fields or constructor parameters of its class. `@BeanParam(Type)` names the
 * class where TypeScript's metadata does not (a build without `emitDecoratorMetadata`).
 */
export const BeanParam: ((type?: Function) => ArgumentDecorator) & ArgumentDecorator = ((...args: any[]) => {
  const apply =
    (type?: Function): ArgumentDecorator =>
    (target, key, index) => {
      const p = paramMetadata(target, key, index);
      p.source = 'bean';
      if (type !== undefined) p.explicitType = type;
    };
  if (isMemberDecoratorCall(args)) return apply()(args[0], args[1], args[2]);
  if (args.length > 1 || (args[0] !== undefined && typeof args[0] !== 'function'))
    throw errors.RU_ERR_DECORATOR_ARGUMENT(
      'rest.uws: @BeanParam takes the class of the bean, e.g. @BeanParam(Filter), or nothing',
    );
  return apply(args[0]);
}) as any;

/**
 * A context value: HttpServerRequest, HttpServerResponse, RoutingContext, RouteDefinition, User,
 * the uWebSockets.js app (`UwsApp`), or a custom type with a provider. `@Context(Type)` names the type
 * explicitly where TypeScript's metadata cannot (interfaces).
 */
export const Context: ((type?: Function) => ArgumentDecorator) & ArgumentDecorator = ((...args: any[]) => {
  const apply =
    (type?: Function): ArgumentDecorator =>
    (target, key, index) => {
      const p = paramMetadata(target, key, index);
      p.source = 'context';
      if (type !== undefined) p.explicitType = type;
    };
  if (isMemberDecoratorCall(args)) return apply()(args[0], args[1], args[2]);
  return apply(args[0]);
}) as any;

/** The value used when the request has none (path, query, form, cookie, header, matrix and context values). */
export function DefaultValue(value: string | number | boolean | bigint): ArgumentDecorator {
  return (target, key, index) => {
    paramMetadata(target, key, index).defaultValue = String(value);
  };
}

/** Gives query (and form) values undecoded. */
export const Raw = marker((target: object, key: string | symbol | undefined, index?: number) => {
  paramMetadata(target, key, index).raw = true;
});

/** Marks an argument optional: absent means `undefined` instead of 400. Same as `{ optional: true }`. */
export const Optional = marker((target: object, key: string | symbol | undefined, index?: number) => {
  paramMetadata(target, key, index).optional = true;
});

export type { ArgumentOptions };
