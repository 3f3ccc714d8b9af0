/**
 * OpenTelemetry for the booking API, on when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (off otherwise: nothing is loaded).
 * Spans go over OTLP/HTTP (JSON) to `$OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces`, batched (`OTEL_BSP_SCHEDULE_DELAY`,
 * default 5000 ms), under `OTEL_SERVICE_NAME` (default booking-api); the standard `OTEL_*` variables of the
 * exporter apply. PostgreSQL queries get spans of their own (the pg instrumentation), children of the request's
 * span. Imported first by main.ts: the instrumentation must see `pg` before anything loads it.
 */
import type { TracerProvider } from '@opentelemetry/api';

interface Telemetry {
  readonly provider: TracerProvider & { shutdown(): Promise<void> };
}

let telemetry: Telemetry | undefined;

/** Whether the environment asks for telemetry. */
export function telemetryEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '') !== '' && env.OTEL_SDK_DISABLED !== 'true';
}

/** Registers the tracer provider, the W3C propagator, the context manager and the pg instrumentation; once. */
export function startTelemetry(): void {
  if (telemetry !== undefined || !telemetryEnabled()) return;
  const { NodeTracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { registerInstrumentations } =
    require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || 'booking-api' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  registerInstrumentations({ tracerProvider: provider, instrumentations: [new PgInstrumentation()] });
  telemetry = { provider };
}

/** Sends the spans still batched, then stops (on shutdown). */
export async function stopTelemetry(): Promise<void> {
  const current = telemetry;
  telemetry = undefined;
  await current?.provider.shutdown();
}

startTelemetry();
