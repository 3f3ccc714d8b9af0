#!/usr/bin/env node
/**
 * Runs a command with TEST_POSTGRES_URL pointing at a throwaway PostgreSQL cluster:
 *   node dist/src/postgres/with-postgres-cli.js -- <command...>
 * Starts one cluster, runs the command, stops the cluster, exits with the command's code.
 */
import { spawn } from 'node:child_process';
import { startThrowawayPostgres } from './throwaway-postgres';

async function main(argv: string[]): Promise<number> {
  const separator = argv.indexOf('--');
  const command = separator >= 0 ? argv.slice(separator + 1) : argv;
  if (command.length === 0) {
    console.error('usage: with-postgres-cli -- <command> [args...]');
    return 2;
  }
  const cluster = await startThrowawayPostgres();
  console.error(`with-postgres: PostgreSQL on 127.0.0.1:${cluster.port}, TEST_POSTGRES_URL=${cluster.url}`);
  try {
    const child = spawn(command[0], command.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, TEST_POSTGRES_URL: cluster.url },
    });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    return await new Promise<number>((resolve) => {
      child.on('error', (error) => {
        console.error(`with-postgres: cannot run ${command[0]}: ${error.message}`);
        resolve(127);
      });
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + (signalNumbers[signal] ?? 1) : 1)));
    });
  } finally {
    await cluster.stop();
  }
}

const signalNumbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`with-postgres: ${(error as Error).message}`);
    process.exit(1);
  },
);
