/**
 * How the booking API is deployed for a measurement: instances (separate processes of main.js, as behind a load
 * balancer) times rest.uws serve() worker threads per instance. Written `2` (two instances) or `1x2` (one instance,
 * two workers).
 */
export interface Layout {
  id: string;
  instances: number;
  workers: number;
}

export function parseLayout(text: string): Layout {
  const match = /^(\d+)(?:x(\d+))?$/.exec(text.trim());
  const instances = Number(match?.[1]);
  const workers = Number(match?.[2] ?? 1);
  if (!match || instances < 1 || instances > 8 || workers < 1 || workers > 8) {
    throw new Error(`layout "${text}": expected <instances> or <instances>x<workers>, e.g. 1, 2, 1x2 (1 to 8 each)`);
  }
  return { id: text.trim(), instances, workers };
}

export function describeLayout(layout: Layout): string {
  const instances = `${layout.instances} instance${layout.instances > 1 ? 's' : ''}`;
  return layout.workers > 1 ? `${instances} × ${layout.workers} serve() workers` : instances;
}
