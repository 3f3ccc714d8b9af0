/**
 * `npm run bench`: set up the tools, write the fixtures, run the selected servers and scenarios in interleaved
 * rounds, print the tables and the target checks, and write the raw JSON, the SVG charts and docs/benchmarks/results.md.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { USAGE, parseOptions, type CliOptions } from './cli/options';
import { prepareFixtures } from './runner/fixtures';
import type { BenchmarkRun, Mode, RunSettings } from './runner/results';
import { estimateSeconds, runBenchmark } from './runner/run-benchmark';
import { keepRunData, writeBlockIntoDoc } from './report/doc-blocks';
import { renderResultsSection } from './report/markdown-report';
import { resultColumns, startupColumns } from './report/result-columns';
import { summarize, summarizeStartups } from './report/summarize';
import { renderChart } from './report/svg-chart';
import { evaluateTargets, formatTargetLine } from './report/targets';
import { renderTextTable } from './report/text-table';
import { createScenarios } from './scenarios/scenarios';
import { formatProfileSummary, summarizeProfileFile } from './profile/cpu-profile-summary';
import { tailLines } from './report/tail-report';
import {
  BASELINE_SUFFIX,
  RAW_SERVER_ID,
  REST_UWS_SERVER_ID,
  SERVERS,
  baselineServer,
  findServer,
  unavailableReason,
} from './servers/registry';
import { runCostTable } from './costs/costs-main';
import { baselineComparisonLines } from './report/baseline-comparison';
import { installPeers } from './setup/peers';
import { ensureSystemTools } from './setup/system-tools';

const log = (line: string) => process.stderr.write(`${line}\n`);

function writeOutputs(run: BenchmarkRun, options: CliOptions, scenarios: ReturnType<typeof createScenarios>): void {
  const rows = summarize(run);
  const stamp = run.startedAt.replace(/[:.]/g, '-');
  fs.mkdirSync(options.resultsDir, { recursive: true });
  const json = `${JSON.stringify(run, null, 2)}\n`;
  fs.writeFileSync(path.join(options.resultsDir, `run-${stamp}.json`), json);
  fs.writeFileSync(path.join(options.resultsDir, 'latest.json'), json);

  const chartFiles: Partial<Record<Mode, string>> = {};
  fs.mkdirSync(options.chartsDir, { recursive: true });
  for (const mode of run.settings.modes) {
    if (!rows.some((row) => row.mode === mode)) continue;
    // One chart per machine type: a run on one machine must not redraw the chart another machine's section shows.
    const file = path.join(options.chartsDir, `${mode}-${machineSlug(run.machine.cpuModel)}.svg`);
    const title =
      mode === 'plain'
        ? 'Plain keep-alive, 64 connections'
        : `Pipelined, ${run.settings.pipeline} requests per write, 64 connections`;
    fs.writeFileSync(file, renderChart(rows, scenarios, mode, run.settings.servers, title));
    chartFiles[mode] = file;
  }

  if (options.docPath) {
    const docDir = path.dirname(path.resolve(options.docPath));
    const chartLinks = Object.fromEntries(
      Object.entries(chartFiles).map(([mode, file]) => [mode, path.relative(docDir, file).split(path.sep).join('/')]),
    );
    writeBlockIntoDoc(
      options.docPath,
      'results',
      run.machine.cpuModel,
      renderResultsSection({ run, scenarios, targets: evaluateTargets(run), chartLinks, note: options.note }),
    );
    log(`wrote ${options.docPath} and ${keepRunData(options.resultsDir, `results-${run.machine.cpuModel}`, json)}`);
  }
  log(`wrote ${path.join(options.resultsDir, 'latest.json')} and charts in ${options.chartsDir}`);
}

/** `AMD EPYC 7B13` -> `amd-epyc-7b13`: a machine type as a file name. */
function machineSlug(cpuModel: string): string {
  return cpuModel
    .toLowerCase()
    .replace(/\([^)]*\)/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function printTables(run: BenchmarkRun, scenarios: ReturnType<typeof createScenarios>): void {
  const rows = summarize(run);
  for (const mode of run.settings.modes) {
    const modeRows = rows.filter((row) => row.mode === mode);
    if (modeRows.length === 0) continue;
    console.log(`\n${mode === 'plain' ? 'Plain keep-alive' : `Pipelined (${run.settings.pipeline} per write)`}\n`);
    console.log(renderTextTable(resultColumns(scenarios), modeRows));
  }
  const startups = summarizeStartups(run);
  if (startups.length) console.log(`\nStart-up with 1,000 routes\n\n${renderTextTable(startupColumns, startups)}`);
  console.log('\nTargets for rest.uws\n');
  for (const target of evaluateTargets(run)) console.log(formatTargetLine(target));
  const baseline = baselineComparisonLines(run);
  if (baseline.length)
    console.log(
      `\nrest.uws against the baseline (--baseline), paired by round (slice by slice in sliced rounds)\n\n${baseline.join('\n')}`,
    );
  const tail = tailLines(run, RAW_SERVER_ID);
  if (tail.length)
    console.log(`\nThe tail against raw uWS (plain mode, paired by round and slice)\n\n${tail.join('\n')}`);
  for (const entry of run.unavailable) console.log(`\nnot run: ${entry.server}: ${entry.reason}`);
  if (run.failures.length) {
    console.log('\nFailures (not measured):');
    for (const failure of run.failures)
      console.log(
        `  ${failure.server}${failure.scenario ? ` #${failure.scenario}` : ''}${failure.mode ? ` ${failure.mode}` : ''} round ${failure.round}: ${failure.message}`,
      );
  }
}

/** One summary per server, over all its profiles (one per round), printed and written beside them. */
function printProfiles(profileDir: string): void {
  if (!fs.existsSync(profileDir)) return;
  const texts: string[] = [];
  for (const server of fs.readdirSync(profileDir).sort()) {
    const files = fs.readdirSync(path.join(profileDir, server)).filter((file) => file.endsWith('.cpuprofile'));
    for (const file of files)
      texts.push(
        formatProfileSummary(`${server} (${file})`, summarizeProfileFile(path.join(profileDir, server, file))),
      );
  }
  const text = texts.join('\n\n');
  console.log(`\nWhere the servers' CPU time went (node --cpu-prof)\n\n${text}`);
  fs.writeFileSync(path.join(profileDir, 'summary.txt'), `${text}\n`);
  log(`wrote profiles and ${path.join(profileDir, 'summary.txt')}`);
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  if (options.list) {
    for (const server of SERVERS)
      console.log(`${server.id.padEnd(20)} ${server.label.padEnd(22)} ${unavailableReason(server) ?? 'ready'}`);
    return 0;
  }
  ensureSystemTools(log);
  if (options.setup) {
    installPeers(log);
    log('setup: done');
    return 0;
  }

  if (options.costs) return runCostTable(options, log);

  const fixtures = prepareFixtures(options.dataDir);
  const scenarios = createScenarios(fixtures).filter((scenario) => options.scenarios.includes(scenario.id));
  const servers = options.servers.map((id) =>
    id.endsWith(BASELINE_SUFFIX)
      ? baselineServer(findServer(id.slice(0, -BASELINE_SUFFIX.length)), options.baseline!)
      : findServer(id),
  );
  // --baseline without a server@before named: every rest.uws server gets its twin from the baseline.
  if (options.baseline !== undefined && !options.servers.some((id) => id.endsWith(BASELINE_SUFFIX))) {
    for (const server of [...servers])
      if (server.id.startsWith(REST_UWS_SERVER_ID))
        servers.splice(servers.indexOf(server) + 1, 0, baselineServer(server, options.baseline));
  }
  const settings: RunSettings = {
    servers: servers.map((server) => server.id),
    scenarios: scenarios.map((scenario) => scenario.id),
    modes: options.modes,
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
    `bench: ${servers.length} servers × ${scenarios.length} scenarios × ${settings.modes.join('+')} × ${settings.rounds} rounds, about ${Math.ceil(estimateSeconds(settings, servers.length, scenarios) / 60)} min of load`,
  );
  const profileDir = options.profile
    ? path.join(options.resultsDir, 'profiles', new Date().toISOString().replace(/[:.]/g, '-'))
    : undefined;
  const run = await runBenchmark({ settings, servers, scenarios, staticDir: fixtures.staticDir, profileDir, log });
  printTables(run, scenarios);
  if (profileDir) printProfiles(profileDir);
  writeOutputs(run, options, scenarios);
  return run.failures.length > 0 ? 1 : 0;
}

// Exiting runs the exit hook that stops any server still running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
