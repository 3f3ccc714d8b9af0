import { RoutingContext } from '../context/routing-context';
import type { HttpServerRequest } from '../http/request';
import type { HttpServerResponse } from '../http/response';
import type { RouteDefinition } from '../metadata/route-definition';
import { kRouteSend } from '../http/internal';
import type { RouteSend } from '../http/response';
import type { RequestTrace } from './diagnostics';

/**
 * Where the body argument came from: `json`, JSON.parse's output as it is; `builtIn`, another built-in
 * reader's (form fields, or the JSON reader's shallow instance); `other`, a reader of the app's own.
 */
export type BodyOrigin = 'other' | 'builtIn' | 'json';

/**
 * One request's run through the pipeline: the RoutingContext that handlers and plugins see, plus what the
 * stages hand each other. The pipeline owns these fields; nothing outside `pipeline/` writes them.
 */
export class Exchange extends RoutingContext {
  /** The method's arguments, once read (an upgrade's: `open`'s). */
  args: unknown[] | null = null;
  /** What the method returned. */
  result: unknown = undefined;
  /** The media type negotiated for the answer (`@Produces` and `Accept`). */
  contentType: string | undefined = undefined;
  /** Which kind of reader read the body argument (validation builds instances accordingly). */
  bodyOrigin: BodyOrigin = 'other';
  /** The tracing channels' message while a subscriber listens (diagnostics.ts), else null. */
  trace: RequestTrace | null = null;

  constructor(
    request: HttpServerRequest,
    response: HttpServerResponse,
    readonly app: unknown,
  ) {
    super(request, response);
  }

  /**
   * The route now running (a chain of identical paths moves on to the next), with its plugins' send hooks
   * (compression): they replace the previous route's, which fell through.
   */
  enter(route: RouteDefinition, send: RouteSend | null): void {
    this.currentRoute = route;
    this.response[kRouteSend] = send;
  }
}

/** Which kind of reader read the request's body argument ('other' outside a route run). */
export function bodyOriginOf(ctx: RoutingContext): BodyOrigin {
  return ctx instanceof Exchange ? ctx.bodyOrigin : 'other';
}
