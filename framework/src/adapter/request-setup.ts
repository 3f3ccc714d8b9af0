import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse } from 'uWebSockets.js';
import type { AppRuntime } from '../app/app-runtime';
import { HttpServerRequest } from '../http/request';
import { HttpServerResponse } from '../http/response';
import { Exchange } from '../pipeline/exchange';
import {
  kAbort,
  kAnsweredBy,
  kAppFinished,
  kAppSend,
  kDefaultHead,
  kLive,
  kOriginResolver,
  kSendContext,
} from '../http/internal';

/**
 * What every request the adapter takes starts and ends with, HTTP routes and WebSocket upgrades alike: the
 * framework's request, response and exchange, with the app's send and response hooks attached; and leaving the
 * uWebSockets.js callback. One place, so an upgrade meets the app's plugins exactly as a route does (CORS, request
 * ids, access logs, compression of the answer).
 */

/**
 * The exchange of one request: `query` is given when already read (an upgrade reads it with the other headers).
 * The app's `onSend` hooks run before the head is written; its `onResponse` hooks once, when the response ended
 * (a 101 included) or the client left.
 */
export function openExchange(
  rt: AppRuntime,
  res: UwsResponse,
  req: UwsRequest,
  method: string,
  url: string,
  query?: string,
): Exchange {
  const request = new HttpServerRequest(req, res, method, url, query);
  const response = new HttpServerResponse(res, method === 'HEAD');
  response[kDefaultHead] = rt.defaultHead;
  request[kAnsweredBy] = response;
  const hooks = rt.hooks;
  request[kOriginResolver] = hooks.originResolver;
  const ctx = new Exchange(request, response, rt.app);
  // The hooks are the app's composed functions, held in slots and given the context when they run: no closure
  // or listener per request (an app-wide hook costs its call, nothing more).
  response[kSendContext] = ctx;
  response[kAppSend] = hooks.onSend;
  response[kAppFinished] = hooks.onResponse;
  return ctx;
}

/**
 * The uWebSockets.js callback returns: later writes cork themselves; when the answer is still to come
 * (`pending`), the request copies what it may still be asked (headers, query) and the response hears of
 * the client leaving.
 */
export function leaveCallback(res: UwsResponse, ctx: Exchange, pending: boolean): void {
  const response = ctx.response;
  response[kLive] = false;
  if (!pending) return;
  ctx.request.detach();
  if (!response.ended()) res.onAborted(() => response[kAbort]());
}
