import { errors, type RestPlugin, type RoutingContext } from '../../plugin';
import { corsPolicy, type CorsOptions, type CorsPolicy } from './cors-options';

/**
 * The pre-routing step of CORS. Requests without `Origin` pass untouched. A preflight (OPTIONS with
 * `Access-Control-Request-Method`) is answered here: 204 with the allowed method and headers, or
 * 403 when the origin, method or a header is not allowed. Other requests from an allowed origin
 * get the CORS response headers and go on to routing; from another origin they get none.
 */
function corsHandler(
  policy: CorsPolicy,
  fail: (ctx: RoutingContext, error: unknown) => unknown,
): (ctx: RoutingContext) => boolean {
  const allowed = (origin: string): boolean => policy.anyOrigin || policy.originPattern!.test(origin);
  // Credentials are never combined with "*": the origin is echoed instead (and caches told it varies).
  const echoOrigin = !policy.anyOrigin || policy.allowCredentials;

  const refuse = (ctx: RoutingContext, message: string): true => {
    void fail(ctx, errors.RU_ERR_CORS(message));
    return true;
  };

  const putOriginHeaders = (ctx: RoutingContext, origin: string): void => {
    const response = ctx.response;
    if (echoOrigin) {
      response.putHeader('Access-Control-Allow-Origin', origin);
      response.appendHeader('Vary', 'Origin');
    } else {
      response.putHeader('Access-Control-Allow-Origin', '*');
    }
    if (policy.allowCredentials) response.putHeader('Access-Control-Allow-Credentials', 'true');
  };

  return (ctx) => {
    const request = ctx.request;
    // An empty Origin names no origin: treated as none, so same-origin requests read one native header and stop.
    const origin = request.headerOrEmpty('origin');
    if (origin === '') return false;
    const requestedMethod =
      request.method() === 'OPTIONS' ? request.getHeader('access-control-request-method') : undefined;

    if (requestedMethod === undefined) {
      // An actual request: headers only when the origin is allowed; the browser enforces the rest.
      if (allowed(origin)) {
        putOriginHeaders(ctx, origin);
        if (policy.exposedHeadersValue !== undefined)
          ctx.response.putHeader('Access-Control-Expose-Headers', policy.exposedHeadersValue);
      } else if (!policy.anyOrigin) {
        ctx.response.appendHeader('Vary', 'Origin');
      }
      return false;
    }

    // Preflight.
    if (!allowed(origin)) return refuse(ctx, `CORS: origin ${origin.slice(0, 200)} is not allowed`);
    const method = requestedMethod.trim().toUpperCase();
    if (!policy.methods.has(method))
      return refuse(ctx, `CORS: method ${method.slice(0, 20)} is not allowed; allowed: ${policy.methodsValue}`);
    const requestedHeaders = request.getHeader('access-control-request-headers');
    const wanted =
      requestedHeaders === undefined
        ? []
        : requestedHeaders
            .split(',')
            .map((h) => h.trim())
            .filter((h) => h.length > 0);
    if (policy.allowedHeaders.size > 0) {
      const refused = wanted.filter((h) => !policy.allowedHeaders.has(h.toLowerCase()));
      if (refused.length > 0)
        return refuse(
          ctx,
          `CORS: header ${refused.join(', ').slice(0, 200)} is not allowed; allowed: ${policy.allowedHeadersValue}`,
        );
    }
    const response = ctx.response;
    response.setStatusCode(204);
    putOriginHeaders(ctx, origin);
    response.putHeader('Access-Control-Allow-Methods', policy.methodsValue);
    const headersValue = policy.allowedHeadersValue ?? (wanted.length > 0 ? wanted.join(', ') : undefined);
    if (headersValue !== undefined) response.putHeader('Access-Control-Allow-Headers', headersValue);
    if (policy.allowedHeadersValue === undefined) response.appendHeader('Vary', 'Access-Control-Request-Headers');
    if (policy.maxAge !== undefined) response.putHeader('Access-Control-Max-Age', policy.maxAge);
    response.end();
    return true;
  };
}

/**
 * CORS for every route of an app and its 404s: an `onRequest` hook before routing (preflights are
 * answered there). Using it again on the same app replaces the policy.
 *
 * ```ts
 * new RestBuilder().use(cors({ origin: 'https://(www\\.)?example\\.com', allowCredentials: true }))
 * ```
 */
export function cors(options: CorsOptions): RestPlugin {
  const policy = corsPolicy(options);
  return {
    name: 'cors',
    setup(app) {
      app.onRequest(corsHandler(policy, (ctx, error) => app.fail(ctx, error)));
    },
  };
}

/** The positional form of `enableCors(origin, allowCredentials?, maxAgeSeconds?, allowedHeaders?, methods?)` as options. */
export function corsOptionsOf(args: readonly unknown[]): CorsOptions {
  const [first, allowCredentials, maxAgeSeconds, allowedHeaders, methods] = args;
  if (first !== null && typeof first === 'object' && !(first instanceof RegExp)) return first as CorsOptions;
  return {
    origin: first as string | RegExp,
    allowCredentials: allowCredentials as boolean | undefined,
    maxAgeSeconds: maxAgeSeconds as number | undefined,
    allowedHeaders: allowedHeaders as Iterable<string> | undefined,
    methods: methods as Iterable<string> | undefined,
  };
}
