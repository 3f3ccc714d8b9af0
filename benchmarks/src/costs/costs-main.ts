/** `npm run bench -- --costs`: runs the cost table, prints it, and writes its JSON and its block of docs/benchmarks/costs.md. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CliOptions } from '../cli/options';
import { keepRunData, writeBlockIntoDoc } from '../report/doc-blocks';
import { renderTextTable } from '../report/text-table';
import { BARE_ROW, RAW_ROW, costRows } from './cost-rows';
import { costColumns, costModeTitle, renderCostSection, summarizeCosts } from './cost-report';
import { estimateCostSeconds, runCosts } from './run-costs';

export async function runCostTable(options: CliOptions, log: (line: string) => void): Promise<number> {
  const all = costRows();
  const unknown = (options.rows ?? []).filter((id) => !all.some((row) => row.id === id));
  if (unknown.length)
    throw new Error(`unknown cost row(s) ${unknown.join(', ')}; known: ${all.map((row) => row.id).join(', ')}`);
  const wanted = new Set([RAW_ROW, BARE_ROW, ...(options.rows ?? all.map((row) => row.id))]);
  // A row's reference row runs too (the unvalidated body for @Valid).
  for (const row of all) if (wanted.has(row.id)) wanted.add(row.against);
  const rows = all.filter((row) => wanted.has(row.id));
  const settings = {
    rounds: options.rounds,
    durationSec: options.durationSec,
    warmupSec: options.warmupSec,
    modes: options.modes,
    connections: options.connections,
    pipeline: options.pipeline,
    serverCpu: options.serverCpu,
    clientCpu: options.clientCpu,
  };
  log(
    `bench --costs: ${rows.length} rows × ${settings.modes.join('+')} × ${settings.rounds} rounds${options.baseline ? ` (and the same from ${options.baseline})` : ''}, about ${Math.ceil(estimateCostSeconds(settings, rows, options.baseline !== undefined) / 60)} min of load`,
  );
  const run = await runCosts({ settings, rows, baseline: options.baseline, dataDir: options.dataDir, log });

  const lines = summarizeCosts(run);
  for (const mode of settings.modes) {
    const modeLines = lines.filter((line) => line.mode === mode);
    if (modeLines.length)
      console.log(
        `\nCost per request: ${costModeTitle(mode, settings.pipeline)}\n\n${renderTextTable(costColumns(run.baseline !== undefined), modeLines)}`,
      );
  }
  if (run.failures.length) {
    console.log('\nFailures (not measured):');
    for (const failure of run.failures)
      console.log(
        `  ${failure.row} ${failure.variant}${failure.mode ? ` ${failure.mode}` : ''} round ${failure.round}: ${failure.message}`,
      );
  }

  fs.mkdirSync(options.resultsDir, { recursive: true });
  const json = `${JSON.stringify(run, null, 2)}\n`;
  fs.writeFileSync(path.join(options.resultsDir, `costs-${run.startedAt.replace(/[:.]/g, '-')}.json`), json);
  fs.writeFileSync(path.join(options.resultsDir, 'costs-latest.json'), json);
  log(`wrote ${path.join(options.resultsDir, 'costs-latest.json')}`);
  if (options.docPath) {
    writeBlockIntoDoc(options.docPath, 'costs', run.machine.cpuModel, renderCostSection(run, options.note));
    log(`wrote ${options.docPath} and ${keepRunData(options.resultsDir, `costs-${run.machine.cpuModel}`, json)}`);
  }
  return run.failures.length > 0 ? 1 : 0;
}
