/** Constructor of any class; the framework keys most metadata by constructor. */
export type Constructor<T = unknown> = abstract new (...args: any[]) => T;
export type ConcreteConstructor<T = unknown> = new (...args: any[]) => T;

/** The HTTP methods routes can be declared for. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS' | 'TRACE';
export const HTTP_METHODS: readonly HttpMethod[] = [
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'HEAD',
  'OPTIONS',
  'TRACE',
];

/** Where an argument's value comes from. */
export type ParamSource = 'path' | 'query' | 'matrix' | 'cookie' | 'header' | 'form' | 'body' | 'bean' | 'context';

/**
 * An explicit type for an argument when TypeScript's metadata cannot say enough:
 * `[Number]` for an array of numbers, an enum object for enum values, or a class.
 */
export type ArgumentType = Function | [Function] | Record<string, string | number>;

/** Options every value argument decorator accepts. */
export interface ArgumentOptions {
  /** The argument may be absent: it is then `undefined` (or its `@DefaultValue`). Arguments are required otherwise. */
  optional?: boolean;
  /** Overrides the type TypeScript's metadata reports (needed for arrays and enums). */
  type?: ArgumentType;
}

/** Options of `@CookieParam`. */
export interface CookieParamOptions extends ArgumentOptions {
  /**
   * The cookie is signed (set with `cookies.set(name, value, { signed: true })`): its value is given only when the
   * signature checks with one of the app's keys (`use(cookies({ keys }))`); a missing or forged signature reads
   * as no cookie at all.
   */
  signed?: boolean;
}

/** What a parameter (or a bean field) decorator recorded. */
export interface ParamMetadata {
  source: ParamSource;
  /** Name of the path/query/header... value; for context, absent. */
  name?: string;
  raw?: boolean;
  defaultValue?: string;
  optional?: boolean;
  /** Explicit type from the decorator options, or `@Context(Type)`. */
  explicitType?: ArgumentType;
  /** `@CookieParam(name, { signed: true })`: the value only when its signature checks. */
  signed?: boolean;
  /** A `@RequestReader` bound to this parameter. */
  reader?: Constructor;
  /** A `@ContextReader` bound to this parameter. */
  contextReader?: Constructor;
}

/** Metadata recorded on a method by routing and binding decorators. */
export interface MethodMetadata {
  name: string | symbol;
  path?: string;
  httpMethod?: HttpMethod;
  /** Set when two HTTP-method decorators are put on one method: reported at registration. */
  httpMethodConflict?: HttpMethod;
  consumes?: string[];
  produces?: string[];
  order?: number;
  headers?: string[];
  reader?: Constructor;
  writer?: Constructor;
  catchWith?: Constructor[];
  suppressCheck?: boolean;
  contextReader?: Constructor;
  /** Parameters by index. */
  params: Map<number, ParamMetadata>;
  /** Extension metadata (security, events, validation, ...), keyed by the extension's symbol. */
  extensions: Map<symbol, unknown>;
}

/** Metadata recorded on a class. */
export interface ClassMetadata {
  /** `@ApplicationPath`: a prefix for every route of the class (and of its subclasses). */
  applicationPath?: string;
  path?: string;
  consumes?: string[];
  produces?: string[];
  headers?: string[];
  reader?: Constructor;
  writer?: Constructor;
  catchWith?: Constructor[];
  suppressCheck?: boolean;
  /** The type a reader, writer or exception handler declares it handles (`@Handles`). */
  handles?: Function;
  methods: Map<string | symbol, MethodMetadata>;
  /** Decorated fields (bean params, `@Context` fields), by property name. */
  fields: Map<string | symbol, ParamMetadata>;
  /** Decorated constructor parameters (bean params), by index. */
  constructorParams: Map<number, ParamMetadata>;
  extensions: Map<symbol, unknown>;
}
