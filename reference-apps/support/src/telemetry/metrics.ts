/**
 * The apps' metrics (the `openTelemetry()` plugin's `http.server.request.duration` and `http.server.active_requests`)
 * over OTLP/HTTP (JSON) to `$OTEL_EXPORTER_OTLP_ENDPOINT/v1/metrics`, every `OTEL_METRIC_EXPORT_INTERVAL` ms
 * (default 60000), under the apps' resource; off with `OTEL_METRICS_EXPORTER=none`. The SDK's reader does not read
 * those variables itself (the Node SDK does, which the apps do not use), so they are read here.
 */
import type { Resource } from '@opentelemetry/resources';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';

/** Whether the environment leaves metrics on (telemetry being on): `OTEL_METRICS_EXPORTER` unset, `otlp`, not `none`. */
export function metricsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const exporters = (env.OTEL_METRICS_EXPORTER ?? '').split(',').map((name) => name.trim());
  return !exporters.includes('none');
}

/** A positive number of milliseconds from the environment, or undefined when unset or not one. */
function millis(value: string | undefined): number | undefined {
  const ms = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/**
 * Registers a meter provider exporting over OTLP/HTTP as the global one (the plugin takes the global provider when
 * the app is built, so this runs before). Its shutdown exports what was recorded since the last export.
 */
export function startMetrics(resource: Resource, env: NodeJS.ProcessEnv = process.env): MeterProvider {
  const { MeterProvider, PeriodicExportingMetricReader } =
    require('@opentelemetry/sdk-metrics') as typeof import('@opentelemetry/sdk-metrics');
  const { OTLPMetricExporter } =
    require('@opentelemetry/exporter-metrics-otlp-http') as typeof import('@opentelemetry/exporter-metrics-otlp-http');
  const interval = millis(env.OTEL_METRIC_EXPORT_INTERVAL) ?? 60_000;
  const timeout = millis(env.OTEL_METRIC_EXPORT_TIMEOUT);
  const reader = new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter(),
    exportIntervalMillis: interval,
    // The reader refuses a timeout longer than the interval it was given.
    ...(timeout === undefined ? {} : { exportTimeoutMillis: Math.min(timeout, interval) }),
  });
  const provider = new MeterProvider({ resource, readers: [reader] });
  (require('@opentelemetry/api') as typeof import('@opentelemetry/api')).metrics.setGlobalMeterProvider(provider);
  return provider;
}
