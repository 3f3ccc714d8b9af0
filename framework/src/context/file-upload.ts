import * as fs from 'node:fs';
import * as path from 'node:path';
import { errors } from '../errors/factories';

/**
 * A file received in a multipart/form-data request, already stored in the uploads folder under a
 * name the server generated. The client's file name is metadata only, never part of `path`.
 * Read it with `ctx.fileUploads()`. Unless moved (`moveTo`), the file is deleted when the request
 * ends (see `deleteUploadedFilesOnEnd`). The uploads plugin (`features/uploads`) makes them; like `User`, what a
 * route sees of them lives beside the RoutingContext.
 */
export class FileUpload {
  private _path: string;
  private _moved = false;

  constructor(
    /** The form field the file came in. */
    readonly fieldName: string,
    /** The client's file name (last path component, as sent); may be empty or anything: never trust it as a path. */
    readonly fileName: string,
    /** The part's Content-Type as sent (application/octet-stream when none was given). */
    readonly contentType: string,
    /** The part's charset parameter, when sent. */
    readonly charset: string | undefined,
    /** Bytes stored. */
    readonly size: number,
    storedAt: string,
  ) {
    this._path = storedAt;
  }

  /** Where the file is now: in the uploads folder under a generated name, or where `moveTo` put it. */
  get path(): string {
    return this._path;
  }

  /** Whether the file was moved out of the request's care (it is then kept). */
  get moved(): boolean {
    return this._moved;
  }

  /**
   * Moves the file to `destination` (a file path; its folder must exist) and keeps it after the
   * request. Works across file systems (copy, then delete). Refuses to overwrite an existing file.
   */
  async moveTo(destination: string): Promise<string> {
    const target = path.resolve(destination);
    await fs.promises.access(target).then(
      () => {
        throw Object.assign(errors.RU_ERR_FILE_EXISTS(`FileUpload.moveTo: ${target} already exists`), {
          code: 'EEXIST',
        });
      },
      () => undefined,
    );
    try {
      await fs.promises.rename(this._path, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await fs.promises.copyFile(this._path, target, fs.constants.COPYFILE_EXCL);
      await fs.promises.unlink(this._path);
    }
    this._path = target;
    this._moved = true;
    return target;
  }

  /** Marks the file as kept where it is: it is not deleted when the request ends. */
  keep(): void {
    this._moved = true;
  }

  /** Plain data for logs and JSON answers. */
  toJSON(): {
    /** The form field's name. */
    fieldName: string;
    /** The file name the client sent. */
    fileName: string;
    /** The part's Content-Type. */
    contentType: string;
    /** The size in bytes. */
    size: number;
  } {
    return { fieldName: this.fieldName, fileName: this.fileName, contentType: this.contentType, size: this.size };
  }
}

/** @internal Key of the request's uploaded files in the routing context: the uploads plugin puts them, `ctx.fileUploads()` reads them. */
export const FILE_UPLOADS: unique symbol = Symbol('rest.uws:file-uploads');
