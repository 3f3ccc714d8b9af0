/**
 * Keys of the request's and the response's framework-only members, in the style of Fastify's `lib/symbols.js`.
 * The adapter and the pipeline set and read per-request state through them (the route's path variables, the body,
 * the send hooks, whether uWebSockets.js's callback is still running...); `index.ts` exports none of them, so an
 * application cannot reach them, and no file reaches into another class's `_fields`
 * (`framework/test/architecture/private-members.test.ts`). A symbol key costs what a named property costs.
 */

// HttpServerResponse

/** true while the uWebSockets.js callback runs (writes are corked by uWebSockets.js itself); the adapter sets it */
export const kLive: unique symbol = Symbol('rest.uws.response.live');
/** the client went away: the adapter calls it from uWebSockets.js's onAborted */
export const kAbort: unique symbol = Symbol('rest.uws.response.abort');
/** the app's default headers (`DefaultHead`: written unless the response set them, and composed into the usual head) */
export const kDefaultHead: unique symbol = Symbol('rest.uws.response.defaultHead');
/** the app's send hooks (`app.onSend`, composed; null when none), given `kSendContext`: run once, before the head is written */
export const kAppSend: unique symbol = Symbol('rest.uws.response.appSend');
/** the route's send hooks (`RouteHooks.onSend`), run after the app's, given `kSendContext` */
export const kRouteSend: unique symbol = Symbol('rest.uws.response.routeSend');
/** the routing context given to the send hooks and to `kAppFinished` */
export const kSendContext: unique symbol = Symbol('rest.uws.response.sendContext');
/** the app's response hooks (`app.onResponse`, composed; null when none): run once, when the response ended or the client left */
export const kAppFinished: unique symbol = Symbol('rest.uws.response.appFinished');
/** sets the Content-Type a writer chose, known valid, unless the response has one */
export const kPutContentType: unique symbol = Symbol('rest.uws.response.putContentType');
/** adds the values of one header known valid (checked at registration) without the per-call checks */
export const kPutTrustedHeaderValues: unique symbol = Symbol('rest.uws.response.putTrustedHeaderValues');
/** the connection was upgraded to a WebSocket (uWebSockets.js wrote the 101): the response is over */
export const kUpgraded: unique symbol = Symbol('rest.uws.response.upgraded');

// HttpServerRequest

/** names of the matched route's path variables */
export const kParamNames: unique symbol = Symbol('rest.uws.request.paramNames');
/** values of the path variables, by position */
export const kParamValues: unique symbol = Symbol('rest.uws.request.paramValues');
/** the complete body, once read */
export const kBody: unique symbol = Symbol('rest.uws.request.body');
/** the response answering the request (the address can be read from uWebSockets.js until it ends) */
export const kAnsweredBy: unique symbol = Symbol('rest.uws.request.answeredBy');
/** reads the origin behind trusted proxies (`trustProxy`); null: the connection's own */
export const kOriginResolver: unique symbol = Symbol('rest.uws.request.originResolver');
/** the headers as received (lower-case names and values, alternating), once copied by `detach()` */
export const kReceivedHeaders: unique symbol = Symbol('rest.uws.request.receivedHeaders');
/** forgets the native response (the connection was upgraded: the request outlives it) */
export const kReleaseNative: unique symbol = Symbol('rest.uws.request.releaseNative');
