/**
 * OpenTelemetry for the voice stream API, on when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (off otherwise: nothing is
 * loaded). The setup is the reference apps' (app-support/telemetry): spans over OTLP/HTTP, `OTEL_SERVICE_NAME`
 * (default voice-stream) and the standard `OTEL_*` variables; PostgreSQL queries (the shared session registry) get
 * spans of their own. Imported first by main.ts: the pg instrumentation must see `pg` before anything loads it.
 */
import { startTelemetry, stopTelemetry } from 'app-support/telemetry';

export { stopTelemetry };

startTelemetry({ serviceName: 'voice-stream', pg: true });
