/** Constructor of any class; the framework keys most metadata by constructor. */
export type Constructor<T = unknown> = abstract new (...args: any[]) => T;

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
  /** Where the value comes from (`@PathParam` → path, `@QueryParam` → query, ...). */
  source: ParamSource;
  /** Name of the path/query/header... value; for context, absent. */
  name?: string;
  /** `@Raw`: the value as sent, not percent-decoded. */
  raw?: boolean;
  /** `@DefaultValue`: used when the request has no value. */
  defaultValue?: string;
  /** `@Optional`: a missing value is `undefined`, not a 400. */
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
  /** The method's name on its class. */
  name: string | symbol;
  /** `@Path` on the method: appended to the class's path. */
  path?: string;
  /** The HTTP method its decorator (`@GET`, `@POST`, ...) gives. */
  httpMethod?: HttpMethod;
  /** Set when two HTTP-method decorators are put on one method: reported at registration. */
  httpMethodConflict?: HttpMethod;
  /** `@Consumes`: the media types the method reads. */
  consumes?: string[];
  /** `@Produces`: the media types the method answers with. */
  produces?: string[];
  /** `@RouteOrder`: ties between routes that match alike go to the lower order. */
  order?: number;
  /** `@Header`: request headers the route requires. */
  headers?: string[];
  /** `@RequestReader` for the method's body. */
  reader?: Constructor;
  /** `@ResponseWriter` for the method's result. */
  writer?: Constructor;
  /** `@CatchWith`: exception handlers tried first, in order. */
  catchWith?: Constructor[];
  /** `@SuppressCheck`: registration checks of the route are skipped. */
  suppressCheck?: boolean;
  /** `@ContextReader` for the method's `@Context` arguments of its type. */
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
  /** `@Path` on the class: the prefix of its methods' paths. */
  path?: string;
  /** `@Consumes` on the class: the default of its methods. */
  consumes?: string[];
  /** `@Produces` on the class: the default of its methods. */
  produces?: string[];
  /** `@Header` on the class: request headers every route of it requires. */
  headers?: string[];
  /** `@RequestReader` on the class: the default of its methods. */
  reader?: Constructor;
  /** `@ResponseWriter` on the class: the default of its methods. */
  writer?: Constructor;
  /** `@CatchWith` on the class: exception handlers for all its methods. */
  catchWith?: Constructor[];
  /** `@SuppressCheck` on the class: registration checks of its routes are skipped. */
  suppressCheck?: boolean;
  /** The type a reader, writer or exception handler declares it handles (`@Handles`). */
  handles?: Function;
  /** The decorated methods, by name. */
  methods: Map<string | symbol, MethodMetadata>;
  /** Decorated fields (bean params, `@Context` fields), by property name. */
  fields: Map<string | symbol, ParamMetadata>;
  /** Decorated constructor parameters (bean params), by index. */
  constructorParams: Map<number, ParamMetadata>;
  /** Extension metadata (security, OpenAPI, ...), keyed by the extension's symbol. */
  extensions: Map<symbol, unknown>;
}
