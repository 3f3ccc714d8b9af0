import type { HttpServerRequest } from '../http/request';
import type { HttpServerResponse } from '../http/response';
import type { RoutingContext } from './routing-context';

/** Converts a string (a body, a path, query, cookie or header value) to a typed value. */
export interface ValueReader<T = unknown> {
  /** Converts `value`; `type` is the declared parameter type when TypeScript recorded one. A rejection or throw answers 400. */
  read(value: string, type: Function | undefined): T | Promise<T>;
}

/** Turns a method's result into the response; ends it (or the framework does when it returns). */
export interface HttpResponseWriter<T = unknown> {
  /** Writes `data` to the response (status, headers, body); returning without ending lets the framework end it. */
  write(data: T, request: HttpServerRequest, response: HttpServerResponse): void | Promise<void>;
}

/** A writer bound to an error type (declare it with `@Handles(ErrorClass)`, otherwise it handles any error). */
export interface ExceptionHandler<E = unknown> {
  /** Answers the request that failed with `error`; its status is already set (400, 500 or the HTTP error's), change it if needed. */
  write(error: E, request: HttpServerRequest, response: HttpServerResponse): void | Promise<void>;
}

/** Writes the response of a request no route matched. */
export interface NotFoundResponseWriter {
  /** Answers a request no route matched; the status is already 404. */
  write(request: HttpServerRequest, response: HttpServerResponse): void | Promise<void>;
}

/** Provides a `@Context` value of a type; `null`/`undefined` means "cannot provide" (400 unless a default exists). */
export interface ContextProvider<T = unknown> {
  /** The value for this request, or `null`/`undefined` when there is none. */
  provide(request: HttpServerRequest): T | null | undefined | Promise<T | null | undefined>;
}

/** A context provider given as a plain function; `ctx` is the request's routing context (what earlier stages put there). */
export type ContextProviderFunction<T = unknown> = (
  request: HttpServerRequest,
  ctx: RoutingContext,
) => T | null | undefined | Promise<T | null | undefined>;
