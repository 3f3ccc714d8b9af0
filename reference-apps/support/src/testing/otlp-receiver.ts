// A small OTLP/HTTP (JSON) receiver for tests that run an app with OTEL_EXPORTER_OTLP_ENDPOINT pointing at it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An attribute as OTLP/HTTP JSON carries it. */
interface OtlpKeyValue {
  key: string;
  value: { stringValue?: string; intValue?: string | number; doubleValue?: number };
}

/** A span as OTLP/HTTP JSON carries it (ids in hex). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpKeyValue[];
}

/**
 * One data point of a metric, with its metric's name and type (`histogram`, `sum`, `gauge`) and its resource's
 * attributes: what a test asks of an export, flattened.
 */
export interface OtlpMetricPoint {
  metric: string;
  type: string;
  resource: OtlpKeyValue[];
  attributes?: OtlpKeyValue[];
  /** Histograms: how many values were recorded. */
  count?: string | number;
  /** Sums and gauges. */
  asInt?: string | number;
}

/** The points of one POST /v1/metrics body. */
function metricPoints(body: any): OtlpMetricPoint[] {
  const points: OtlpMetricPoint[] = [];
  for (const rm of body.resourceMetrics ?? []) {
    const resource = rm.resource?.attributes ?? [];
    for (const sm of rm.scopeMetrics ?? [])
      for (const metric of sm.metrics ?? [])
        for (const type of ['histogram', 'exponentialHistogram', 'sum', 'gauge'])
          for (const point of metric[type]?.dataPoints ?? [])
            points.push({ ...point, metric: metric.name, type, resource });
  }
  return points;
}

/**
 * A small OTLP/HTTP receiver: takes POST /v1/traces and /v1/metrics (JSON), keeps the spans and the metric points,
 * tells the waiters.
 */
export async function otlpReceiver() {
  const spans: Array<OtlpSpan & { service: string }> = [];
  const metrics: OtlpMetricPoint[] = [];
  const waiters: Array<() => void> = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const rs of body.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value
            ?.stringValue;
          for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) spans.push({ ...span, service });
        }
      } else if (req.method === 'POST' && req.url === '/v1/metrics')
        metrics.push(...metricPoints(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      for (const wake of waiters.splice(0)) wake();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    metrics,
    paths,
    /** Resolves once `found` returns something, checking after every export. */
    async until<T>(found: () => T | undefined): Promise<T> {
      for (;;) {
        const value = found();
        if (value !== undefined) return value;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An attribute of a span or a metric point (`resource` for a point's resource attributes). */
export const otlpAttribute = (of: { attributes?: OtlpKeyValue[] }, key: string) => {
  const value = of.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : value?.doubleValue);
};

/** An attribute of a metric point's resource (`service.name`, what `OTEL_RESOURCE_ATTRIBUTES` set). */
export const otlpResourceAttribute = (point: OtlpMetricPoint, key: string) =>
  otlpAttribute({ attributes: point.resource }, key);
