import type { ArgumentType, Constructor, HttpMethod, ParamSource } from './types';

/** One argument of a route method, as the decorators declared it. */
export interface ParameterDefinition {
  /** The parameter's position in the method. */
  index: number;
  /** Where the value comes from (`path`, `query`, `body`, `context`...). */
  source: ParamSource;
  /** The name in the request (query parameter, header, path variable...), when the source has names. */
  name?: string;
  /** The declared (or explicit) type. */
  type?: ArgumentType;
  /** Whether a missing value is allowed (`optional: true` or a `@DefaultValue`). */
  optional: boolean;
  /** The `@DefaultValue`, as written. */
  defaultValue?: string;
  /** Whether `@Raw` asked for the undecoded value. */
  raw: boolean;
}

/**
 * Reflection of a route's decorators (the spec's RouteDefinition), injectable with
 * `@Context() route: RouteDefinition`, and what OpenAPI and extensions read.
 */
export class RouteDefinition {
  constructor(
    /** The full path pattern as served (`@ApplicationPath` + class path + method path). */
    readonly path: string,
    /** The HTTP method. */
    readonly method: HttpMethod,
    /** Media types the route accepts (`@Consumes`), empty for any. */
    readonly consumes: readonly string[],
    /** Media types the route produces (`@Produces`, method first then class). */
    readonly produces: readonly string[],
    /** The `@RouteOrder` among routes with identical paths (default 0). */
    readonly order: number,
    /** Static response headers, "Name: value". */
    readonly headers: readonly string[],
    /** The REST class. */
    readonly resourceClass: Constructor,
    /** The name of the method. */
    readonly methodName: string,
    /** The method's parameters, in order. */
    readonly parameters: readonly ParameterDefinition[],
    /** The declared return type TypeScript recorded (undefined without decorator metadata). */
    readonly returnType: Function | undefined,
    /** The path variables' names, in pattern order. */
    readonly pathParamNames: readonly string[],
    /** Extension metadata merged from class and method (security, events, validation, OpenAPI). */
    readonly extensions: ReadonlyMap<symbol, unknown>,
    /** Class-level extension metadata, for extensions that distinguish class and method settings. */
    readonly classExtensions: ReadonlyMap<symbol, unknown>,
    /** The `@ApplicationPath` prefix `path` starts with (`/api/v1`), `''` without one. */
    readonly applicationPath: string = '',
  ) {}

  /** `UserResource.get`: for messages. */
  get label(): string {
    return `${this.resourceClass.name}.${this.methodName}`;
  }

  /** `GET /users/{id} (UserResource.get)` */
  toString(): string {
    return `${this.method} ${this.path} (${this.label})`;
  }
}
