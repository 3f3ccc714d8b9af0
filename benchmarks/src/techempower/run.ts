/**
 * `npm run bench:techempower`: starts a throwaway PostgreSQL with TechEmpower's World and Fortune tables, runs every
 * implementation × driver × pool asked for through the harness's interleaved rounds (each verified against the test
 * rules before it is measured: a wrong answer is reported and not measured), prints the tables, the tail and the
 * acceptance lines, and writes the run's JSON and the page's TechEmpower block for this machine.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderMarkdownTable, renderTextTable } from '../report/text-table';
import { writeBlockIntoDoc } from '../report/doc-blocks';
import { estimateSeconds, runBenchmark } from '../runner/run-benchmark';
import type { RunSettings } from '../runner/results';
import { unavailableReason } from '../servers/registry';
import { TECHEMPOWER_DATA_DIR } from '../paths';
import { ensureSystemTools } from '../setup/system-tools';
import { startBenchCluster } from './database/bench-cluster';
import { TECHEMPOWER_USAGE, parseTechEmpowerOptions, type TechEmpowerOptions } from './options';
import { IMPLEMENTATIONS, findImplementation, variantServer } from './registry';
import { TECHEMPOWER_COLUMNS, acceptanceLines, summarizeTechEmpower } from './report';
import { createTestTypes } from './test-types';
import { VerifierDatabase } from './verify/verifier-database';
import type { BenchmarkRun } from '../runner/results';

const log = (line: string) => process.stderr.write(`${line}\n`);

/** "AMD EPYC 7B13" → "amd-epyc-7b13": a file name per CPU model. */
function machineSlug(cpuModel: string): string {
  return (
    cpuModel
      .toLowerCase()
      .replace(/\(r\)|\(tm\)/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'machine'
  );
}

function renderDocSection(run: BenchmarkRun, options: TechEmpowerOptions): string {
  const rows = summarizeTechEmpower(run);
  const s = run.settings;
  const lines = [
    `### Run of ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC on ${run.machine.cpuModel}`,
    '',
    ...(options.note ? [options.note, ''] : []),
    `${run.machine.cpuCount} CPUs, Node ${run.machine.node}, ${run.machine.wrk}; load average ${run.machine.loadAverageAtStart.toFixed(1)} at the start. ` +
      `${s.rounds} rounds × ${s.durationSec} s (${s.warmupSec} s warm-up, slices of ${s.sliceSec ?? 0} s), ${s.connections} connections, plaintext ${s.pipeline} per write.`,
    '',
    renderMarkdownTable(TECHEMPOWER_COLUMNS, rows),
    '',
    ...acceptanceLines(rows).map((line) => `- ${line.status} ${line.text}`),
  ];
  for (const failure of run.failures)
    lines.push(
      `- not measured: ${failure.server}${failure.scenario ? ` type ${failure.scenario}` : ''}: ${failure.message.split('\n')[0]}`,
    );
  return lines.join('\n');
}

async function main(): Promise<number> {
  const options = parseTechEmpowerOptions(process.argv.slice(2));
  if (options.help) {
    console.log(TECHEMPOWER_USAGE);
    return 0;
  }
  if (options.list) {
    for (const implementation of IMPLEMENTATIONS)
      console.log(
        `${implementation.id.padEnd(18)} ${implementation.label.padEnd(24)} ${unavailableReason(variantServer({ implementation, driver: 'pg', pool: 1 }, '')) ?? 'ready'}`,
      );
    return 0;
  }
  ensureSystemTools(log);
  const postgres = await startBenchCluster({ cpu: options.clientCpu });
  const databaseUrl = await postgres.createDatabase('hello_world');
  const database = new VerifierDatabase(databaseUrl);
  try {
    const types = createTestTypes(database).filter((type) => options.types.includes(type.key as never));
    const servers = options.servers.flatMap((id) =>
      options.drivers.flatMap((driver) =>
        options.pools.map((pool) =>
          variantServer({ implementation: findImplementation(id), driver, pool }, databaseUrl),
        ),
      ),
    );
    const settings: RunSettings = {
      servers: servers.map((server) => server.id),
      scenarios: types.map((type) => type.id),
      modes: ['plain', 'pipelined'],
      rounds: options.rounds,
      durationSec: options.durationSec,
      warmupSec: options.warmupSec,
      sliceSec: options.sliceSec,
      connections: options.connections,
      pipeline: options.pipeline,
      serverCpu: options.serverCpu,
      clientCpu: options.clientCpu,
    };
    log(
      `techempower: ${servers.length} variants × ${types.length} test types × ${settings.rounds} rounds, about ${Math.ceil(estimateSeconds(settings, servers.length, types) / 60)} min of load${options.check ? ' (check mode: the figures mean nothing)' : ''}`,
    );
    const run = await runBenchmark({ settings, servers, scenarios: types, staticDir: '/nonexistent', log });
    const rows = summarizeTechEmpower(run);
    console.log(`\nTechEmpower test types\n\n${renderTextTable(TECHEMPOWER_COLUMNS, rows)}\n`);
    for (const line of acceptanceLines(rows)) console.log(`${line.status.padEnd(4)}  ${line.text}`);
    for (const entry of run.unavailable) console.log(`\nnot run: ${entry.server}: ${entry.reason}`);
    if (run.failures.length) {
      console.log('\nFailures (not measured):');
      for (const failure of run.failures)
        console.log(
          `  ${failure.server}${failure.scenario ? ` type ${failure.scenario}` : ''} round ${failure.round}: ${failure.message}`,
        );
    }
    fs.mkdirSync(options.resultsDir, { recursive: true });
    const json = `${JSON.stringify({ ...run, kind: 'techempower', check: options.check }, null, 2)}\n`;
    fs.writeFileSync(path.join(options.resultsDir, `techempower-${run.startedAt.replace(/[:.]/g, '-')}.json`), json);
    fs.writeFileSync(path.join(options.resultsDir, 'techempower-latest.json'), json);
    log(`wrote ${path.join(options.resultsDir, 'techempower-latest.json')}`);
    if (!options.check) {
      // The data file of this machine type, committed with the page it fills.
      fs.mkdirSync(TECHEMPOWER_DATA_DIR, { recursive: true });
      const file = path.join(TECHEMPOWER_DATA_DIR, `${machineSlug(run.machine.cpuModel)}.json`);
      fs.writeFileSync(file, json);
      log(`wrote ${file}`);
    }
    if (options.docPath) {
      writeBlockIntoDoc(options.docPath, 'techempower', run.machine.cpuModel, renderDocSection(run, options));
      log(`wrote ${options.docPath}`);
    }
    return run.failures.length > 0 || run.unavailable.length > 0 ? 1 : 0;
  } finally {
    await database.close();
    await postgres.stop();
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`bench:techempower: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(2);
  },
);
