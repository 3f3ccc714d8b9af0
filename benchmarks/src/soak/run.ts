/**
 * `npm run soak`: long load on each target in turn (its own server process, a fresh database, a realistic wrk
 * mix for the whole duration), one sample per interval (req/s, errors, server RSS and CPU), then per target
 * the pass criteria (no errors, RSS flat after warm-up), the tables, the raw JSON, an SVG chart and, with
 * --doc, its block of docs/reliability/long-load.md.
 */
import { keepRunData } from '../report/doc-blocks';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeMachine } from '../runner/machine-info';
import { ensureSystemTools } from '../setup/system-tools';
import { renderSoakChart } from './soak-chart';
import { writeTargetBlocks } from './soak-doc';
import { judgeTarget, mergeThresholds } from './flatness';
import { runTarget } from './soak-loop';
import { SOAK_USAGE, parseSoakOptions, type SoakOptions } from './soak-options';
import { renderConsoleReport, renderTargetMarkdown } from './soak-report';
import type { SoakRun } from './soak-results';
import { SOAK_TARGETS, findTarget } from './targets/registry';

const log = (line: string) => process.stderr.write(`${line}\n`);

function commandLine(argv: string[]): string {
  const quoted = argv.map((arg) => (/^[\w./,=:-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`));
  return ['npm run soak --', ...quoted].join(' ');
}

function writeOutputs(soak: SoakRun, options: SoakOptions): void {
  fs.mkdirSync(options.resultsDir, { recursive: true });
  const stamp = soak.startedAt.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(soak, null, 2)}\n`;
  fs.writeFileSync(path.join(options.resultsDir, `soak-${stamp}.json`), json);
  fs.writeFileSync(path.join(options.resultsDir, 'soak-latest.json'), json);
  fs.mkdirSync(options.chartsDir, { recursive: true });
  const blocks: Array<{ targetId: string; content: string }> = [];
  for (const run of soak.targets) {
    const chartFile = path.join(options.chartsDir, `soak-${run.target}.svg`);
    fs.writeFileSync(chartFile, renderSoakChart(run));
    if (options.docPath) {
      const link = path
        .relative(path.dirname(path.resolve(options.docPath)), chartFile)
        .split(path.sep)
        .join('/');
      blocks.push({ targetId: run.target, content: renderTargetMarkdown(soak, run, link) });
    }
  }
  if (options.docPath) {
    writeTargetBlocks(options.docPath, blocks);
    // One file per target, as the page has one block per target: the run with that target alone.
    for (const run of soak.targets)
      keepRunData(
        options.resultsDir,
        `soak-${run.target}`,
        `${JSON.stringify({ ...soak, targets: [run] }, null, 2)}\n`,
      );
    log(`wrote ${options.docPath} and its data in ${path.join(options.resultsDir, 'runs')}`);
  }
  log(`wrote ${path.join(options.resultsDir, `soak-${stamp}.json`)} and soak-<target>.svg in ${options.chartsDir}`);
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const options = parseSoakOptions(argv);
  if (options.help) {
    console.log(SOAK_USAGE);
    return 0;
  }
  if (options.list) {
    for (const target of SOAK_TARGETS)
      console.log(`${target.id.padEnd(18)} ${target.label.padEnd(40)} ${target.unavailableReason() ?? 'ready'}`);
    return 0;
  }
  if (options.rejudgeFile) {
    const saved = JSON.parse(fs.readFileSync(options.rejudgeFile, 'utf8')) as SoakRun;
    const soak: SoakRun = {
      ...saved,
      thresholds: options.thresholds,
      // Labels as the targets name themselves now; the measured samples as they were.
      targets: saved.targets.map((run) => {
        const target = SOAK_TARGETS.find((candidate) => candidate.id === run.target);
        const thresholds = mergeThresholds(target?.thresholds?.values, options.thresholds);
        return {
          ...run,
          label: target?.label ?? run.label,
          thresholds,
          thresholdsReason: target?.thresholds?.reason,
          verdict: judgeTarget(run.samples, thresholds, run.abortedReason),
        };
      }),
    };
    console.log(renderConsoleReport(soak));
    writeOutputs(soak, options);
    return soak.targets.every((run) => run.verdict.pass) ? 0 : 1;
  }
  ensureSystemTools(log);
  const targets = options.targets.map(findTarget);
  for (const target of targets) {
    const reason = target.unavailableReason();
    if (reason) throw new Error(`${target.id} cannot run: ${reason}`);
  }
  const soak: SoakRun = {
    startedAt: new Date().toISOString(),
    command: commandLine(argv),
    machine: describeMachine(),
    thresholds: options.thresholds,
    targets: [],
  };
  log(
    `soak: ${targets.map((target) => target.id).join(', ')}; ${options.durationSec} s each in ${options.intervalSec} s intervals (about ${Math.ceil((targets.length * options.durationSec) / 60)} min)`,
  );
  for (const target of targets) {
    soak.targets.push(
      await runTarget(target, {
        durationSec: options.durationSec,
        intervalSec: options.intervalSec,
        serverCpu: options.serverCpu,
        clientCpu: options.clientCpu,
        load: options.load,
        thresholds: mergeThresholds(target.thresholds?.values, options.thresholds),
        nodeFlags: options.nodeFlags,
        streamingSessions: options.voiceSessions,
        heapSnapshotDir: options.heapSnapshots ? path.join(options.resultsDir, 'heap') : undefined,
        keepData: options.keepData,
        log,
      }),
    );
  }
  console.log(renderConsoleReport(soak));
  writeOutputs(soak, options);
  return soak.targets.every((run) => run.verdict.pass) ? 0 : 1;
}

// Exiting runs the exit hook that stops any server or wrk still running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`soak: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
