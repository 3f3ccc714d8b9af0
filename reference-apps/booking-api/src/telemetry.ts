/**
 * OpenTelemetry for the booking API, on when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (off otherwise: nothing is loaded).
 * The setup is the reference apps' (app-support/telemetry): spans over OTLP/HTTP, `OTEL_SERVICE_NAME` (default
 * booking-api) and the standard `OTEL_*` variables. PostgreSQL queries get spans of their own (the pg
 * instrumentation), children of the request's span. Imported first by main.ts: the instrumentation must see `pg`
 * before anything loads it.
 */
import { startTelemetry, stopTelemetry } from 'app-support/telemetry';

export { stopTelemetry };

startTelemetry({ serviceName: 'booking-api', pg: true });
