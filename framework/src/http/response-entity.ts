import { statusText } from './status';

/**
 * A JAX-RS style response a method may return: status, headers and an entity the route's writer serializes.
 *
 * ```ts
 * return Response.status(201).header('Location', `/users/${id}`).entity(user).build();
 * ```
 */
export class Response<T = unknown> {
  constructor(
    readonly status: number,
    readonly headers: ReadonlyArray<readonly [string, string]>,
    readonly entity: T | undefined,
    readonly type: string | undefined,
  ) {}

  static status(status: number): ResponseBuilder {
    return new ResponseBuilder(status);
  }
  static ok<T>(entity?: T, type?: string): ResponseBuilder {
    const b = new ResponseBuilder(200);
    if (entity !== undefined) b.entity(entity);
    if (type !== undefined) b.type(type);
    return b;
  }
  static created(location: string): ResponseBuilder {
    return new ResponseBuilder(201).header('Location', location);
  }
  static accepted<T>(entity?: T): ResponseBuilder {
    const b = new ResponseBuilder(202);
    if (entity !== undefined) b.entity(entity);
    return b;
  }
  static noContent(): ResponseBuilder {
    return new ResponseBuilder(204);
  }
  static notModified(): ResponseBuilder {
    return new ResponseBuilder(304);
  }
  static seeOther(location: string): ResponseBuilder {
    return new ResponseBuilder(303).header('Location', location);
  }
  static temporaryRedirect(location: string): ResponseBuilder {
    return new ResponseBuilder(307).header('Location', location);
  }
  static serverError(): ResponseBuilder {
    return new ResponseBuilder(500);
  }

  get statusText(): string {
    return statusText(this.status);
  }
}

export class ResponseBuilder {
  private readonly headerList: Array<readonly [string, string]> = [];
  private body: unknown = undefined;
  private mediaType: string | undefined;

  constructor(private code: number) {
    if (!Number.isInteger(code) || code < 100 || code > 999) throw new RangeError(`rest.uws: invalid HTTP status ${code}`);
  }

  status(code: number): this {
    this.code = code;
    return this;
  }
  header(name: string, value: string | number): this {
    this.headerList.push([name, String(value)]);
    return this;
  }
  entity(value: unknown): this {
    this.body = value;
    return this;
  }
  type(mediaType: string): this {
    this.mediaType = mediaType;
    return this;
  }
  build<T = unknown>(): Response<T> {
    return new Response<T>(this.code, this.headerList, this.body as T, this.mediaType);
  }
}
