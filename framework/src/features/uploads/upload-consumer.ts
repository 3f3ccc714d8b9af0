import { Buffer } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import {
  FILE_UPLOADS,
  FORM_FIELDS,
  FileUpload,
  PayloadTooLargeException,
  errors,
  type BodyConsumer,
  type BodyFlow,
  type Logger,
  type RoutingContext,
} from '../../plugin';
import { MultipartParser, type MultipartEvents } from './multipart-parser';
import { parsePartHeaders, type PartInfo } from './part-headers';
import type { UploadOptions } from './upload-options';

/** Bytes handed to the disk but not yet written above which the client is paused, and below which it resumes. */
export const PAUSE_ABOVE = 4 * 1024 * 1024;
export const RESUME_BELOW = 1024 * 1024;

type Part =
  | { kind: 'field'; info: PartInfo; chunks: Buffer[]; size: number }
  | {
      kind: 'file';
      info: PartInfo;
      size: number;
      path: string;
      handle: FileHandle | null;
      record: { path: string; upload?: FileUpload };
    }
  /** A file input left empty (`filename=""`): its content, if any, is dropped. */
  | { kind: 'skip' };

/**
 * Takes a multipart/form-data body as it streams in: plain fields are collected (for `@FormParam`),
 * files are written to the uploads folder under generated names, one disk operation at a time and
 * in order. The client is paused while the disk lags behind, so memory stays bounded. Over a limit:
 * 413; aborted or refused: every file created is deleted; at the end of the request, the files
 * not moved are deleted (unless `deleteUploadedFilesOnEnd` is false).
 */
export class UploadConsumer implements BodyConsumer, MultipartEvents {
  readonly limit: number;
  private readonly parser: MultipartParser;
  private readonly fields = new Map<string, string[]>();
  private readonly uploads: FileUpload[] = [];
  /** Every file this request created, with its upload once complete (its path may change when moved). */
  private readonly created: Array<{ path: string; upload?: FileUpload }> = [];
  /** The body was stored completely and handed to the routes. */
  private completed = false;
  private readonly openHandles = new Set<FileHandle>();
  private part: Part | null = null;
  private fileCount = 0;
  private fieldCount = 0;
  /** Disk operations, chained so they run in order. */
  private queue: Promise<void> = Promise.resolve();
  private queuedBytes = 0;
  private paused = false;
  private folderReady: Promise<void> | null = null;
  private failure: unknown = undefined;
  private gone = false;
  /** How the adapter pauses the body (none: the body cannot be paused, and is taken as it comes). */
  private bodyFlow: BodyFlow | null = null;

  constructor(
    private readonly ctx: RoutingContext,
    boundary: string,
    private readonly options: UploadOptions,
    bodyLimit: number,
    private readonly logger: Logger,
  ) {
    this.limit = bodyLimit;
    this.parser = new MultipartParser(boundary, this);
  }

  write(chunk: Buffer): void {
    if (this.failure !== undefined) throw this.failure;
    this.parser.write(chunk);
    if (!this.paused && this.queuedBytes > PAUSE_ABOVE) this.flow(false);
  }

  end(): Promise<void> {
    this.parser.end();
    return this.queue.then(() => {
      if (this.failure !== undefined) throw this.failure;
      this.ctx.put(FORM_FIELDS, this.fields);
      this.ctx.put(FILE_UPLOADS, this.uploads);
      this.completed = true;
    });
  }

  takeFlow(flow: BodyFlow): void {
    this.bodyFlow = flow;
  }

  abort(): void {
    if (this.gone) return;
    if (this.paused) this.flow(true); // the rest of a refused body is still read (and dropped)
    this.gone = true;
    this.paused = false;
    // Once queued operations settled, nothing can create a file any more: close and delete everything.
    void this.queue.then(() => this.release(this.created.map((c) => c.path)));
  }

  finished(): void {
    if (this.gone) return;
    this.gone = true;
    // Files of a body that never reached the routes (disk error) are nobody's: always deleted.
    if (this.completed && !this.options.deleteUploadedFilesOnEnd) return;
    const doomed = this.created.filter((c) => !(this.completed && c.upload?.moved)).map((c) => c.path);
    void this.queue.then(() => this.release(doomed));
  }

  // Parser events.

  partBegin(headerBlock: Buffer): void {
    const info = parsePartHeaders(headerBlock);
    if (info.fileName === undefined) {
      if (++this.fieldCount > this.options.maxFields) throw tooLarge(`more than ${this.options.maxFields} form fields`);
      this.part = { kind: 'field', info, chunks: [], size: 0 };
      return;
    }
    if (info.fileName === '') {
      this.part = { kind: 'skip' };
      return;
    }
    if (++this.fileCount > this.options.maxFiles) throw tooLarge(`more than ${this.options.maxFiles} files`);
    const stored = path.join(this.options.uploadsDirectory, randomUUID());
    const part: Part = { kind: 'file', info, size: 0, path: stored, handle: null, record: { path: stored } };
    this.part = part;
    this.created.push(part.record);
    this.enqueue(async () => {
      await (this.folderReady ??= fs.promises
        .mkdir(this.options.uploadsDirectory, { recursive: true, mode: 0o700 })
        .then(() => undefined));
      // 'wx': never follow or overwrite an existing name; 0o600: only the server's user reads uploads.
      part.handle = await fs.promises.open(stored, 'wx', 0o600);
      this.openHandles.add(part.handle);
    });
  }

  partData(data: Buffer): void {
    const part = this.part;
    if (part === null || part.kind === 'skip') return;
    part.size += data.length;
    if (part.kind === 'field') {
      if (part.size > this.options.maxFieldSize)
        throw tooLarge(`form field "${part.info.fieldName}" is larger than ${this.options.maxFieldSize} bytes`);
      part.chunks.push(data);
      return;
    }
    if (part.size > this.options.maxFileSize)
      throw tooLarge(`file "${part.info.fileName}" is larger than ${this.options.maxFileSize} bytes`);
    this.queuedBytes += data.length;
    this.enqueue(async () => {
      try {
        await writeAll(part.handle!, data);
      } finally {
        this.queuedBytes -= data.length;
        if (this.paused && this.queuedBytes < RESUME_BELOW) this.flow(true);
      }
    });
  }

  partEnd(): void {
    const part = this.part;
    this.part = null;
    if (part === null || part.kind === 'skip') return;
    if (part.kind === 'field') {
      const value =
        part.chunks.length === 1
          ? part.chunks[0]!.toString('utf8')
          : Buffer.concat(part.chunks, part.size).toString('utf8');
      const list = this.fields.get(part.info.fieldName);
      if (list) list.push(value);
      else this.fields.set(part.info.fieldName, [value]);
      return;
    }
    const { info } = part;
    const upload = new FileUpload(
      info.fieldName,
      info.fileName ?? '',
      info.contentType ?? 'application/octet-stream',
      info.charset,
      part.size,
      part.path,
    );
    part.record.upload = upload;
    this.uploads.push(upload);
    this.enqueue(async () => {
      const handle = part.handle!;
      this.openHandles.delete(handle);
      await handle.close();
    });
  }

  // Internals.

  /** Runs a disk operation after the previous ones; after a failure or once the request is gone, skips it. */
  private enqueue(op: () => Promise<void>): void {
    this.queue = this.queue.then(() => {
      if (this.failure !== undefined || this.gone) return;
      return op().catch((err) => {
        // Reported (and logged by the exception handling) through the next write or the end of the body.
        this.failure ??= err;
        if (this.paused) this.flow(true); // let the body come, so the next write reports the failure
      });
    });
  }

  /** Pauses or resumes reading the request body (the adapter's `BodyFlow`), while the response is still open. */
  private flow(resume: boolean): void {
    const response = this.ctx.response;
    const flow = this.bodyFlow;
    if (flow === null || this.gone || response.aborted() || response.ended()) return;
    this.paused = !resume;
    if (resume) flow.resume();
    else flow.pause();
  }

  private async release(paths: readonly string[]): Promise<void> {
    for (const handle of this.openHandles) await handle.close().catch(() => undefined);
    this.openHandles.clear();
    for (const p of paths) {
      await fs.promises.unlink(p).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR')
          this.logger.error({ err, path: p }, 'deleting an uploaded file failed');
      });
    }
  }
}

export async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

function tooLarge(what: string): PayloadTooLargeException {
  return errors.RU_ERR_UPLOAD_TOO_LARGE(`Upload refused: ${what}`);
}
