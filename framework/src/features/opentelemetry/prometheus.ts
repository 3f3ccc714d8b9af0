/**
 * The plugin's own copy of its two metrics, kept for the Prometheus text endpoint (`/metrics`) so an app without a
 * collector can be scraped: the request duration histogram and the active requests gauge, in the text exposition
 * format 0.0.4 (https://prometheus.io/docs/instrumenting/exposition_formats/).
 */

/** The buckets of `http.server.request.duration`, in seconds (the HTTP semantic conventions' advice). */
export const DURATION_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/** The content type of the text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Prometheus label names: the attribute names with dots as underscores. */
export type Labels = Readonly<Record<string, string | number>>;

interface Series {
  readonly labels: string;
  readonly counts: number[];
  sum: number;
  count: number;
}

/** A label value escaped as the text format wants it: backslash, double quote and line feed. */
function escapeValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function labelText(labels: Labels): string {
  const parts: string[] = [];
  for (const key of Object.keys(labels))
    parts.push(`${key.replace(/[^a-zA-Z0-9_]/g, '_')}="${escapeValue(String(labels[key]))}"`);
  return parts.join(',');
}

/** A number as the text format writes it. */
function num(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  return String(value);
}

export class PrometheusMetrics {
  private readonly series = new Map<string, Series>();
  private active = 0;

  /** One request's duration, in seconds, under its labels. */
  observe(labels: Labels, seconds: number): void {
    const key = labelText(labels);
    let series = this.series.get(key);
    if (series === undefined) {
      series = { labels: key, counts: new Array(DURATION_BUCKETS.length).fill(0), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    for (let i = 0; i < DURATION_BUCKETS.length; i++) if (seconds <= DURATION_BUCKETS[i]!) series.counts[i]!++;
    series.sum += seconds;
    series.count++;
  }

  /** A request began (1) or ended (-1). */
  activeRequests(delta: number): void {
    this.active += delta;
  }

  /** The exposition text. */
  text(): string {
    const name = 'http_server_request_duration_seconds';
    const lines = [`# HELP ${name} Duration of HTTP server requests.`, `# TYPE ${name} histogram`];
    for (const s of this.series.values()) {
      const sep = s.labels === '' ? '' : ',';
      for (let i = 0; i < DURATION_BUCKETS.length; i++)
        lines.push(`${name}_bucket{${s.labels}${sep}le="${num(DURATION_BUCKETS[i]!)}"} ${s.counts[i]}`);
      lines.push(`${name}_bucket{${s.labels}${sep}le="+Inf"} ${s.count}`);
      lines.push(`${name}_sum{${s.labels}} ${num(s.sum)}`);
      lines.push(`${name}_count{${s.labels}} ${s.count}`);
    }
    lines.push('# HELP http_server_active_requests Number of active HTTP server requests.');
    lines.push('# TYPE http_server_active_requests gauge');
    lines.push(`http_server_active_requests ${this.active}`);
    return `${lines.join('\n')}\n`;
  }
}
