import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import {
  FILE_UPLOADS,
  FileUpload,
  errors,
  type BodyConsumer,
  type BodyFlow,
  type Logger,
  type RoutingContext,
} from '../../plugin';
import type { UploadOptions } from './upload-options';
import { PAUSE_ABOVE, RESUME_BELOW, writeAll } from './upload-consumer';

/** The request's admission check of a `@FileBody` route, bound to the app's components. */
export type AdmitBody = (ctx: RoutingContext) => number | undefined | Promise<number | undefined>;

/**
 * Takes a whole request body (any Content-Type) as it streams in and writes it to one file in the uploads folder,
 * one disk operation at a time and in order; the client is paused while the disk lags behind, and until the
 * route's admission check has said yes. The file is `ctx.fileUploads()[0]`. Refused, over the limit or aborted:
 * the file is deleted; at the end of the request it is deleted unless moved or kept (`deleteUploadedFilesOnEnd`).
 */
export class FileBodyConsumer implements BodyConsumer {
  private currentLimit: number;
  private readonly stored: string;
  private handle: FileHandle | null = null;
  private size = 0;
  private upload: FileUpload | undefined;
  private completed = false;
  private queue: Promise<void>;
  private queuedBytes = 0;
  private paused = false;
  private admitted: boolean;
  private failure: unknown = undefined;
  private gone = false;
  private bodyFlow: BodyFlow | null = null;

  constructor(
    private readonly ctx: RoutingContext,
    private readonly options: UploadOptions,
    maxSize: number,
    admit: AdmitBody | undefined,
    private readonly logger: Logger,
  ) {
    this.currentLimit = maxSize;
    this.stored = path.join(options.uploadsDirectory, randomUUID());
    this.admitted = admit === undefined;
    this.queue = Promise.resolve();
    this.enqueue(async () => {
      if (admit !== undefined) await this.admit(admit);
      await fs.promises.mkdir(this.options.uploadsDirectory, { recursive: true, mode: 0o700 });
      // 'wx': never follow or overwrite an existing name; 0o600: only the server's user reads uploads.
      this.handle = await fs.promises.open(this.stored, 'wx', 0o600);
    });
  }

  /** The largest body accepted: the route's, or less once the admission check gave a smaller one. */
  get limit(): number {
    return this.currentLimit;
  }

  write(chunk: Buffer): void {
    if (this.failure !== undefined) throw this.failure;
    this.size += chunk.length;
    this.queuedBytes += chunk.length;
    this.enqueue(async () => {
      try {
        await writeAll(this.handle!, chunk);
      } finally {
        this.queuedBytes -= chunk.length;
        if (this.paused && this.admitted && this.queuedBytes < RESUME_BELOW) this.flow(true);
      }
    });
    if (!this.paused && this.queuedBytes > PAUSE_ABOVE) this.flow(false);
  }

  end(): Promise<void> {
    // A body with no chunk at all still passes the admission check and leaves an empty file.
    this.enqueue(async () => {
      const handle = this.handle!;
      this.handle = null;
      await handle.close();
      const type = this.ctx.request.getHeader('content-type') ?? 'application/octet-stream';
      const charset = /;\s*charset="?([^";\s]+)"?/i.exec(type)?.[1];
      this.upload = new FileUpload('', '', type, charset, this.size, this.stored);
    });
    return this.queue.then(() => {
      if (this.failure !== undefined) throw this.failure;
      this.ctx.put(FILE_UPLOADS, [this.upload!]);
      this.completed = true;
    });
  }

  takeFlow(flow: BodyFlow): void {
    this.bodyFlow = flow;
    // Nothing is read before the admission check answered: a refused client sends nothing into memory.
    if (!this.admitted) this.flow(false);
  }

  abort(): void {
    if (this.gone) return;
    if (this.paused) this.flow(true); // the rest of a refused body is still read (and dropped)
    this.gone = true;
    this.paused = false;
    void this.queue.then(() => this.release());
  }

  finished(): void {
    if (this.gone) return;
    this.gone = true;
    if (this.completed && (!this.options.deleteUploadedFilesOnEnd || this.upload?.moved)) return;
    void this.queue.then(() => this.release());
  }

  private async admit(admit: AdmitBody): Promise<void> {
    const allowed = await admit(this.ctx);
    if (allowed !== undefined) {
      if (!Number.isSafeInteger(allowed) || allowed < 0)
        throw errors.RU_ERR_FILE_BODY_ADMISSION(
          `@FileBody admission returned ${allowed}: expected a whole number of bytes or undefined`,
        );
      this.currentLimit = Math.min(this.currentLimit, allowed);
    }
    const declared = this.ctx.request.getHeader('content-length');
    if (declared !== undefined && declared !== '' && Number(declared) > this.currentLimit)
      throw errors.RU_ERR_UPLOAD_TOO_LARGE(
        `Request body of ${declared} bytes exceeds the limit of ${this.currentLimit} bytes`,
      );
    this.admitted = true;
    if (this.paused && this.queuedBytes < RESUME_BELOW) this.flow(true);
  }

  /** Runs a disk operation after the previous ones; after a failure or once the request is gone, skips it. */
  private enqueue(op: () => Promise<void>): void {
    this.queue = this.queue.then(() => {
      if (this.failure !== undefined || this.gone) return;
      return op().catch((err) => {
        // Reported through the next write or the end of the body (and answered by the exception handlers).
        this.failure ??= err;
        if (this.paused) this.flow(true); // let the body come, so the next write reports the failure
      });
    });
  }

  private flow(resume: boolean): void {
    const response = this.ctx.response;
    const flow = this.bodyFlow;
    if (flow === null || this.gone || response.aborted() || response.ended()) return;
    this.paused = !resume;
    if (resume) flow.resume();
    else flow.pause();
  }

  private async release(): Promise<void> {
    if (this.handle !== null) {
      await this.handle.close().catch(() => undefined);
      this.handle = null;
    }
    await fs.promises.unlink(this.stored).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR')
        this.logger.error({ err, path: this.stored }, 'deleting an uploaded file failed');
    });
  }
}
