import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FileUpload } from 'rest.uws';
import type { JobStore, StoredJob } from '../../storage/job-store';
import type { VoiceCapabilities } from '../session/session-request';
import { VoiceApiError } from '../voice-api-error';
import { jobSourceFormat, parseJobRequest, type JobLimits } from './job-request';
import { jobFiles, type JobWorker } from './job-worker';

const run = promisify(execFile);

/** Name or path of ffprobe (Debian package `ffmpeg`). */
const FFPROBE_BINARY = process.env.VOICE_STREAM_FFPROBE ?? 'ffprobe';

export interface JobSettings {
  readonly directory: string;
  readonly limits: JobLimits;
  /** How long after its creation a job takes its upload. */
  readonly uploadWindowMs: number;
  /** How long a job and its results are kept after the upload, and after the job ended. */
  readonly retentionMs: number;
}

/**
 * What the job routes do beyond HTTP: create a job within the key's limits, take its upload (size and duration
 * checked, the file moved into the job's folder, the job queued and the worker woken), find its files.
 */
export class JobService {
  constructor(
    readonly store: JobStore,
    readonly settings: JobSettings,
    private readonly worker: Pick<JobWorker, 'poke'>,
  ) {}

  async create(ownerId: string, body: unknown, capabilities: VoiceCapabilities): Promise<StoredJob> {
    const parsed = parseJobRequest(body, capabilities, this.settings.limits);
    if ('error' in parsed) throw new VoiceApiError(400, 'invalid_request', parsed.error);
    const max = this.settings.limits.maxActiveJobsPerKey;
    if ((await this.store.activeCount(ownerId)) >= max)
      throw new VoiceApiError(
        429,
        'too_many_jobs',
        `This API key has ${max} unfinished jobs (awaiting upload, queued or processing); wait until one ends`,
        5,
      );
    return this.store.create(ownerId, parsed.request, this.settings.uploadWindowMs);
  }

  folderOf(id: string): string {
    return jobFiles(this.settings.directory, id).folder;
  }

  /** The result file of a target, relative to the jobs' folder (what the download route serves). */
  relativeResultPath(id: string, index: number): string {
    return path.relative(this.settings.directory, jobFiles(this.settings.directory, id).result(index));
  }

  /** The uploaded file: exactly the announced size, audio ffmpeg can read, not too long; then queued. */
  async acceptUpload(id: string, file: FileUpload | undefined): Promise<void> {
    const job = await this.store.find(id);
    if (!job) throw new VoiceApiError(404, 'not_found', 'No such job (unknown, or its upload window closed)');
    const announced = job.request.source_file.content_length;
    if (!file)
      throw new VoiceApiError(400, 'size_mismatch', `The body is empty; send the ${announced} bytes of the file`);
    if (file.size !== announced)
      throw new VoiceApiError(
        400,
        'size_mismatch',
        `The body has ${file.size} bytes; the job announced content_length ${announced}`,
      );
    const durationMs = await this.probeDuration(file.path, job);
    const max = this.settings.limits.maxDurationMs;
    if (durationMs !== undefined && durationMs > max)
      throw new VoiceApiError(
        400,
        'audio_too_long',
        `The audio lasts ${Math.round(durationMs / 1000)} s; this server takes at most ${Math.round(max / 1000)} s per job`,
      );
    const files = jobFiles(this.settings.directory, id);
    await file.moveTo(files.source).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'RU_ERR_FILE_EXISTS' || /already exists/.test(error.message))
        throw new VoiceApiError(409, 'already_uploaded', 'The source file of this job was already uploaded');
      throw error;
    });
    const estimated = durationMs ?? 0;
    if (!(await this.store.markUploaded(id, file.size, estimated, this.settings.retentionMs)))
      throw new VoiceApiError(409, 'already_uploaded', 'The source file of this job was already uploaded');
    this.worker.poke();
  }

  /**
   * The duration ffprobe reads from the file's headers, or, for raw PCM (no headers), from its size. A file ffprobe
   * cannot read as the announced type is refused. Undefined when the container states no duration (a live-style
   * WebM): the worker then enforces the limit while decoding.
   */
  private async probeDuration(file: string, job: StoredJob): Promise<number | undefined> {
    const type = job.request.source_file.content_type;
    const pcm = /^audio\/pcm;encoding=(s16le|alaw|ulaw);rate=(\d+)$/.exec(type);
    if (pcm) return ((job.request.source_file.content_length / (pcm[1] === 's16le' ? 2 : 1)) * 1000) / Number(pcm[2]);
    const format = jobSourceFormat(type);
    const input = 'error' in format ? [] : (format.ffmpegInput ?? []).slice(0, 2);
    try {
      const { stdout } = await run(
        FFPROBE_BINARY,
        [
          '-v',
          'error',
          ...input,
          '-show_entries',
          'format=duration',
          '-of',
          'default=noprint_wrappers=1:nokey=1',
          file,
        ],
        { timeout: 30_000, maxBuffer: 64 * 1024 },
      );
      const seconds = Number.parseFloat(stdout.trim());
      return Number.isFinite(seconds) ? Math.round(seconds * 1000) : undefined;
    } catch (error) {
      const detail = ((error as { stderr?: string }).stderr ?? '').trim().split('\n').pop() ?? '';
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
      throw new VoiceApiError(400, 'invalid_audio', `The file is not audio of a readable format (${type}): ${detail}`);
    }
  }
}
