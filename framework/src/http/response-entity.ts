import { statusText } from '../errors/http-status';
import { errors } from '../errors/factories';

/**
 * A JAX-RS style response a method may return: status, headers and an entity the route's writer serializes.
 *
 * ```ts
 * return Response.status(201).header('Location', `/users/${id}`).entity(user).build();
 * ```
 */
export class Response<T = unknown> {
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** Response headers, in order, as name and value pairs. */
    readonly headers: ReadonlyArray<readonly [string, string]>,
    /** What the route's writer serializes; undefined sends no body. */
    readonly entity: T | undefined,
    /** The Content-Type, chosen over content negotiation when set. */
    readonly type: string | undefined,
  ) {}

  /** A builder for any status. */
  static status(status: number): ResponseBuilder {
    return new ResponseBuilder(status);
  }
  /** 200 OK, with an optional entity and media type. */
  static ok<T>(entity?: T, type?: string): ResponseBuilder {
    const b = new ResponseBuilder(200);
    if (entity !== undefined) b.entity(entity);
    if (type !== undefined) b.type(type);
    return b;
  }
  /** 201 Created with a `Location` header. */
  static created(location: string): ResponseBuilder {
    return new ResponseBuilder(201).header('Location', location);
  }
  /** 202 Accepted, with an optional entity. */
  static accepted<T>(entity?: T): ResponseBuilder {
    const b = new ResponseBuilder(202);
    if (entity !== undefined) b.entity(entity);
    return b;
  }
  /** 204 No Content. */
  static noContent(): ResponseBuilder {
    return new ResponseBuilder(204);
  }
  /** 304 Not Modified. */
  static notModified(): ResponseBuilder {
    return new ResponseBuilder(304);
  }
  /** 303 See Other with a `Location` header. */
  static seeOther(location: string): ResponseBuilder {
    return new ResponseBuilder(303).header('Location', location);
  }
  /** 307 Temporary Redirect with a `Location` header. */
  static temporaryRedirect(location: string): ResponseBuilder {
    return new ResponseBuilder(307).header('Location', location);
  }
  /** 500 Internal Server Error. */
  static serverError(): ResponseBuilder {
    return new ResponseBuilder(500);
  }

  /** The reason phrase of the status (`Created` for 201). */
  get statusText(): string {
    return statusText(this.status);
  }
}

/** Builds a `Response`: start with `Response.status(...)` or one of its shorthands, end with `build()`. */
export class ResponseBuilder {
  private readonly headerList: Array<readonly [string, string]> = [];
  private body: unknown = undefined;
  private mediaType: string | undefined;

  constructor(private code: number) {
    if (!Number.isInteger(code) || code < 100 || code > 999)
      throw errors.RU_ERR_STATUS(`rest.uws: invalid HTTP status ${code}`);
  }

  /** Replaces the status. */
  status(code: number): this {
    this.code = code;
    return this;
  }
  /** Adds a response header (several of one name are all sent). */
  header(name: string, value: string | number): this {
    this.headerList.push([name, String(value)]);
    return this;
  }
  /** Sets what the writer serializes. */
  entity(value: unknown): this {
    this.body = value;
    return this;
  }
  /** Sets the Content-Type, overriding content negotiation. */
  type(mediaType: string): this {
    this.mediaType = mediaType;
    return this;
  }
  /** The response, to return from a route method. */
  build<T = unknown>(): Response<T> {
    return new Response<T>(this.code, this.headerList, this.body as T, this.mediaType);
  }
}
