/**
 * The cost table's server (`npm run bench -- --costs`): the routes of cost-resources.ts, built the way
 * BENCH_COSTS_APP says, so that app-wide features (CORS, request logging, a global exception handler, an
 * unused extension) each get a process of their own while the bare route stays the same.
 */
import 'reflect-metadata';
import diagnostics from 'node:diagnostics_channel';
import * as path from 'node:path';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import {
  Handles,
  RestBuilder,
  createLogger,
  type ExceptionHandler,
  type HttpServerRequest,
  type HttpServerResponse,
} from 'rest.uws';
import { listenAndAnnounce, now } from '../servers/support/server-environment';
import { COST_APPS, type CostApp } from './cost-rows';
import { Counted, createCostResource } from './cost-resources';
import { COST_VALUES } from './cost-values';

/** An app's own error, answered by its global handler: the handler is registered and bound, never used here. */
class OutOfStockError extends Error {}

@Handles(OutOfStockError)
class OutOfStockHandler implements ExceptionHandler<OutOfStockError> {
  write(error: OutOfStockError, _request: HttpServerRequest, response: HttpServerResponse): void {
    response
      .setStatusCode(409)
      .putHeader('content-type', 'application/json')
      .end(JSON.stringify({ error: error.message }));
  }
}

/** Metadata no route carries: the plugin below is asked about every route and takes none. */
const NEVER_MARKED = Symbol('costs:never-marked');
let markedCalls = 0;

/**
 * A plugin registered with `builder.use` and used by no route: like the guide's deprecation plugin, it decides per
 * route at registration whether to add hooks, and adds none here. A checkout from before the plugin API (a
 * `--baseline` of older code) gets the nearest equivalent it had: a route extension in the compiler's registry.
 */
function useUnusedPlugin(builder: RestBuilder): RestBuilder {
  const withUse = builder as RestBuilder & {
    use?: (plugin: {
      name: string;
      setup(app: {
        route(
          factory: (route: { definition: { extensions: Map<unknown, unknown> } }) => { onRequest(): void } | undefined,
        ): void;
      }): void;
    }) => RestBuilder;
  };
  if (typeof withUse.use === 'function') {
    return withUse.use({
      name: 'bench-unused',
      setup(app) {
        // Hooks for marked routes only (a counter), none for the rest: every route here is unmarked.
        app.route((route) =>
          route.definition.extensions.has(NEVER_MARKED) ? { onRequest: () => void markedCalls++ } : undefined,
        );
      },
    });
  }
  const entry = require.resolve('rest.uws');
  for (const folder of ['pipeline', 'compile']) {
    try {
      const registry = require(path.join(path.dirname(entry), folder, 'extensions.js')) as {
        registerRouteExtension(extension: { name: string; order: number; compile(): undefined }): void;
      };
      registry.registerRouteExtension({ name: 'bench-unused', order: 500, compile: () => undefined });
      return builder;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    }
  }
  throw new Error('costs-server: this rest.uws has neither builder.use nor the route extension registry');
}

/**
 * The tracing channels with no subscriber, after one came and left: the channels have been active, and the check
 * each request makes must be as cheap as before anyone subscribed.
 */
function withChannelsLeft(builder: RestBuilder): RestBuilder {
  const listeners = { start() {}, end() {}, asyncStart() {}, asyncEnd() {}, error() {} };
  for (const name of ['rest.uws.request', 'rest.uws.request.handler', 'rest.uws.websocket.upgrade']) {
    const channel = diagnostics.tracingChannel(name);
    channel.subscribe(listeners);
    channel.unsubscribe(listeners);
  }
  return builder;
}

/**
 * The OpenTelemetry plugin on, with the SDK as an app would have it: spans made, ended and handed in batches to an
 * exporter (which drops them: exporting is the collector's cost, not the server's request path), the metrics recorded, the
 * AsyncLocalStorage context manager, and the Prometheus copy at /metrics (the row's check reads it).
 */
function withOpenTelemetry(builder: RestBuilder): RestBuilder {
  const openTelemetry = (
    require('rest.uws') as { openTelemetry?: (options: object) => Parameters<RestBuilder['use']>[0] }
  ).openTelemetry;
  if (openTelemetry === undefined) throw new Error('costs-server: this rest.uws has no openTelemetry plugin');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const dropped: SpanExporter = {
    export: (_spans, done) => done({ code: 0 }), // ExportResultCode.SUCCESS
    shutdown: async () => {},
  };
  // The batch processor, as the reference apps and the SDK's docs have it in production (the simple one exports
  // each span as it ends, which only tests want).
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropped)] });
  const meterProvider = new MeterProvider({ readers: [new HeldMetrics()] });
  return builder.use(
    openTelemetry({ tracerProvider, meterProvider, metricsPath: '/metrics', metricsAccess: 'public' }),
  );
}

/** A metric reader nobody collects from: the instruments aggregate in memory, as between two exports. */
class HeldMetrics extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

function buildApp(app: CostApp): RestBuilder {
  const builder = new RestBuilder().register(createCostResource(new Counted()));
  switch (app) {
    case 'routes':
      return builder;
    case 'cors':
      return builder.enableCors({ origin: COST_VALUES.origin.replace(/\./g, '\\.') });
    case 'logging':
      return builder.logger(createLogger({ level: 'info' })).logRequests();
    case 'logging-level-off':
      return builder.logger(createLogger({ level: 'info' })).logRequests({ level: 'debug' });
    case 'global-handler':
      return builder.errorHandler(OutOfStockHandler);
    case 'plugin':
      return useUnusedPlugin(builder);
    case 'tracing-off':
      return withChannelsLeft(builder);
    case 'opentelemetry':
      return withOpenTelemetry(builder);
    case 'raw':
      break;
  }
  throw new Error(
    `costs-server: BENCH_COSTS_APP must be one of ${COST_APPS.filter((name) => name !== 'raw').join(', ')}, got ${app}`,
  );
}

function main(): void {
  const startedAt = now();
  const app = buildApp((process.env.BENCH_COSTS_APP ?? 'routes') as CostApp).build();
  const bootMs = now() - startedAt;
  listenAndAnnounce(app, 'costs-server', bootMs);
}

main();
