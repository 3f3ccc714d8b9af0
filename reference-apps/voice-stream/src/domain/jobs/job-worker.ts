import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { capabilitiesOf, type VoiceEngines } from '../../engines/voice-engines';
import type { JobStore, StoredJob } from '../../storage/job-store';
import { processJob, JobAborted, type JobFiles } from './job-processor';
import { parseJobRequest, type JobLimits } from './job-request';

export interface JobWorkerOptions {
  /** Folder of the jobs' files (sources and results); instances sharing a database must share it. */
  readonly directory: string;
  /** Jobs this instance processes at once. */
  readonly concurrency: number;
  /** How long a claim holds without a heartbeat: a job of a dead instance is taken over after this. */
  readonly leaseMs: number;
  /** How often the queue is looked at when nothing woke the worker (an upload to another instance). */
  readonly pollMs: number;
  /** How long a job and its results are kept after its upload or its end. */
  readonly retentionMs: number;
  readonly limits: JobLimits;
  /** SQLite: this instance is the only one, so jobs left processing by a previous run are queued again at once. */
  readonly requeueOnStart: boolean;
  readonly log?: (message: string, fields?: Record<string, unknown>) => void;
}

/** Where a job's files are. */
export function jobFiles(directory: string, id: string): JobFiles & { folder: string } {
  const folder = path.join(directory, id);
  return { folder, source: path.join(folder, 'source'), result: (index) => path.join(folder, `result-${index}`) };
}

/**
 * Runs queued jobs on this instance, at most `concurrency` at once: claims them from the database with a lease,
 * renews the lease (and writes the progress) while it works, and records each outcome. A job whose lease ran out
 * is claimed again by any instance and started over. Also deletes expired jobs and their files.
 */
export class JobWorker {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | undefined;
  private lastSweep = 0;
  private looking: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private readonly workerId = `worker_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;

  constructor(
    private readonly store: JobStore,
    private readonly engines: VoiceEngines,
    private readonly options: JobWorkerOptions,
  ) {}

  async start(): Promise<void> {
    await mkdir(this.options.directory, { recursive: true, mode: 0o700 });
    if (this.options.requeueOnStart) await this.store.requeueAbandoned();
    this.schedule(0);
  }

  /** Something was queued: look now rather than at the next poll. */
  poke(): void {
    this.schedule(0);
  }

  /** Stops taking jobs and abandons those running (they stay queued and are started over by the next run). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const { controller } of this.running.values()) controller.abort();
    await this.looking;
    await Promise.all([...this.running.values()].map((run) => run.done));
  }

  private schedule(delay: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.look(), delay);
    this.timer.unref();
  }

  private async look(): Promise<void> {
    if (this.looking) {
      this.again = true;
      return;
    }
    this.looking = (async () => {
      try {
        do {
          this.again = false;
          await this.sweep();
          while (!this.closed && this.running.size < this.options.concurrency) {
            const job = await this.store.claim(this.workerId, this.options.leaseMs, this.options.retentionMs);
            if (!job) break;
            this.run(job);
          }
        } while (this.again && !this.closed);
      } catch (error) {
        this.options.log?.('job queue unavailable', { err: error });
      } finally {
        this.looking = undefined;
        this.schedule(this.options.pollMs);
      }
    })();
    await this.looking;
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const id of await this.store.deleteExpired(now))
      await rm(jobFiles(this.options.directory, id).folder, { recursive: true, force: true });
    // Folders whose job is gone (deleted with its API key, or the database was reset).
    const folders = (await readdir(this.options.directory)).filter((name) => /^[0-9a-f-]{36}$/.test(name));
    const kept = await this.store.existingIds(folders);
    for (const folder of folders)
      if (!kept.has(folder)) await rm(path.join(this.options.directory, folder), { recursive: true, force: true });
  }

  private run(job: StoredJob): void {
    const controller = new AbortController();
    const done = this.process(job, controller).finally(() => {
      this.running.delete(job.id);
      this.schedule(0);
    });
    this.running.set(job.id, { controller, done });
  }

  private async process(job: StoredJob, controller: AbortController): Promise<void> {
    const { leaseMs, retentionMs, limits } = this.options;
    const files = jobFiles(this.options.directory, job.id);
    let processedMs = 0;
    const beat = setInterval(
      () => {
        this.store
          .heartbeat(job.id, this.workerId, processedMs, leaseMs, retentionMs)
          .then((mine) => {
            // Another instance took it over (this one was too slow to renew): stop, it is theirs now.
            if (!mine) controller.abort();
          })
          .catch(() => undefined);
      },
      Math.max(50, Math.min(1000, leaseMs / 3)),
    );
    try {
      const plan = parseJobRequest(job.request, capabilitiesOf(this.engines), {
        ...limits,
        maxFileBytes: Number.MAX_SAFE_INTEGER,
      });
      if ('error' in plan) {
        const error = `This server can no longer process the job: ${plan.error}`;
        await this.store.finish(
          job.id,
          this.workerId,
          {
            status: 'failed',
            results: job.request.targets.map(() => ({ status: 'failed', error })),
            error,
            processedMs,
          },
          job.sourceBytes ?? 0,
          retentionMs,
        );
        return;
      }
      this.options.log?.('job started', { job: job.id, attempt: job.attempts });
      const outcome = await processJob(this.engines, {
        source: plan.source,
        outputs: plan.outputs,
        files,
        maxDurationMs: limits.maxDurationMs,
        signal: controller.signal,
        onProgress: (ms) => {
          processedMs = ms;
        },
      });
      const storage = (job.sourceBytes ?? 0) + outcome.results.reduce((sum, result) => sum + (result.bytes ?? 0), 0);
      await this.store.finish(job.id, this.workerId, outcome, storage, retentionMs);
      this.options.log?.('job finished', { job: job.id, status: outcome.status, error: outcome.error });
    } catch (error) {
      if (!(error instanceof JobAborted)) this.options.log?.('job failed unexpectedly', { job: job.id, err: error });
    } finally {
      clearInterval(beat);
    }
  }
}
