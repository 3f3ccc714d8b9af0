/**
 * OpenTelemetry for the reference apps, on when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (off otherwise: nothing of the SDK
 * is loaded, and `appTracer` answers undefined, so the apps' own spans cost one check). Spans go over OTLP/HTTP (JSON)
 * to `$OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces`, batched (`OTEL_BSP_SCHEDULE_DELAY`, default 5000 ms), and metrics to
 * `/v1/metrics` (./metrics.ts: `OTEL_METRIC_EXPORT_INTERVAL`, `OTEL_METRICS_EXPORTER=none`), under `OTEL_SERVICE_NAME`
 * (default: the app's name) and `OTEL_RESOURCE_ATTRIBUTES`; the standard `OTEL_*` variables of the exporters and the
 * SDK apply (`OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`...). With `pg`, PostgreSQL queries get spans of their own (the pg
 * instrumentation). Imported from `app-support/telemetry`, an entry that loads nothing else: an app starts telemetry
 * before anything loads `pg`, or the instrumentation misses it.
 */
import type { Attributes, Context, Span, Tracer, TracerProvider } from '@opentelemetry/api';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { metricsEnabled, startMetrics } from './metrics';
import { telemetryResource } from './resource';

/** How an app's telemetry starts. */
export interface TelemetryOptions {
  /** The service name when `OTEL_SERVICE_NAME` is not set. */
  readonly serviceName: string;
  /** Give PostgreSQL queries (`pg`) spans of their own. */
  readonly pg?: boolean;
  /**
   * Tests: the spans go here, one by one as they end, instead of OTLP (and telemetry starts whatever the environment;
   * metrics go over OTLP only when the environment asks for telemetry).
   */
  readonly exporter?: SpanExporter;
}

interface Telemetry {
  readonly provider: TracerProvider & { shutdown(): Promise<void>; forceFlush(): Promise<void> };
  /** Undefined when metrics are off. */
  readonly meterProvider: MeterProvider | undefined;
}

let telemetry: Telemetry | undefined;

/** Whether the environment asks for telemetry. */
export function telemetryEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '') !== '' && env.OTEL_SDK_DISABLED !== 'true';
}

/**
 * Registers the tracer provider, the W3C propagator, the AsyncLocalStorage context manager, the meter provider (unless
 * `OTEL_METRICS_EXPORTER=none`) and (with `pg`) the pg instrumentation, when the environment asks for telemetry (or an exporter is given); once per process. True when
 * telemetry is on.
 */
export function startTelemetry(options: TelemetryOptions): boolean {
  if (telemetry !== undefined) return true;
  if (options.exporter === undefined && !telemetryEnabled()) return false;
  const { NodeTracerProvider, BatchSpanProcessor, SimpleSpanProcessor } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  let processor: InstanceType<typeof BatchSpanProcessor> | InstanceType<typeof SimpleSpanProcessor>;
  if (options.exporter !== undefined) processor = new SimpleSpanProcessor(options.exporter);
  else {
    const { OTLPTraceExporter } =
      require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    processor = new BatchSpanProcessor(new OTLPTraceExporter());
  }
  const resource = telemetryResource(options.serviceName);
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  const meterProvider = telemetryEnabled() && metricsEnabled() ? startMetrics(resource) : undefined;
  if (options.pg === true) {
    const { registerInstrumentations } =
      require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
    const { PgInstrumentation } =
      require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
    registerInstrumentations({ tracerProvider: provider, instrumentations: [new PgInstrumentation()] });
  }
  telemetry = { provider, meterProvider };
  return true;
}

/** Whether telemetry was started. */
export function telemetryStarted(): boolean {
  return telemetry !== undefined;
}

/** The app's tracer when telemetry is on; undefined when it is off (the app then makes no span at all). */
export function appTracer(name: string): Tracer | undefined {
  return telemetry?.provider.getTracer(name);
}

/** Sends the spans still batched and the metrics recorded since the last export, then stops (on shutdown). */
export async function stopTelemetry(): Promise<void> {
  const current = telemetry;
  telemetry = undefined;
  await Promise.all([current?.provider.shutdown(), current?.meterProvider?.shutdown()]);
}

/**
 * Runs `work` in a span of `tracer` (a child of the active span, or of `parent`), active while `work` runs: the span
 * ends when `work` returns or its promise settles; a throw or rejection is recorded on it (status ERROR) and passed on.
 */
export function inSpan<T>(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  work: (span: Span) => T,
  parent?: Context,
): T {
  const api = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  const context = parent ?? api.context.active();
  const span = tracer.startSpan(name, { attributes }, context);
  const failed = (error: unknown): void => {
    if (error instanceof Error) span.recordException(error);
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  };
  let result: T;
  try {
    result = api.context.with(api.trace.setSpan(context, span), () => work(span));
  } catch (error) {
    failed(error);
    span.end();
    throw error;
  }
  if (result !== null && typeof (result as { then?: unknown })?.then === 'function') {
    return (result as unknown as Promise<unknown>).then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        failed(error);
        span.end();
        throw error;
      },
    ) as T;
  }
  span.end();
  return result;
}
