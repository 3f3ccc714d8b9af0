import type { HttpServerRequest } from '../http/request';
import type { HttpServerResponse } from '../http/response';

/** Converts a string (a body, a path, query, cookie or header value) to a typed value. */
export interface ValueReader<T = unknown> {
  read(value: string, type: Function | undefined): T | Promise<T>;
}

/** Turns a method's result into the response; ends it (or the framework does when it returns). */
export interface HttpResponseWriter<T = unknown> {
  write(data: T, request: HttpServerRequest, response: HttpServerResponse): void | Promise<void>;
}

/** A writer bound to an error type (declare it with `@Handles(ErrorClass)`, otherwise it handles any error). */
export interface ExceptionHandler<E = unknown> {
  write(error: E, request: HttpServerRequest, response: HttpServerResponse): void | Promise<void>;
}

/** Writes the response of a request no route matched. */
export interface NotFoundResponseWriter {
  write(request: HttpServerRequest, response: HttpServerResponse): void | Promise<void>;
}

/** Provides a `@Context` value of a type; `null`/`undefined` means "cannot provide" (400 unless a default exists). */
export interface ContextProvider<T = unknown> {
  provide(request: HttpServerRequest): T | null | undefined | Promise<T | null | undefined>;
}

/** A context provider given as a plain function. */
export type ContextProviderFunction<T = unknown> = (request: HttpServerRequest) => T | null | undefined | Promise<T | null | undefined>;
