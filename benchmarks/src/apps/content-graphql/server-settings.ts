/** What the runner tells a content-graphql benchmark server through its environment. */
export const ENV_DATABASE_URL = 'BENCH_CG_DATABASE_URL';
export const ENV_ASSETS_ROOT = 'BENCH_CG_ASSETS_ROOT';
/** Both servers build URLs on this address, so that their answers are byte for byte the same. */
export const BENCH_PUBLIC_URL = 'http://content.bench';
/** "true" or "false": whether the server keeps a result cache. */
export const ENV_CACHING = 'BENCH_CG_CACHING';

export interface BenchServerSettings {
  databaseUrl: string;
  assetsRoot: string;
  caching: boolean;
}

export function readBenchServerSettings(env: NodeJS.ProcessEnv = process.env): BenchServerSettings {
  const databaseUrl = env[ENV_DATABASE_URL];
  const assetsRoot = env[ENV_ASSETS_ROOT];
  const caching = env[ENV_CACHING];
  if (!databaseUrl || !assetsRoot || (caching !== 'true' && caching !== 'false')) {
    throw new Error(
      `${ENV_DATABASE_URL}, ${ENV_ASSETS_ROOT} and ${ENV_CACHING}=true|false must be set: start this server through the content-graphql benchmark runner`,
    );
  }
  return { databaseUrl, assetsRoot, caching: caching === 'true' };
}

export function benchServerEnvironment(settings: BenchServerSettings): Record<string, string> {
  return {
    [ENV_DATABASE_URL]: settings.databaseUrl,
    [ENV_ASSETS_ROOT]: settings.assetsRoot,
    [ENV_CACHING]: String(settings.caching),
  };
}
