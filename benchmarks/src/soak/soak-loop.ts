/**
 * One target's soak: start its server on a fresh database, then run wrk interval after interval (one wrk run
 * per interval, so each interval's requests, errors and socket errors are exact) for the whole duration,
 * and after each one read the server's RSS and CPU time from /proc, collect the side load's sessions and make
 * the runner's own check request. Stops early when the server dies.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readCpuSeconds } from '../runner/cpu-time';
import { readProcessStatus } from '../runner/process-status';
import { judgeTarget, warmupSampleCount, type FlatnessThresholds } from './flatness';
import { HEAP_SNAPSHOT_FLAG, compareSnapshots, takeHeapSnapshot } from './heap/heap-snapshots';
import type { IntervalSample, StreamingIntervalCounts, TargetRun, WrkIntervalCounts } from './soak-results';
import type { LoadShape, PreparedTarget, SoakTarget } from './soak-target';
import { runSoakWrk } from './soak-wrk';

export interface SoakSettings {
  durationSec: number;
  intervalSec: number;
  /** 'auto' = the target's default (one core each for server and wrk on a machine with two or more). */
  serverCpu: number | undefined | 'auto';
  clientCpu: number | undefined | 'auto';
  load: Partial<LoadShape>;
  /** The target's criterion (default, the target's own values, the command line's). */
  thresholds: FlatnessThresholds;
  nodeFlags: string[];
  streamingSessions: number;
  /** Folder for heap snapshots after warm-up and at the end (the figures of such a run are not for the doc). */
  heapSnapshotDir: string | undefined;
  keepData: boolean;
  log: (line: string) => void;
}

const sum = (values: Record<string, number>) => Object.values(values).reduce((total, value) => total + value, 0);

/** Unexpected answers: the script's own count when it checks every answer, else wrk's (status >= 400). */
export function unexpectedAnswers(wrk: WrkIntervalCounts): number {
  return Object.keys(wrk.sent).length > 0 ? sum(wrk.failed) : wrk.wrkStatusErrors;
}

function intervalErrors(
  wrk: WrkIntervalCounts,
  streaming: StreamingIntervalCounts | undefined,
  checkFailure: string | undefined,
): number {
  return (
    unexpectedAnswers(wrk) +
    wrk.socketErrors +
    wrk.scriptErrors.length +
    (streaming?.failed ?? 0) +
    (checkFailure ? 1 : 0)
  );
}

function mergeStreaming(into: StreamingIntervalCounts, more: StreamingIntervalCounts): StreamingIntervalCounts {
  return {
    started: into.started + more.started,
    completed: into.completed + more.completed,
    failed: into.failed + more.failed,
    phrases: into.phrases + more.phrases,
    translationP95Ms: Number.isFinite(into.translationP95Ms)
      ? Math.max(into.translationP95Ms, more.translationP95Ms || 0)
      : more.translationP95Ms,
    failures: [...into.failures, ...more.failures],
  };
}

function formatLine(target: string, sample: IntervalSample): string {
  const streaming = sample.streaming
    ? `, sessions ${sample.streaming.completed} ok/${sample.streaming.failed} failed`
    : '';
  return (
    `soak ${target} ${String(Math.round(sample.elapsedSec)).padStart(4)} s: ${Math.round(sample.requestsPerSec).toLocaleString('en-US')} req/s, ` +
    `${sample.errors} errors, RSS ${sample.rssMB.toFixed(1)} MB, server CPU ${sample.serverCpuPercent.toFixed(0)}%, load ${sample.loadAverage1m.toFixed(1)}${streaming}`
  );
}

function resolveCpu(
  setting: number | undefined | 'auto',
  pinByDefault: boolean,
  defaultCpu: number,
): number | undefined {
  if (setting !== 'auto') return setting;
  return pinByDefault && os.cpus().length >= 2 ? defaultCpu : undefined;
}

export async function runTarget(target: SoakTarget, settings: SoakSettings): Promise<TargetRun> {
  const log = settings.log;
  const load: LoadShape = { ...target.defaultLoad, ...settings.load };
  const serverCpu = resolveCpu(settings.serverCpu, target.pinServerByDefault, 1);
  const clientCpu = resolveCpu(settings.clientCpu, true, 0);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `soak-${target.id}-`));
  const startedAt = new Date().toISOString();
  const loadAverages: number[] = [os.loadavg()[0]];
  const samples: IntervalSample[] = [];
  let prepared: PreparedTarget | undefined;
  let abortedReason: string | undefined;
  let idleRssMB = NaN;

  try {
    log(`soak ${target.id}: starting the server (fresh database in ${workDir})`);
    const heapDir = settings.heapSnapshotDir
      ? path.join(settings.heapSnapshotDir, `${target.id}-${startedAt.replace(/[:.]/g, '-')}`)
      : undefined;
    if (heapDir) fs.mkdirSync(heapDir, { recursive: true });
    const nodeFlags = heapDir ? [...settings.nodeFlags, HEAP_SNAPSHOT_FLAG] : settings.nodeFlags;
    prepared = await target.prepare({
      workDir,
      serverCpu,
      nodeFlags,
      serverCwd: heapDir,
      load,
      streamingSessions: settings.streamingSessions,
      log,
    });
    const { server, plan } = prepared;
    idleRssMB = readProcessStatus(server.pid)?.rssMB ?? NaN;
    log(
      `soak ${target.id}: ${prepared.description}; server pid ${server.pid} on ${server.baseUrl}, RSS ${idleRssMB.toFixed(1)} MB; ${settings.durationSec} s in intervals of ${settings.intervalSec} s`,
    );
    prepared.sideLoad?.start();
    const intervals = Math.max(1, Math.ceil(settings.durationSec / settings.intervalSec));
    const snapshotAfter = new Set([warmupSampleCount(intervals, settings.thresholds.warmupFraction), intervals]);
    const heapSnapshots: string[] = [];
    const loadStart = performance.now();

    for (let index = 0; index < intervals; index++) {
      await prepared.beforeInterval?.();
      const cpuBefore = readCpuSeconds(server.pid);
      const wallBefore = performance.now();
      let peakRssMB = readProcessStatus(server.pid)?.rssMB ?? NaN;
      const sampler = setInterval(() => {
        const rss = readProcessStatus(server.pid)?.rssMB;
        if (rss !== undefined && !(rss <= peakRssMB)) peakRssMB = rss;
      }, 1000);
      let wrk: WrkIntervalCounts;
      try {
        wrk = await runSoakWrk(plan, settings.intervalSec, clientCpu);
      } catch (error) {
        abortedReason = `interval ${index + 1}: ${(error as Error).message}`;
        break;
      } finally {
        clearInterval(sampler);
      }
      const status = readProcessStatus(server.pid);
      const rssMB = status?.rssMB ?? NaN;
      const cpuSeconds = readCpuSeconds(server.pid) - cpuBefore;
      const wallSeconds = (performance.now() - wallBefore) / 1000;
      const streaming = prepared.sideLoad?.takeInterval();
      let checkFailure: string | undefined;
      if (!server.alive()) checkFailure = `the server exited (${server.exitStatus()})`;
      else if (prepared.check)
        checkFailure = await prepared
          .check()
          .catch((error: unknown) => `check request failed: ${(error as Error).message}`);
      const loadAverage1m = os.loadavg()[0];
      loadAverages.push(loadAverage1m);
      const sample: IntervalSample = {
        index: index + 1,
        elapsedSec: (performance.now() - loadStart) / 1000,
        requestsPerSec: wrk.durationSec > 0 ? wrk.requests / wrk.durationSec : 0,
        errors: intervalErrors(wrk, streaming, checkFailure),
        rssMB,
        peakRssMB: Math.max(peakRssMB, rssMB),
        rssAnonMB: status?.rssAnonMB,
        rssFileMB: status?.rssFileMB,
        threads: status?.threads,
        serverCpuPercent: (cpuSeconds / wallSeconds) * 100,
        loadAverage1m,
        wrk,
        streaming,
        checkFailure,
      };
      samples.push(sample);
      log(formatLine(target.id, sample));
      for (const text of wrk.samples) log(`  unexpected: ${text}`);
      for (const text of wrk.scriptErrors) log(`  wrk: ${text}`);
      if (checkFailure) log(`  check: ${checkFailure}`);
      for (const failure of streaming?.failures ?? []) log(`  session: ${failure}`);
      if (!server.alive()) {
        abortedReason = `the server exited after ${Math.round(sample.elapsedSec)} s (${server.exitStatus()})`;
        break;
      }
      if (heapDir && snapshotAfter.has(index + 1)) {
        try {
          heapSnapshots.push(await takeHeapSnapshot(server.pid, server.baseUrl, heapDir));
          log(`soak ${target.id}: heap snapshot ${heapSnapshots.at(-1)}`);
        } catch (error) {
          log(`soak ${target.id}: heap snapshot: ${(error as Error).message}`);
        }
      }
    }
    if (heapDir && heapSnapshots.length === 2) {
      try {
        const comparison = compareSnapshots(heapSnapshots[0], heapSnapshots[1]);
        fs.writeFileSync(path.join(heapDir, 'heap-growth.txt'), `${comparison}\n`);
        log(`soak ${target.id}: between the heap snapshots\n${comparison}`);
      } catch (error) {
        log(`soak ${target.id}: comparing the heap snapshots: ${(error as Error).message}`);
      }
    }
    if (prepared.sideLoad) {
      const rest = await prepared.sideLoad.stop();
      const last = samples.at(-1);
      if (last) {
        last.streaming = mergeStreaming(
          last.streaming ?? { started: 0, completed: 0, failed: 0, phrases: 0, translationP95Ms: NaN, failures: [] },
          rest,
        );
        last.errors += rest.failed;
        for (const failure of rest.failures) log(`  session: ${failure}`);
      }
    }
  } catch (error) {
    abortedReason = (error as Error).message;
    log(`soak ${target.id}: ${abortedReason}`);
  } finally {
    await prepared?.server.stop();
    await prepared
      ?.close?.()
      .catch((error: unknown) => log(`soak ${target.id}: clean-up: ${(error as Error).message}`));
    if (settings.keepData) log(`soak ${target.id}: data kept in ${workDir}`);
    else fs.rmSync(workDir, { recursive: true, force: true });
  }

  const totalRequests = samples.reduce((total, sample) => total + sample.wrk.requests, 0);
  const measuredSec = samples.reduce((total, sample) => total + sample.wrk.durationSec, 0);
  return {
    target: target.id,
    label: target.label,
    description: prepared?.description ?? '',
    startedAt,
    intervalSec: settings.intervalSec,
    durationSec: settings.durationSec,
    wrk: {
      threads: load.threads,
      connections: load.connections,
      pipeline: load.pipeline,
      requestsPerSecLimit: load.requestsPerSecLimit,
    },
    serverCpu,
    clientCpu,
    serverStartupMs: prepared?.server.startupMs ?? NaN,
    idleRssMB,
    samples,
    totalRequests,
    meanRequestsPerSec: measuredSec > 0 ? totalRequests / measuredSec : 0,
    loadAverage: {
      start: loadAverages[0],
      end: loadAverages.at(-1)!,
      min: Math.min(...loadAverages),
      max: Math.max(...loadAverages),
    },
    serverStderrTail: prepared?.server.stderrTail() ?? '',
    abortedReason,
    thresholds: settings.thresholds,
    thresholdsReason: target.thresholds?.reason,
    verdict: judgeTarget(samples, settings.thresholds, abortedReason),
  };
}
