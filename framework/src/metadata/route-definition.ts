import type { ArgumentType, Constructor, HttpMethod, ParamSource } from './types';

/** One argument of a route method, as the decorators declared it. */
export interface ParameterDefinition {
  index: number;
  source: ParamSource;
  name?: string;
  /** The declared (or explicit) type. */
  type?: ArgumentType;
  optional: boolean;
  defaultValue?: string;
  raw: boolean;
}

/**
 * Reflection of a route's decorators (the spec's RouteDefinition), injectable with
 * `@Context() route: RouteDefinition`, and what OpenAPI and extensions read.
 */
export class RouteDefinition {
  constructor(
    /** The full path pattern as declared (class path + method path). */
    readonly path: string,
    readonly method: HttpMethod,
    readonly consumes: readonly string[],
    readonly produces: readonly string[],
    readonly order: number,
    /** Static response headers, "Name: value". */
    readonly headers: readonly string[],
    readonly resourceClass: Constructor,
    readonly methodName: string,
    readonly parameters: readonly ParameterDefinition[],
    readonly returnType: Function | undefined,
    readonly pathParamNames: readonly string[],
    /** Extension metadata merged from class and method (security, events, validation, OpenAPI). */
    readonly extensions: ReadonlyMap<symbol, unknown>,
    /** Class-level extension metadata, for extensions that distinguish class and method settings. */
    readonly classExtensions: ReadonlyMap<symbol, unknown>,
  ) {}

  /** `UserResource.get`: for messages. */
  get label(): string {
    return `${this.resourceClass.name}.${this.methodName}`;
  }

  toString(): string {
    return `${this.method} ${this.path} (${this.label})`;
  }
}
