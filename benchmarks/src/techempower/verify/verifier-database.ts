/**
 * The verifier's own connection to an implementation's database: the rows as stored (to check answers against
 * them, and updates read back), and pg_stat_statements' counts (each row read by a query of its own, the updates
 * written, no cache in between).
 */
import pg from 'pg';

export interface StatementCounts {
  /** SELECTs on world, and the rows they returned. */
  worldSelects: number;
  worldRows: number;
  /** UPDATEs of world, and the rows they changed. */
  worldUpdates: number;
  updatedRows: number;
  /** SELECTs on fortune, and the rows they returned. */
  fortuneSelects: number;
  fortuneRows: number;
}

const COUNTS = `
  SELECT
    coalesce(sum(calls) FILTER (WHERE query ~* '^\\s*select\\M' AND query ~* '\\mworld\\M'), 0) AS "worldSelects",
    coalesce(sum(rows) FILTER (WHERE query ~* '^\\s*select\\M' AND query ~* '\\mworld\\M'), 0) AS "worldRows",
    coalesce(sum(calls) FILTER (WHERE query ~* '^\\s*update\\M' AND query ~* '\\mworld\\M'), 0) AS "worldUpdates",
    coalesce(sum(rows) FILTER (WHERE query ~* '^\\s*update\\M' AND query ~* '\\mworld\\M'), 0) AS "updatedRows",
    coalesce(sum(calls) FILTER (WHERE query ~* '^\\s*select\\M' AND query ~* '\\mfortune\\M'), 0) AS "fortuneSelects",
    coalesce(sum(rows) FILTER (WHERE query ~* '^\\s*select\\M' AND query ~* '\\mfortune\\M'), 0) AS "fortuneRows"
  FROM pg_stat_statements
  WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND query !~* 'pg_stat_statements'`;

export class VerifierDatabase {
  private readonly client: pg.Client;
  private connected: Promise<void> | undefined;

  constructor(readonly url: string) {
    this.client = new pg.Client({ connectionString: url });
    this.client.on('error', () => undefined);
  }

  private async ready(): Promise<pg.Client> {
    this.connected ??= this.client.connect().then(() => undefined);
    await this.connected;
    return this.client;
  }

  /** Every world row: id to randomNumber. */
  async worlds(): Promise<Map<number, number>> {
    const client = await this.ready();
    const result = await client.query<{ id: number; r: number }>('SELECT id, randomnumber AS r FROM world');
    return new Map(result.rows.map((row) => [row.id, row.r]));
  }

  /** Forgets the counts of this database's statements (pg_stat_statements_reset is per user, database, query). */
  async resetCounts(): Promise<void> {
    const client = await this.ready();
    await client.query(
      'SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)',
    );
  }

  async counts(): Promise<StatementCounts> {
    const client = await this.ready();
    const row = (await client.query<Record<keyof StatementCounts, string>>(COUNTS)).rows[0]!;
    return Object.fromEntries(
      Object.entries(row).map(([name, value]) => [name, Number(value)]),
    ) as unknown as StatementCounts;
  }

  async close(): Promise<void> {
    if (this.connected) await this.client.end().catch(() => undefined);
  }
}
