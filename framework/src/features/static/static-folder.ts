import { ApiExclude, GET, Path, PathParam, ResponseWriter, errors, type Constructor } from '../../plugin';
import { FileResponseWriter, type FileResponseWriterOptions } from './file-response-writer';

/**
 * A REST class serving every file of `directory` under the URL prefix `urlPrefix`:
 * `GET /static/app.js` sends `<directory>/app.js`, `GET /static/` its `index.html`. Register it like
 * any REST class (`RestRouter.register(app, staticFolder('/static', dir))`) or use
 * `RestBuilder.staticFiles('/static', dir)`. The URL path is decoded once by the router and then
 * checked like any returned path: traversal attempts get 403, unknown files 404. Its routes are not listed in
 * the OpenAPI document.
 */
export function staticFolder(
  urlPrefix: string,
  directory: string,
  options: Omit<FileResponseWriterOptions, 'root'> = {},
): Constructor {
  if (typeof urlPrefix !== 'string' || !urlPrefix.startsWith('/'))
    throw errors.RU_ERR_STATIC_OPTIONS(
      `rest.uws: staticFolder's URL prefix must start with "/" (got ${JSON.stringify(urlPrefix)})`,
    );
  const Writer = FileResponseWriter.under(directory, { redirectFolders: true, ...options });

  // Files, not API operations: left out of the OpenAPI document.
  @Path(urlPrefix)
  @ApiExclude
  class StaticFolder {
    /** The folder itself: its index file. */
    @GET
    @Path('/')
    @ResponseWriter(Writer)
    index(): string {
      return '';
    }

    /** Any file below the folder (the remainder of the path, decoded once). */
    @GET
    @Path('{path:.+}')
    @ResponseWriter(Writer)
    file(@PathParam('path') relativePath: string): string {
      return relativePath;
    }
  }
  Object.defineProperty(StaticFolder, 'name', { value: `StaticFolder(${urlPrefix})` });
  return StaticFolder;
}
