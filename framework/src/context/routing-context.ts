import type { HttpServerRequest } from '../http/request';
import type { HttpServerResponse } from '../http/response';
import type { RouteDefinition } from '../metadata/route-definition';
import { FILE_UPLOADS, type FileUpload } from './file-upload';
import type { User } from './user';

/**
 * Per-request data shared by the route's stages (providers, authentication, the method, events):
 * `put`/`get` values, the authenticated user, uploaded files. Inject it with `@Context() ctx: RoutingContext`.
 */
export class RoutingContext {
  /** The request being answered. */
  declare readonly request: HttpServerRequest;
  /** Its response. */
  declare readonly response: HttpServerResponse;
  /** The route being run (changes while a chain of identical paths falls through); set by the pipeline. */
  declare protected currentRoute: RouteDefinition | null;
  declare private _data: Map<unknown, unknown> | null;
  declare private _user: User | undefined;

  /**
   * @param request the request being answered
   * @param response its response
   */
  constructor(request: HttpServerRequest, response: HttpServerResponse) {
    // Assigned here rather than by field initializers: the pipeline's subclass (one per request) is then built
    // without a builtin call in V8's optimized code (see ResponseHead).
    this.request = request;
    this.response = response;
    this.currentRoute = null;
    this._data = null;
    this._user = undefined;
  }

  /** Stores a value for later stages of this request (keyed by string or by class). */
  put(key: unknown, value: unknown): this {
    (this._data ?? (this._data = new Map())).set(key, value);
    return this;
  }

  /** A value stored with `put` (or pushed by a context provider), undefined when there is none. */
  get<T = unknown>(key: unknown): T | undefined {
    return this._data === null ? undefined : (this._data.get(key) as T | undefined);
  }

  /** Whether a value is stored under `key`. */
  has(key: unknown): boolean {
    return this._data?.has(key) ?? false;
  }

  /** Removes a stored value; true when there was one. */
  remove(key: unknown): boolean {
    return this._data?.delete(key) ?? false;
  }

  /** The user an authentication provider identified, if any. */
  user(): User | undefined {
    return this._user;
  }

  /** Sets the authenticated user (authentication providers do this), or clears it with undefined. */
  setUser(user: User | undefined): this {
    this._user = user;
    return this;
  }

  /** The definition of the route handling the request. */
  route(): RouteDefinition | null {
    return this.currentRoute;
  }

  /** The path variables of the matched route, by name, decoded. */
  pathParams(): Record<string, string> {
    return this.request.pathParams();
  }

  /**
   * Files uploaded with this multipart/form-data request, in the order they came (empty for other requests, and
   * before the body was read). The built-in uploads plugin stores them as it streams the body.
   */
  fileUploads(): readonly FileUpload[] {
    return this.get<readonly FileUpload[]>(FILE_UPLOADS) ?? NO_UPLOADS;
  }
}

const NO_UPLOADS: readonly FileUpload[] = Object.freeze([]);
