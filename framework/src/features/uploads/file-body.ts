import { SetMetadata, errors, type Provided, type RoutingContext } from '../../plugin';

/** Metadata key of `@FileBody`. */
export const FILE_BODY = Symbol('rest.uws:file-body');

/**
 * Decides, before a byte of a `@FileBody` is stored, whether this request may send it and how large it may be.
 * Given as a class (made by the app's injection provider, so it can use the app's services) or an instance.
 */
export interface FileBodyAdmission {
  /**
   * Called once per request, after the route is matched and before its body is stored (path parameters, query and
   * headers are readable; the route's own hooks, such as authentication, have not run yet). Returns the largest body
   * this request may send in bytes (it only lowers the route's `maxSize`), or undefined for `maxSize`. Throwing (or
   * rejecting) refuses the body: nothing is stored and the error is answered through the exception handlers.
   */
  admit(ctx: RoutingContext): number | undefined | Promise<number | undefined>;
}

/** Options of `@FileBody`: how large a body may be, and who admits it. */
export interface FileBodyOptions {
  /** Largest body in bytes; default: the app's `maxBodySize`. It may be larger than `maxBodySize`. */
  readonly maxSize?: number;
  /** Checks each request before its body is stored (a signature, a quota, a declared size). */
  readonly admission?: Provided<FileBodyAdmission>;
}

/** What the uploads plugin reads from a route's `@FileBody`. */
export interface FileBodySpec {
  readonly maxSize: number | undefined;
  readonly admission: Provided<FileBodyAdmission> | undefined;
}

/**
 * The route's request body, whatever its Content-Type, is streamed to a file in the uploads folder as it arrives
 * (never held in memory) and handed to the route as the one entry of `ctx.fileUploads()`: field and file name
 * empty, the request's Content-Type, its size. The file follows the uploads' rules (deleted when the request ends
 * unless moved or kept, deleted when the body is refused or the client leaves), and the client is paused while the
 * disk lags behind. A multipart/form-data body is still parsed into fields and files. Body arguments get nothing.
 *
 * ```ts
 * @PUT @Path('/recordings/:id') @FileBody({ maxSize: 1024 ** 3 })
 * async store(@PathParam('id') id: string, @Context() ctx: RoutingContext) {
 *   await ctx.fileUploads()[0].moveTo(path.join(recordings, id));
 * }
 * ```
 */
export function FileBody(options: FileBodyOptions = {}): MethodDecorator {
  if (options === null || typeof options !== 'object')
    throw errors.RU_ERR_BODY_OPTIONS('@FileBody takes an options object');
  const { maxSize, admission } = options;
  if (maxSize !== undefined && (!Number.isSafeInteger(maxSize) || maxSize < 0))
    throw errors.RU_ERR_BODY_OPTIONS(`@FileBody: maxSize must be a whole number of bytes, got ${maxSize}`);
  if (
    admission !== undefined &&
    (admission === null ||
      (typeof admission !== 'function' && typeof (admission as FileBodyAdmission).admit !== 'function'))
  )
    throw errors.RU_ERR_BODY_OPTIONS('@FileBody: admission must be a class or an object with an admit(ctx) method');
  return SetMetadata<FileBodySpec>(FILE_BODY, { maxSize, admission }) as MethodDecorator;
}
