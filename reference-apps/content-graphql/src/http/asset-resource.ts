import { readFile } from 'node:fs/promises';
import { Context, GET, HttpServerRequest, HttpServerResponse, Path, PathParam } from 'rest.uws';
import type { AssetFileService } from '../domain/assets/asset-file-service';

/** Asset files under `/assets/...`: originals, and transforms generated on their first request. */
export function assetResource(files: AssetFileService): object {
  @Path('/assets')
  class AssetResource {
    @GET
    @Path('/{file:.+}')
    async file(@PathParam('file') file: string, @Context() req: HttpServerRequest, @Context() res: HttpServerResponse): Promise<void> {
      void file;
      const answer = await files.resolve(req.path());
      if (answer.status !== 200) {
        res.setStatusCode(answer.status).putHeader('Content-Type', 'application/json; charset=utf-8').end(JSON.stringify({ error: answer.message }));
        return;
      }
      const data = await readFile(answer.path);
      res.setStatusCode(200).putHeader('Content-Type', answer.contentType).putHeader('Cache-Control', 'public, max-age=86400').end(data);
    }
  }
  return new AssetResource();
}
