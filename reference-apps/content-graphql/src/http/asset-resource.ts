import { readFile } from 'node:fs/promises';
import {
  ApiOperation,
  ApiResponse,
  ApiTags,
  BadRequestException,
  Context,
  GET,
  HttpServerRequest,
  HttpServerResponse,
  NotFoundException,
  Path,
  PathParam,
} from 'rest.uws';
import type { AssetFileService } from '../domain/assets/asset-file-service';
import { FILE } from './openapi-schemas';

/** Asset files under `/assets/...`: originals, and transforms generated on their first request. */
export function assetResource(files: AssetFileService): object {
  @Path('/assets')
  @ApiTags('Assets')
  class AssetResource {
    @GET
    @Path('/{file:.+}')
    @ApiOperation({
      summary:
        'An asset file (`<volume>/<path>`), or a transform of an image (`<volume>/_<transform>/<path>`), made on its first request',
    })
    @ApiResponse(200, {
      schema: FILE,
      mediaType: '*/*',
      description: 'The file, with its own type (image/png, image/jpeg...)',
      headers: { 'Cache-Control': 'public, max-age=86400' },
    })
    @ApiResponse(400, 'A malformed or escaping path (`..`)')
    @ApiResponse(404, 'No such volume, asset, transform or file')
    async file(
      @PathParam('file') file: string,
      @Context() req: HttpServerRequest,
      @Context() res: HttpServerResponse,
    ): Promise<void> {
      void file;
      const answer = await files.resolve(req.path());
      // Answered by the app's handler, in rest.uws's error shape like every REST route of the app.
      if (answer.status === 400) throw new BadRequestException(answer.message, { code: 'CG_ASSET_PATH' });
      if (answer.status !== 200) throw new NotFoundException(answer.message, { code: 'CG_NO_ASSET' });
      const data = await readFile(answer.path);
      res
        .setStatusCode(200)
        .putHeader('Content-Type', answer.contentType)
        .putHeader('Cache-Control', 'public, max-age=86400')
        .end(data);
    }
  }
  return new AssetResource();
}
