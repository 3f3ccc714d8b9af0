import { ApiExclude, Context, GET, HttpServerResponse, Path, PermitAll } from '../../plugin';
import type { OpenApiSource } from './document-builder';
import { buildOpenApiDocument, type OpenApiOptions } from './document-builder';

/**
 * Serves an app's OpenAPI document. Each app gets a subclass carrying its path (`@Path` on the
 * class); the document is built on first request, once every route exists, and again if routes
 * were added since.
 */
export class OpenApiDocumentResource {
  private cached: { routes: number; json: string } | undefined;

  constructor(
    private readonly source: OpenApiSource,
    private readonly options: OpenApiOptions,
  ) {}

  @GET
  @Path('/')
  @PermitAll
  @ApiExclude
  document(@Context() response: HttpServerResponse): void {
    const routes = this.source.routes().length;
    if (this.cached === undefined || this.cached.routes !== routes) {
      this.cached = { routes, json: JSON.stringify(buildOpenApiDocument(this.source, this.options)) };
    }
    response.putHeader('content-type', 'application/json');
    response.end(this.cached.json);
  }
}

/** The document route of one app, at `options.path` (default `/openapi.json`). */
export function documentResourceFor(source: OpenApiSource, options: OpenApiOptions): OpenApiDocumentResource {
  class OpenApiDocument extends OpenApiDocumentResource {}
  Path(options.path ?? '/openapi.json')(OpenApiDocument);
  return new OpenApiDocument(source, options);
}
