/** OpenTelemetry traces and metrics for every request, and the metrics as Prometheus text. */
export { openTelemetry, type OpenTelemetryOptions } from './opentelemetry-plugin';
