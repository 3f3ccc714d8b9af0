import { spawnSync } from 'node:child_process';
import path from 'node:path';
import test from 'ava';

const cli = path.join(__dirname, '..', 'src', 'postgres', 'with-postgres-cli.js');

// The child connects to the cluster it was given, then exits with a code of our choosing.
const childScript = `
const pg = require(${JSON.stringify(require.resolve('pg'))});
const client = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
client.connect()
  .then(() => client.query('select 40 + 2 as answer'))
  .then((r) => { console.log('answer=' + r.rows[0].answer); return client.end(); })
  .then(() => process.exit(7));
`;

test('runs the command with TEST_POSTGRES_URL set and exits with its code', (t) => {
  const result = spawnSync(process.execPath, [cli, '--', process.execPath, '-e', childScript], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.is(result.status, 7, result.stderr);
  t.regex(result.stdout, /answer=42/);
  t.regex(result.stderr, /TEST_POSTGRES_URL=postgres:\/\/app@127\.0\.0\.1:\d+\/postgres/);
});

test('without a command it prints usage and exits 2', (t) => {
  const result = spawnSync(process.execPath, [cli, '--'], { encoding: 'utf8' });
  t.is(result.status, 2);
  t.regex(result.stderr, /usage: with-postgres-cli -- <command>/);
});

test('a command that cannot be started exits 127', (t) => {
  const result = spawnSync(process.execPath, [cli, '--', '/nonexistent/command'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.is(result.status, 127);
  t.regex(result.stderr, /cannot run \/nonexistent\/command/);
});
