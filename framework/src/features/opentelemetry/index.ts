/** OpenTelemetry traces and metrics for every request, and the metrics as Prometheus text. */
export {
  openTelemetry,
  type OpenTelemetryOptions,
  type TracerProviderLike,
  type MeterProviderLike,
  type TextMapPropagatorLike,
} from './opentelemetry-plugin';
export type { MetricsAccess } from './metrics-resource';
