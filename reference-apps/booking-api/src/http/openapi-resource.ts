import {
  ApiExclude,
  Context,
  GET,
  openApiDocument,
  Path,
  PermitAll,
  Produces,
  SkipRateLimit,
  UwsApp,
  type JsonSchema,
  type OpenApiOptions,
} from 'rest.uws';
import { withNullableOptionals } from './nullable-optionals';

/**
 * Serves the OpenAPI 3.1 document rest.uws generates from the routes and DTOs (openApiDocument), with optional
 * properties made nullable (see withNullableOptionals). Public, not rate limited (built once, then a cached
 * object), and not listed in the document itself.
 */
@PermitAll
@SkipRateLimit()
@ApiExclude
@Produces('application/json')
export class OpenApiResource {
  private document: JsonSchema | undefined;

  constructor(private readonly options: OpenApiOptions) {}

  @GET
  @Path('/')
  get(@Context() app: UwsApp): JsonSchema {
    // Built on first request, when every route of the app exists.
    return (this.document ??= withNullableOptionals(openApiDocument(app, this.options)));
  }
}

/** The document resource at `path` (a class per path: @Path is class metadata). */
export function openApiResourceAt(path: string, options: OpenApiOptions): OpenApiResource {
  @Path(path)
  class OpenApiDocument extends OpenApiResource {}
  return new OpenApiDocument(options);
}
