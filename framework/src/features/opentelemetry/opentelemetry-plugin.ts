import type { AsyncLocalStorage } from 'node:async_hooks';
import { Buffer } from 'node:buffer';
import diagnostics from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import type * as Api from '@opentelemetry/api';
import {
  errors,
  HANDLER_CHANNEL,
  type HandlerTrace,
  HTTP_METHODS,
  MESSAGE_CHANNEL,
  type MessageTrace,
  REQUEST_CHANNEL,
  type RequestTrace,
  type RestPlugin,
  type RoutingContext,
  UPGRADE_CHANNEL,
} from '../../plugin';
import { checkMetricsAccess, type MetricsAccess, metricsResource } from './metrics-resource';
import { PrometheusMetrics } from './prometheus';
import { extractTraceparent } from './traceparent';

/**
 * `@opentelemetry/api`'s `TracerProvider`, as the options name it: written out so that an app that does not use the
 * plugin type-checks without `@opentelemetry/api` installed (it is an optional peer dependency).
 */
export interface TracerProviderLike {
  /** `TracerProvider.getTracer`. */
  getTracer(name: string, version?: string, options?: object): object;
}

/** `@opentelemetry/api`'s `MeterProvider`, written out for the same reason. */
export interface MeterProviderLike {
  /** `MeterProvider.getMeter`. */
  getMeter(name: string, version?: string, options?: object): object;
}

/** `@opentelemetry/api`'s `TextMapPropagator`, written out for the same reason. */
export interface TextMapPropagatorLike {
  /** `TextMapPropagator.extract`. */
  extract(context: any, carrier: any, getter: any): any;
  /** `TextMapPropagator.inject`. */
  inject(context: any, carrier: any, setter: any): void;
  /** `TextMapPropagator.fields`. */
  fields(): string[];
}

/** Options of `openTelemetry()`. */
export interface OpenTelemetryOptions {
  /** Where spans go (default: the global tracer provider, `trace.getTracerProvider()`). */
  tracerProvider?: TracerProviderLike;
  /** Where metrics go (default: the global meter provider, `metrics.getMeterProvider()`). */
  meterProvider?: MeterProviderLike;
  /**
   * Reads the caller's trace context from the request headers (default: the global propagator; when none is
   * registered, W3C `traceparent`/`tracestate` are read by the plugin itself).
   */
  propagator?: TextMapPropagatorLike;
  /**
   * Serves the two metrics in the Prometheus text format at this path (`'/metrics'`), as a route of the app (its rate
   * limits and proxies apply to it as to any route), readable as `metricsAccess` says. Default: not served.
   */
  metricsPath?: string;
  /**
   * Who may read `metricsPath`, required with it: `{ token }` a scraper sending `Authorization: Bearer <token>`
   * (the app's authentication does not apply), `{ roles }` users of the app's authentication having any of the
   * roles, `'public'` anyone.
   */
  metricsAccess?: MetricsAccess;
}

/** What the plugin keeps of one request while it runs. */
interface Active {
  readonly span: Api.Span;
  readonly context: Api.Context;
  readonly start: number;
  readonly method: string;
  readonly scheme: string;
  error: unknown;
}

const KNOWN_METHODS: ReadonlySet<string> = new Set(HTTP_METHODS);
const PATH_PATTERN = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
const OPTION_NAMES = new Set(['tracerProvider', 'meterProvider', 'propagator', 'metricsPath', 'metricsAccess']);

function loadApi(): typeof Api {
  try {
    return require('@opentelemetry/api') as typeof Api;
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code === 'MODULE_NOT_FOUND')
      throw errors.RU_ERR_MISSING_PACKAGE(
        'rest.uws: openTelemetry needs the package @opentelemetry/api: npm install @opentelemetry/api',
      );
    throw err;
  }
}

/** The headers of a request, for the propagator. */
const HEADER_GETTER: Api.TextMapGetter<RoutingContext> = {
  keys: (ctx) => Object.keys(ctx.request.headers()),
  get: (ctx, key) => ctx.request.headerOrEmpty(key) || undefined,
};

/**
 * A server span per request and per WebSocket upgrade, and a consumer span per WebSocket message, following the OpenTelemetry HTTP semantic conventions
 * (`GET /users/{id}`, `http.request.method`, `url.path`, `http.route`, `http.response.status_code`,
 * `server.address`/`server.port`, `client.address` as the proxies trusted make it, `error.type`), joined to the
 * caller's trace (W3C `traceparent`), active in the handler and what it calls; the metrics
 * `http.server.request.duration` and `http.server.active_requests`; the span's `trace_id` and `span_id` on the
 * request's log lines (`RequestLogger`, access line); optionally those metrics as Prometheus text.
 * Built on the tracing channels of rest.uws (`REQUEST_CHANNEL`...) and `@opentelemetry/api`.
 *
 * ```ts
 * new RestBuilder().use(openTelemetry({ metricsPath: '/metrics', metricsAccess: { token: process.env.METRICS_TOKEN! } }))
 * ```
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): RestPlugin {
  if (options === null || typeof options !== 'object')
    throw errors.RU_ERR_PLUGIN('rest.uws: openTelemetry: options must be an object');
  for (const key of Object.keys(options))
    if (!OPTION_NAMES.has(key)) throw errors.RU_ERR_PLUGIN(`rest.uws: openTelemetry: unknown option "${key}"`);
  const metricsPath = options.metricsPath;
  if (metricsPath !== undefined && (typeof metricsPath !== 'string' || !PATH_PATTERN.test(metricsPath)))
    throw errors.RU_ERR_PLUGIN(
      `rest.uws: openTelemetry: metricsPath must be a path starting with /, got ${JSON.stringify(metricsPath)}`,
    );
  // The metrics reveal the app's routes and load: whoever serves them says who may read them.
  const metricsAccess = options.metricsAccess;
  if (metricsPath !== undefined && metricsAccess === undefined)
    throw errors.RU_ERR_PLUGIN(
      "rest.uws: openTelemetry: metricsPath needs metricsAccess: { token }, { roles } or 'public'",
    );
  if (metricsPath === undefined && metricsAccess !== undefined)
    throw errors.RU_ERR_PLUGIN('rest.uws: openTelemetry: metricsAccess is given without metricsPath');
  if (metricsAccess !== undefined) checkMetricsAccess(metricsAccess);
  const api = loadApi();
  const tracer = (
    (options.tracerProvider as Api.TracerProvider | undefined) ?? api.trace.getTracerProvider()
  ).getTracer('rest.uws');
  const meter = ((options.meterProvider as Api.MeterProvider | undefined) ?? api.metrics.getMeterProvider()).getMeter(
    'rest.uws',
  );
  const duration = meter.createHistogram('http.server.request.duration', {
    description: 'Duration of HTTP server requests.',
    unit: 's',
    advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] },
  });
  const activeRequests = meter.createUpDownCounter('http.server.active_requests', {
    description: 'Number of active HTTP server requests.',
    unit: '{request}',
  });
  const prometheus = metricsPath === undefined ? undefined : new PrometheusMetrics();
  const active = new WeakMap<RoutingContext, Active>();
  /** The span of each WebSocket upgrade, by its request (a connection's messages link to it). */
  const upgrades = new WeakMap<object, Api.SpanContext>();
  /** The spans of the WebSocket messages being processed. */
  const messages = new WeakMap<MessageTrace, { readonly span: Api.Span; readonly context: Api.Context }>();
  /** Where this plugin keeps a request's span in its context, for the log lines (kept after the span ended). */
  const SPAN = Symbol('rest.uws:opentelemetry-span');

  /** The caller's context: the propagator's, or W3C trace context read here when no propagator is registered. */
  const parentOf = (ctx: RoutingContext): Api.Context => {
    const propagator =
      (options.propagator as Api.TextMapPropagator | undefined) ??
      (api.propagation.fields().length > 0 ? api.propagation : undefined);
    if (propagator !== undefined) return propagator.extract(api.ROOT_CONTEXT, ctx, HEADER_GETTER);
    const request = ctx.request;
    return extractTraceparent(api, request.headerOrEmpty('traceparent'), request.headerOrEmpty('tracestate'));
  };

  const begin = (m: RequestTrace): Active => {
    const known = active.get(m.ctx);
    if (known !== undefined) return known;
    const request = m.ctx.request;
    const method = KNOWN_METHODS.has(m.method) ? m.method : '_OTHER';
    const scheme = request.protocol();
    const attributes: Api.Attributes = {
      'http.request.method': method,
      'url.path': m.url,
      'url.scheme': scheme,
    };
    if (method === '_OTHER') attributes['http.request.method_original'] = m.method;
    const query = request.query();
    if (query) attributes['url.query'] = query;
    const host = request.host();
    if (host) {
      const colon = host.lastIndexOf(':');
      const bracket = host.lastIndexOf(']');
      if (colon > bracket && colon > 0) {
        attributes['server.address'] = host.slice(0, colon);
        attributes['server.port'] = Number(host.slice(colon + 1));
      } else {
        attributes['server.address'] = host;
        attributes['server.port'] = scheme === 'https' ? 443 : 80;
      }
    }
    const client = request.remoteAddress();
    if (client) attributes['client.address'] = client;
    const agent = request.headerOrEmpty('user-agent');
    if (agent !== '') attributes['user_agent.original'] = agent;
    if (m.route !== undefined) attributes['http.route'] = m.route.path;
    const name = m.route === undefined ? method : `${method} ${m.route.path}`;
    const parent = parentOf(m.ctx);
    const span = tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes }, parent);
    const state: Active = {
      span,
      context: api.trace.setSpan(parent, span),
      start: performance.now(),
      method,
      scheme,
      error: undefined,
    };
    active.set(m.ctx, state);
    if (m.route !== undefined) upgrades.set(request, span.spanContext());
    m.ctx.put(SPAN, span);
    activeRequests.add(1, { 'http.request.method': method, 'url.scheme': scheme });
    prometheus?.activeRequests(1);
    return state;
  };

  const finish = (m: RequestTrace): void => {
    const state = active.get(m.ctx);
    if (state === undefined) return;
    active.delete(m.ctx);
    const { span, method, scheme } = state;
    const seconds = (performance.now() - state.start) / 1000;
    const status = m.ctx.response.getStatusCode();
    const route = m.ctx.route()?.path ?? m.route?.path;
    const attributes: Api.Attributes = {
      'http.request.method': method,
      'url.scheme': scheme,
      'http.response.status_code': status,
    };
    if (route !== undefined) {
      attributes['http.route'] = route;
      span.updateName(`${method} ${route}`);
    }
    let errorType: string | undefined;
    if (m.aborted === true) errorType = 'aborted';
    else if (status >= 500) errorType = errorName(state.error) ?? String(status);
    if (errorType !== undefined) {
      attributes['error.type'] = errorType;
      span.setStatus({ code: api.SpanStatusCode.ERROR });
    }
    span.setAttributes(attributes);
    span.end();
    duration.record(seconds, attributes);
    activeRequests.add(-1, { 'http.request.method': method, 'url.scheme': scheme });
    if (prometheus !== undefined) {
      prometheus.activeRequests(-1);
      const labels: Record<string, string | number> = {
        'http.request.method': method,
        'http.response.status_code': status,
      };
      if (route !== undefined) labels['http.route'] = route;
      if (errorType !== undefined) labels['error.type'] = errorType;
      prometheus.observe(labels, seconds);
    }
  };

  /** `trace_id`, `span_id` and `trace_flags` of the request's span, as OpenTelemetry's log data model names them. */
  const spanLogFields = (ctx: RoutingContext): Api.Attributes | undefined => {
    const span = ctx.get<Api.Span>(SPAN);
    if (span === undefined) return undefined;
    const context = span.spanContext();
    if (!api.trace.isSpanContextValid(context)) return undefined;
    return {
      trace_id: context.traceId,
      span_id: context.spanId,
      trace_flags: `0${(context.traceFlags & 0xff).toString(16)}`.slice(-2),
    };
  };

  const failed = (m: RequestTrace): void => {
    const state = active.get(m.ctx);
    if (state === undefined) return;
    state.error = m.error;
    if (m.error instanceof Error) state.span.recordException(m.error);
  };

  /**
   * A span per WebSocket message, following the messaging conventions: kind CONSUMER, `process /live/{room}`, a new
   * trace linked to the upgrade's span (a connection lives longer than any trace should).
   */
  const beginMessage = (m: MessageTrace): { readonly span: Api.Span; readonly context: Api.Context } => {
    const known = messages.get(m);
    if (known !== undefined) return known;
    const template = m.route.path;
    const upgrade = upgrades.get(m.connection.request);
    const span = tracer.startSpan(
      `process ${template}`,
      {
        kind: api.SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'websocket',
          'messaging.operation.name': 'process',
          'messaging.operation.type': 'process',
          'messaging.destination.name': m.connection.request.path(),
          'messaging.destination.template': template,
          'messaging.message.body.size': typeof m.data === 'string' ? Buffer.byteLength(m.data) : m.data.length,
        },
        links: upgrade === undefined ? undefined : [{ context: upgrade }],
      },
      api.ROOT_CONTEXT,
    );
    const state = { span, context: api.trace.setSpan(api.ROOT_CONTEXT, span) };
    messages.set(m, state);
    return state;
  };

  const endMessage = (m: MessageTrace): void => {
    const state = messages.get(m);
    if (state === undefined) return;
    messages.delete(m);
    const { span } = state;
    if (m.error !== undefined) {
      if (m.error instanceof Error) span.recordException(m.error);
      span.setAttribute('error.type', errorName(m.error) ?? 'Error');
      span.setStatus({ code: api.SpanStatusCode.ERROR });
    }
    span.end();
  };

  const contextOf = (ctx: RoutingContext): Api.Context | undefined => active.get(ctx)?.context;
  const instance: Instance = { begin, finish, failed, contextOf, beginMessage, endMessage };
  return {
    name: 'opentelemetry',
    setup(app) {
      // The channels are the process's: one subscription serves every instance, each answering for the apps it
      // was set up on (the latest instance used on an app replaces an earlier one there, as plugins of one name do).
      listen(api);
      owners.set(app.app as object, instance);
      if (prometheus !== undefined) app.register(metricsResource(metricsPath!, prometheus, metricsAccess!));
      app.logFields(spanLogFields);
    },
  };
}

/** What one `openTelemetry()` does with the messages of its apps. */
interface Instance {
  begin(m: RequestTrace): Active;
  finish(m: RequestTrace): void;
  failed(m: RequestTrace): void;
  /** The active context of a request whose span it began and has not ended. */
  contextOf(ctx: RoutingContext): Api.Context | undefined;
  beginMessage(m: MessageTrace): { readonly context: Api.Context };
  endMessage(m: MessageTrace): void;
}

/** The instance answering for each app (by `PluginContext.app`). */
const owners = new WeakMap<object, Instance>();
/** The instance that began each request's span: it ends it, whatever is used on the app meanwhile. */
const requestOwners = new WeakMap<RoutingContext, Instance>();
/** The instance that began each message's span. */
const messageOwners = new WeakMap<MessageTrace, Instance>();
let listening = false;

const beginRequest = (m: RequestTrace): Active | undefined => {
  const owner = requestOwners.get(m.ctx) ?? owners.get(m.app as object);
  if (owner === undefined) return undefined;
  requestOwners.set(m.ctx, owner);
  return owner.begin(m);
};

const requestHandlers = {
  start: (m: unknown) => void beginRequest(m as RequestTrace),
  end: () => {},
  asyncStart: () => {},
  asyncEnd: (m: unknown) => requestOwners.get((m as RequestTrace).ctx)?.finish(m as RequestTrace),
  error: (m: unknown) => requestOwners.get((m as RequestTrace).ctx)?.failed(m as RequestTrace),
};

const beginMessage = (m: MessageTrace): { readonly context: Api.Context } | undefined => {
  const owner = messageOwners.get(m) ?? owners.get(m.app as object);
  if (owner === undefined) return undefined;
  messageOwners.set(m, owner);
  return owner.beginMessage(m);
};

const messageHandlers = {
  start: (m: unknown) => void beginMessage(m as MessageTrace),
  end: (m: unknown) => {
    if ((m as MessageTrace).async !== true) messageOwners.get(m as MessageTrace)?.endMessage(m as MessageTrace);
  },
  asyncStart: () => {},
  asyncEnd: (m: unknown) => messageOwners.get(m as MessageTrace)?.endMessage(m as MessageTrace),
  error: () => {},
};

/**
 * Subscribes to the request, upgrade and message channels once per process, and binds the context manager's storage
 * to their `start` and to the handler's, so the request's span is the active one in the handler (the context
 * manager of `@opentelemetry/context-async-hooks`, which the Node SDK registers; another manager keeps the spans,
 * without the active context). A channel keeps one transform per storage: a second subscription would replace the
 * first's, which is why there is only one.
 */
function listen(api: typeof Api): void {
  if (listening) return;
  listening = true;
  const request = diagnostics.tracingChannel<unknown, RequestTrace>(REQUEST_CHANNEL);
  const upgrade = diagnostics.tracingChannel<unknown, RequestTrace>(UPGRADE_CHANNEL);
  const handler = diagnostics.tracingChannel<unknown, HandlerTrace>(HANDLER_CHANNEL);
  const message = diagnostics.tracingChannel<unknown, MessageTrace>(MESSAGE_CHANNEL);
  request.subscribe(requestHandlers as never);
  upgrade.subscribe(requestHandlers as never);
  message.subscribe(messageHandlers as never);
  const storage = contextStorage(api);
  if (storage === undefined) return;
  message.start.bindStore(storage, (m) => beginMessage(m)?.context ?? storage.getStore());
  request.start.bindStore(storage, (m) => beginRequest(m)?.context ?? storage.getStore());
  upgrade.start.bindStore(storage, (m) => beginRequest(m)?.context ?? storage.getStore());
  handler.start.bindStore(storage, (m) => requestOwners.get(m.ctx)?.contextOf(m.ctx) ?? storage.getStore());
}

/** The error's class name, for `error.type` (HTTP errors of rest.uws carry their code instead). */
function errorName(error: unknown): string | undefined {
  if (error === undefined || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code !== '') return code;
  const name = (error as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** The AsyncLocalStorage of the global context manager, when it has one. */
function contextStorage(api: typeof Api): AsyncLocalStorage<unknown> | undefined {
  const manager = (api.context as unknown as { _getContextManager?: () => unknown })._getContextManager?.();
  const storage = (manager as { _asyncLocalStorage?: unknown } | undefined)?._asyncLocalStorage;
  if (
    storage !== null &&
    typeof storage === 'object' &&
    typeof (storage as AsyncLocalStorage<unknown>).run === 'function'
  )
    return storage as AsyncLocalStorage<unknown>;
  return undefined;
}
