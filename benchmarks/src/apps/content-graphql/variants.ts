/** The four servers measured: the app on rest.uws and graphql-http's Node handler, each with and without a result cache. */
import * as path from 'node:path';
import type { ServerDefinition } from '../../servers/registry';

export interface Variant {
  id: string;
  label: string;
  server: ServerDefinition;
  caching: boolean;
}

// Server files are given relative to dist/src/servers/, where the harness's registry resolves them.
const REST_UWS: ServerDefinition = {
  id: 'content-graphql-rest-uws',
  label: 'rest.uws (content-graphql)',
  file: '../apps/content-graphql/rest-uws-server.js',
};
const GRAPHQL_HTTP: ServerDefinition = {
  id: 'content-graphql-graphql-http',
  label: 'graphql-http on node:http',
  file: '../apps/content-graphql/graphql-http-server.js',
};

export const VARIANTS: Variant[] = [
  { id: 'rest-uws-uncached', label: 'rest.uws, cache off', server: REST_UWS, caching: false },
  { id: 'graphql-http-uncached', label: 'graphql-http, no cache', server: GRAPHQL_HTTP, caching: false },
  { id: 'rest-uws-cached', label: 'rest.uws, cache on', server: REST_UWS, caching: true },
  { id: 'graphql-http-cached', label: 'graphql-http, same cache (onSubscribe)', server: GRAPHQL_HTTP, caching: true },
];

export interface Ratio {
  name: string;
  numerator: string;
  denominator: string;
  target: number;
  /** What the target is about: requests per second, or (denominator's) CPU per request over the numerator's. */
  on: 'rps' | 'cpu';
  /** No target: the ratio is shown as a check (e.g. that a path did not get slower). */
  informational?: boolean;
}

/** The ratios the issues ask for, as numerator / denominator variant ids, with their targets. */
export const RATIOS: Ratio[] = [
  { name: 'uncached', numerator: 'rest-uws-uncached', denominator: 'graphql-http-uncached', target: 1.5, on: 'rps' },
  {
    name: 'cached (both with the cache)',
    numerator: 'rest-uws-cached',
    denominator: 'graphql-http-cached',
    target: 5,
    on: 'rps',
  },
  {
    name: 'cached vs graphql-http as it ships (no cache)',
    numerator: 'rest-uws-cached',
    denominator: 'graphql-http-uncached',
    target: 5,
    on: 'rps',
  },
];

/** Issue 21's targets against a build of older code (`--baseline`): uncached at a third of its CPU per request. */
export const BASELINE_RATIOS: Ratio[] = [
  {
    name: 'uncached vs the baseline build',
    numerator: 'rest-uws-uncached',
    denominator: 'baseline-uncached',
    target: 3,
    on: 'cpu',
  },
  {
    name: 'cached vs the baseline build',
    numerator: 'rest-uws-cached',
    denominator: 'baseline-cached',
    target: 1,
    on: 'cpu',
    informational: true,
  },
];

/** Issue 21's absolute target for the cached path: server CPU per request below this. */
export const CACHED_CPU_TARGET_US = 25;

/**
 * The app as built in another checkout (`git worktree add DIR <commit>`, node_modules copied, `npx tsc -b`), cache off
 * and on: measured in the same rounds as today's code, so that a before/after comparison shares the machine's load.
 */
export function baselineVariants(checkout: string, serversDir: string): Variant[] {
  const file = path.relative(
    serversDir,
    path.join(path.resolve(checkout), 'benchmarks', 'dist', 'src', 'apps', 'content-graphql', 'rest-uws-server.js'),
  );
  const server: ServerDefinition = {
    id: 'content-graphql-baseline',
    label: `rest.uws (content-graphql at ${checkout})`,
    file,
  };
  return [
    { id: 'baseline-uncached', label: 'baseline build, cache off', server, caching: false },
    { id: 'baseline-cached', label: 'baseline build, cache on', server, caching: true },
  ];
}
