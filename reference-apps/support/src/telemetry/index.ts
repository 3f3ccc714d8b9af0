// OpenTelemetry for the reference apps (import from 'app-support/telemetry'): loads nothing but itself, so an app
// starts it before `pg` is loaded.
export {
  appTracer,
  inSpan,
  startTelemetry,
  stopTelemetry,
  telemetryEnabled,
  telemetryStarted,
  type TelemetryOptions,
} from './telemetry';
