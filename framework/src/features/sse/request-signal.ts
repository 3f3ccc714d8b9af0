import { errors, type HttpServerRequest, type HttpServerResponse } from '../../plugin';

const controllers = new WeakMap<HttpServerRequest, AbortController>();

/**
 * The request's disconnect signal: aborted once, when the client leaves before the response ended (or when the
 * server ends an event stream at shutdown). Made on first ask; later asks get the same signal.
 */
export function requestSignal(request: HttpServerRequest, response: HttpServerResponse): AbortSignal {
  let controller = controllers.get(request);
  if (controller === undefined) {
    const made = new AbortController();
    controller = made;
    controllers.set(request, made);
    response.onAborted(() => made.abort(errors.RU_ERR_ABORTED('the client went away')));
  }
  return controller.signal;
}

/** Aborts the request's signal (an event stream ended by the server at shutdown). */
export function abortRequest(request: HttpServerRequest, reason: string): void {
  controllers.get(request)?.abort(errors.RU_ERR_ABORTED(reason));
}
