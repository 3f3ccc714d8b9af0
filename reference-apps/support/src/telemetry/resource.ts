/**
 * The resource of the apps' spans and metrics: `service.name` the app's name, then what the environment says
 * (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, read by the SDK's env detector), which wins.
 */
import type { Resource } from '@opentelemetry/resources';

export function telemetryResource(serviceName: string): Resource {
  const { detectResources, envDetector, resourceFromAttributes } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  // merge(): the argument's attributes override the receiver's.
  return resourceFromAttributes({ 'service.name': serviceName }).merge(detectResources({ detectors: [envDetector] }));
}
