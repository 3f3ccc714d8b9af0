import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  Handles,
  chooseCodings,
  errors,
  type HttpResponseWriter,
  type HttpServerRequest,
  type HttpServerResponse,
} from '../../plugin';
import { parseRange } from './byte-range';
import { evaluatePreconditions, ifRangeHolds, validatorsOf } from './conditional-requests';
import { DEFAULT_CHUNK_SIZE, streamFileBody } from './file-streamer';
import { mediaTypeOfFile } from './media-types';
import { FileRoot, joinUnderRoot, notFound, realPathUnderRoot, type DotFiles } from './safe-path';

/** The app's root for requests of FileResponseWriter routes whose writer has no root of its own (set by the route's first stage). */
const appRoots = new WeakMap<HttpServerRequest, FileRoot>();

/** @internal gives a request the app's static files root */
export function bindAppRoot(request: HttpServerRequest, root: FileRoot): void {
  appRoots.set(request, root);
}

/** How files are served: where from, and which headers they get. */
export interface FileResponseWriterOptions {
  /** Folder the returned relative paths are resolved in. Default: the app's `RestBuilder.staticFiles(root)`. */
  root?: string;
  /** File served for a folder (`false`: a folder is 404). Default `index.html`. */
  index?: string | false;
  /** Names starting with a dot: `ignore` (404, default), `deny` (403) or `allow`. */
  dotFiles?: DotFiles;
  /** Cache-Control of every file (`false`: none). Default `public, max-age=0`: cache, but revalidate with ETag/Last-Modified. */
  cacheControl?: string | false;
  /** Answer `Range` requests with 206 (default true); `Accept-Ranges: bytes` says so. */
  ranges?: boolean;
  /** Content types for more extensions (`{ glb: 'model/gltf-binary' }`), consulted first. */
  contentTypes?: Record<string, string>;
  /** A folder requested without a trailing slash is redirected (301) to one, so relative links in its index work. Default false (folder mounts: true). */
  redirectFolders?: boolean;
  /** Bytes read per step while streaming (default 256 KiB; one buffer of at most this size per transfer). */
  chunkSize?: number;
  /**
   * Serve `name.br` or `name.gz` beside a file instead of it when present and the client accepts that coding
   * (`Content-Encoding`, the original's Content-Type, `Vary: Accept-Encoding`). Default false: each request then
   * costs a look for the variants.
   */
  precompressed?: boolean;
}

/** Precompressed variants, in the server's order of preference, and their file name suffixes. */
const VARIANTS: readonly string[] = ['br', 'gzip'];
const SUFFIX: Readonly<Record<string, string>> = { br: '.br', gzip: '.gz' };

/** A precompressed file sent in place of the requested one. */
interface Variant {
  file: string;
  coding: string;
}

/**
 * Serves a file: the method returns a path relative to the root, `@ResponseWriter(FileResponseWriter)`
 * sends that file. Content-Type from the extension; ETag and Last-Modified with 304 answers;
 * Range with 206/416; HEAD; the body streamed from disk with backpressure, never read whole into
 * memory. Paths that try to leave the root (`..`, absolute paths, backslashes, NUL, symbolic links
 * out of the root) get 403, missing files 404; a method returning null gets 404.
 *
 * ```ts
 * @GET @Path('/docs/{page}') @ResponseWriter(FileResponseWriter)
 * page(@PathParam('page') page: string) { return `docs/${page}.html`; }
 * ```
 *
 * The root is the app's (`new RestBuilder().staticFiles(dir)`), or the writer's own:
 * `@ResponseWriter(FileResponseWriter.under(dir))`.
 */
@Handles(String)
export class FileResponseWriter implements HttpResponseWriter<string | null> {
  private readonly options: FileResponseWriterOptions;
  private readonly root: FileRoot | undefined;

  constructor(options: FileResponseWriterOptions = {}) {
    this.options = options;
    if (options.chunkSize !== undefined && !(Number.isInteger(options.chunkSize) && options.chunkSize > 0)) {
      throw errors.RU_ERR_STATIC_OPTIONS(
        'rest.uws: FileResponseWriter chunkSize must be a positive whole number of bytes',
      );
    }
    if (options.root !== undefined) this.root = new FileRoot(options.root, 'FileResponseWriter');
  }

  /** A FileResponseWriter class serving from `root`, for `@ResponseWriter(FileResponseWriter.under(dir))`. */
  static under(root: string, options: Omit<FileResponseWriterOptions, 'root'> = {}): typeof FileResponseWriter {
    const fileRoot = new FileRoot(root, 'FileResponseWriter.under');
    return class FileResponseWriterUnderRoot extends FileResponseWriter {
      constructor() {
        super({ ...options, root: fileRoot.realPath });
      }
    };
  }

  /** Whether the writer was given its own root (otherwise the app's applies). */
  hasOwnRoot(): boolean {
    return this.options.root !== undefined;
  }

  async write(relativePath: string | null, request: HttpServerRequest, response: HttpServerResponse): Promise<void> {
    const root = this.root ?? appRoots.get(request);
    if (root === undefined)
      throw errors.RU_ERR_STATIC_ROOT(
        'FileResponseWriter has no root folder: set RestBuilder.staticFiles(root) or use FileResponseWriter.under(root)',
      );
    if (relativePath === null) throw notFound();
    if (typeof relativePath !== 'string')
      throw errors.RU_ERR_FILE_PATH_TYPE(
        `FileResponseWriter writes a relative file path; the method returned ${typeof relativePath}`,
      );
    const dotFiles = this.options.dotFiles ?? 'ignore';
    let real = await realPathUnderRoot(root, joinUnderRoot(root, relativePath, dotFiles));
    let stats = await statOf(real);
    if (stats.isDirectory()) {
      const index = this.options.index ?? 'index.html';
      if (index === false) throw notFound();
      if (this.options.redirectFolders === true && !request.path().endsWith('/')) {
        const query = request.query();
        response.setStatusCode(301).putHeader('Location', `${request.path()}/${query.length > 0 ? `?${query}` : ''}`);
        response.end();
        return;
      }
      real = await realPathUnderRoot(root, path.join(real, index));
      stats = await statOf(real);
    }
    if (!stats.isFile()) throw notFound();
    const variant =
      this.options.precompressed === true ? await precompressedVariant(root, real, request, response) : undefined;
    await this.send(real, variant, request, response);
  }

  private async send(
    real: string,
    variant: Variant | undefined,
    request: HttpServerRequest,
    response: HttpServerResponse,
  ): Promise<void> {
    // Open first, then describe what was opened: the answer matches the bytes sent even if the file is replaced meanwhile.
    // O_NOFOLLOW: the checked path must not have become a link; O_NONBLOCK: a FIFO put there meanwhile cannot hang the open.
    const file = await fs.promises
      .open(variant?.file ?? real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK)
      .catch((err) => {
        throw fileError(err);
      });
    try {
      const stats = await file.stat();
      if (!stats.isFile()) throw notFound();
      const size = stats.size;
      const validators = validatorsOf(stats, variant?.coding);
      if (variant !== undefined) response.putHeader('Content-Encoding', variant.coding);
      const isHead = request.method() === 'HEAD';
      response.putHeader('ETag', validators.etag).putHeader('Last-Modified', validators.lastModified);
      if (this.options.cacheControl !== false)
        response.putHeader('Cache-Control', this.options.cacheControl ?? 'public, max-age=0');

      const outcome = evaluatePreconditions(request, validators);
      if (outcome === 'not-modified') {
        response.removeHeader('Content-Type');
        response.setStatusCode(304).endWithoutBody();
        return;
      }
      if (outcome === 'failed') {
        throw errors.RU_ERR_PRECONDITION_FAILED(
          "The file does not match the request's preconditions (If-Match / If-Unmodified-Since)",
        );
      }

      const type = mediaTypeOfFile(real, this.options.contentTypes);
      if (type !== undefined) response.putHeader('Content-Type', type);
      else if (!response.hasHeader('Content-Type')) response.putHeader('Content-Type', 'application/octet-stream');

      let start = 0;
      let length = size;
      if (this.options.ranges !== false) {
        response.putHeader('Accept-Ranges', 'bytes');
        const range = ifRangeHolds(request, validators) ? parseRange(request.getHeader('range'), size) : undefined;
        if (range === 'unsatisfiable') {
          throw errors.RU_ERR_RANGE_NOT_SATISFIABLE(`The requested range is outside the file (${size} bytes)`, {
            headers: { 'Content-Range': `bytes */${size}` },
          });
        }
        if (range !== undefined) {
          start = range.start;
          length = range.end - range.start + 1;
          response.setStatusCode(206).putHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
        }
      }
      if (isHead) {
        response.endWithoutBody(length);
        return;
      }
      if (length === 0) {
        response.end();
        return;
      }
      await streamFileBody(response, file, start, length, this.options.chunkSize ?? DEFAULT_CHUNK_SIZE);
    } finally {
      await file.close().catch(() => undefined);
    }
  }
}

/**
 * The precompressed file to send for `real`, if any: the best coding the client accepts whose file exists, is a
 * regular file and stays under the root. The answer varies by Accept-Encoding whichever is sent.
 */
async function precompressedVariant(
  root: FileRoot,
  real: string,
  request: HttpServerRequest,
  response: HttpServerResponse,
): Promise<Variant | undefined> {
  response.putHeader('Vary', 'Accept-Encoding');
  for (const coding of chooseCodings(request.getHeader('accept-encoding'), VARIANTS).codings) {
    try {
      const file = await realPathUnderRoot(root, real + SUFFIX[coding]);
      if ((await fs.promises.stat(file)).isFile()) return { file, coding };
    } catch {
      // Absent, unreadable or a link out of the root: the next coding, or the file itself.
    }
  }
  return undefined;
}

/** Stats of a checked path; a file that vanished since the check is 404. */
function statOf(real: string): Promise<fs.Stats> {
  return fs.promises.stat(real).catch((err) => {
    throw fileError(err);
  });
}

/** File system errors a client may cause (the file went away, became a link, is unreadable) as HTTP errors; others as they are. */
function fileError(err: NodeJS.ErrnoException): unknown {
  if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return notFound();
  if (err.code === 'ELOOP' || err.code === 'EACCES' || err.code === 'EPERM')
    return errors.RU_ERR_PATH_FORBIDDEN('The requested file cannot be served');
  return err;
}
