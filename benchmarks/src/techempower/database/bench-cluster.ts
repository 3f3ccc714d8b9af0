/**
 * The PostgreSQL every TechEmpower run and verifier test uses: a throwaway cluster (reference-apps/support) with
 * pg_stat_statements loaded, pinned to the load generator's core when the run pins (the server under test keeps its
 * core to itself), and one database per set of servers, created with the two tables.
 */
import { startThrowawayPostgres, type ThrowawayPostgres } from 'app-support';
import { createSchema } from './schema';

export interface BenchCluster {
  cluster: ThrowawayPostgres;
  /** A new database with World and Fortune; returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startBenchCluster(options: { cpu?: number } = {}): Promise<BenchCluster> {
  const cluster = await startThrowawayPostgres({
    settings: { shared_preload_libraries: 'pg_stat_statements', max_connections: '1000' },
    cpu: options.cpu,
  });
  return {
    cluster,
    async createDatabase(name) {
      const url = await cluster.createDatabase(name);
      await createSchema(url);
      return url;
    },
    stop: () => cluster.stop(),
  };
}
