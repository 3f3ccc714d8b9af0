/**
 * TechEmpower's two tables in a database of their own: World (10,000 rows, a random number 1..10,000 each) and
 * Fortune (the twelve messages), and pg_stat_statements, which the verifier reads to count the queries a request ran.
 */
import pg from 'pg';
import { FORTUNES, WORLD_ROWS } from '../contract';

export async function createSchema(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await client.query('CREATE TABLE world (id integer PRIMARY KEY, randomnumber integer NOT NULL DEFAULT 0)');
    await client.query(
      `INSERT INTO world (id, randomnumber) SELECT i, floor(random() * ${WORLD_ROWS})::int + 1 FROM generate_series(1, ${WORLD_ROWS}) AS i`,
    );
    await client.query('CREATE TABLE fortune (id integer PRIMARY KEY, message varchar(2048) NOT NULL)');
    await client.query('INSERT INTO fortune (id, message) SELECT * FROM unnest($1::int[], $2::text[])', [
      FORTUNES.map((fortune) => fortune.id),
      FORTUNES.map((fortune) => fortune.message),
    ]);
    await client.query('ANALYZE world; ANALYZE fortune');
  } finally {
    await client.end();
  }
}
