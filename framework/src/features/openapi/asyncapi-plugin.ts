import { ApiExclude, Context, GET, HttpServerResponse, Path, PermitAll, type RestPlugin } from '../../plugin';
import {
  buildAsyncApiDocument,
  checkAsyncApiOptions,
  type AsyncApiOptions,
  type AsyncApiSource,
} from './asyncapi-document';

/** Serves an app's AsyncAPI document; built on first request, and again when endpoints were added since. */
export class AsyncApiDocumentResource {
  private cached: { endpoints: number; json: string } | undefined;

  constructor(
    private readonly source: AsyncApiSource,
    private readonly options: AsyncApiOptions,
  ) {}

  @GET
  @Path('/')
  @PermitAll
  @ApiExclude
  document(@Context() response: HttpServerResponse): void {
    const endpoints = this.source.webSockets().length;
    if (this.cached === undefined || this.cached.endpoints !== endpoints) {
      this.cached = { endpoints, json: JSON.stringify(buildAsyncApiDocument(this.source, this.options)) };
    }
    response.putHeader('content-type', 'application/json');
    response.end(this.cached.json);
  }
}

/**
 * Serves the app's AsyncAPI 3.0 document (its `@WebSocket` endpoints and their `@ApiMessages`) as JSON at
 * `options.path` (default `/asyncapi.json`), beside the OpenAPI document. The document route is public and not
 * listed in the OpenAPI document.
 *
 * ```ts
 * new RestBuilder().register(ChatEndpoint).use(asyncApi({ title: 'Chat', version: '1.0.0' }))
 * ```
 */
export function asyncApi(options: AsyncApiOptions): RestPlugin {
  checkAsyncApiOptions(options);
  return {
    name: 'asyncapi',
    setup(app) {
      class AsyncApiDocument extends AsyncApiDocumentResource {}
      Path(options.path ?? '/asyncapi.json')(AsyncApiDocument);
      app.register(new AsyncApiDocument(app, options));
    },
  };
}
